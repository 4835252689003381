/**
 * POST /v1/keys/free: a free key for anyone, limited per client address. The key is shown once
 * and stored only as its hash.
 */
import type { Context } from 'koa';
import * as z from 'zod';
import { invalidInput } from '../errors.ts';
import { SOURCE } from '../operations/envelope.ts';
import type { KeyStore } from '../ports/keys.ts';
import { issueFreeKey as issueKey, isPlausibleEmail } from '../call/free-key.ts';
import { unsafeTextIssue } from '../call/input.ts';

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
  const { key, monthlyQuota } = await issueKey(deps, { email: parsed.data.email ?? null, clientIp: ctx.ip, now });
  ctx.status = 201;
  ctx.body = {
    api_key: key,
    plan: 'free',
    monthly_quota: monthlyQuota,
    note: `This key is shown once and cannot be recovered: keep it. Send it as Authorization: Bearer ${key}`,
    source: SOURCE,
  };
}
