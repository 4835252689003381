/**
 * POST /v1/keys/free: a free key for anyone, limited per client address. The key is shown once
 * and stored only as its hash.
 */
import type { Context } from 'koa';
import * as z from 'zod';
import { FREE_KEYS_PER_IP_PER_HOUR, generateApiKey, hashApiKey, keyPrefix, PLANS } from '../domain/api-keys.ts';
import { AppError, invalidInput } from '../errors.ts';
import { SOURCE } from '../operations/envelope.ts';
import type { KeyStore } from '../ports/keys.ts';
import { unsafeTextIssue } from '../call/input.ts';

/**
 * What a mail system accepts, checked pragmatically: one @, something either side, no spaces or
 * control characters, at most 254 characters (RFC 5321's path limit). Stricter checks refuse real
 * addresses (the contract's own example is a@b.c); whether it delivers is not ours to know.
 */
function isPlausibleEmail(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return text.length <= 254 && /^[^@\s\u0000-\u001F\u007F]+@[^@\s\u0000-\u001F\u007F]+$/.test(text);
}

const FreeKeyRequest = z.strictObject({
  email: z
    .string()
    .refine(isPlausibleEmail, { message: 'must be an e-mail address (one @, no spaces, at most 254 characters)' })
    .optional(),
});

export async function issueFreeKey(
  ctx: Context,
  deps: { keys: KeyStore; metrics: { freeKeyRefused(): void } },
  now: Date,
): Promise<void> {
  if (ctx.state.malformedBody) throw invalidInput('The request body is not valid JSON.');
  // A form or text body is not read: issuing a key without the e-mail it carried would lose it.
  if (ctx.request.length > 0 && !ctx.request.is('application/json'))
    throw invalidInput(
      'Send a JSON object body with Content-Type: application/json: {} or {"email":"you@example.com"}.',
    );
  const body = (ctx.request as { body?: unknown }).body ?? {};
  const unsafe = unsafeTextIssue(body);
  if (unsafe !== null) throw invalidInput(unsafe);
  const parsed = FreeKeyRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') throw invalidInput(`Unknown field "${issue.keys[0]}". Accepted: email.`);
    if (issue.path.length === 0) throw invalidInput('Send a JSON object body: {} or {"email":"you@example.com"}.');
    throw invalidInput(`Invalid "email": ${issue.message}.`);
  }
  const key = generateApiKey();
  const created = await deps.keys.createKey({
    hash: hashApiKey(key),
    prefix: keyPrefix(key),
    plan: 'free',
    email: parsed.data.email ?? null,
    clientIp: ctx.ip,
    createdAt: now.toISOString(),
    freeLimit: { count: FREE_KEYS_PER_IP_PER_HOUR, since: new Date(now.getTime() - 3_600_000).toISOString() },
  });
  if (!created) {
    deps.metrics.freeKeyRefused();
    throw new AppError(
      'RATE_LIMITED',
      `Too many free keys from this address: ${FREE_KEYS_PER_IP_PER_HOUR} an hour. Try again later.`,
      {},
      { headers: { 'Retry-After': '3600' } },
    );
  }
  ctx.status = 201;
  ctx.body = {
    api_key: key,
    plan: 'free',
    monthly_quota: PLANS.free.monthly_quota,
    note: `This key is shown once and cannot be recovered: keep it. Send it as Authorization: Bearer ${key}`,
    source: SOURCE,
  };
}
