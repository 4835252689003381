/**
 * The limits on page views per minute: per client address for anonymous readers, per key for
 * signed-in ones (the web router makes one limiter of each). Pages are not charged to any key's
 * monthly quota, so without them the web pages would be a way round the API's quotas at scale. Counted in this
 * process's memory (rate-limiter-flexible): with several instances behind a balancer each counts
 * its own share, so set the limit per instance.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface AnonymousLimiter {
  /** Count one view from `address` (or a key's `key:<id>`): allowed, or refused with the seconds until the next is. */
  take(address: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

/** At most `perMinute` views a minute from each address, in a fixed window of 60 s. */
export function createAnonymousLimiter(perMinute: number): AnonymousLimiter {
  const limiter = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: 'web-anon' });
  return {
    async take(address) {
      try {
        await limiter.consume(address, 1);
        return { allowed: true };
      } catch (refusal) {
        // The library rejects with RateLimiterRes when over the limit, with an Error otherwise.
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
  };
}
