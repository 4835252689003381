/**
 * Issuing a free key, for every surface that offers one (REST's POST /v1/keys/free, the web's
 * "get a free key" form): the key is generated, stored only as its hash, and shown once; an
 * address gets at most FREE_KEYS_PER_IP_PER_HOUR in an hour, checked and stored in one atomic step.
 */
import { FREE_KEYS_PER_IP_PER_HOUR, generateApiKey, hashApiKey, keyPrefix, PLANS } from '../domain/api-keys.ts';
import { AppError } from '../errors.ts';
import type { KeyStore } from '../ports/keys.ts';

/**
 * What a mail system accepts, checked pragmatically: one @, something either side, no spaces or
 * control characters, at most 254 characters (RFC 5321's path limit). Stricter checks refuse real
 * addresses (the contract's own example is a@b.c); whether it delivers is not ours to know.
 */
export function isPlausibleEmail(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return text.length <= 254 && /^[^@\s\u0000-\u001F\u007F]+@[^@\s\u0000-\u001F\u007F]+$/.test(text);
}

/** A new free key (its only copy: the store keeps the hash), or the 429 for an address over its hourly limit. */
export async function issueFreeKey(
  deps: { keys: KeyStore; metrics: { freeKeyRefused(): void } },
  request: { email: string | null; clientIp: string; now: Date },
): Promise<{ key: string; monthlyQuota: number }> {
  const { email, clientIp, now } = request;
  const key = generateApiKey();
  const created = await deps.keys.createKey({
    hash: hashApiKey(key),
    prefix: keyPrefix(key),
    plan: 'free',
    email,
    clientIp,
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
  return { key, monthlyQuota: PLANS.free.monthly_quota };
}
