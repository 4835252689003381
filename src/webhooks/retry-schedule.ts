/**
 * When a webhook delivery is tried again, and when it is given up. Pure: the sender reports how an
 * attempt ended and how many attempts the delivery has had, and is told what to do next; the
 * randomness of the jitter is injectable.
 *
 * The first attempt is made at once. After a failed attempt n (1-based) the next waits
 * RETRY_DELAYS_MS[n - 1], spread by ±JITTER so that the deliveries of one outage do not all come
 * back in the same second; after the last delay's attempt fails the delivery is given up. A 2xx
 * answer is success. Any other answer (redirects are not followed, so a 3xx too), a timeout or a
 * connection that fails is retried; 410 Gone disables the endpoint at once, as the receiver asks.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Waits before attempts 2 to 12: 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h six times; 67 h 35 min
 * 5 s in all (before jitter) from the first attempt to the last: about three days of trying, as
 * asked (four times 10 h instead of six would come to about two).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** Attempts a delivery gets: the first and one after each delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Each delay is spread uniformly over ±20 % of itself. */
export const JITTER = 0.2;

/**
 * An endpoint whose attempts have all failed for this long (no 2xx in between) is disabled by
 * the sender, with the reason shown to its owner: three days.
 */
export const DISABLE_FAILING_ENDPOINT_AFTER_MS = 72 * HOUR;

/** How one attempt ended. */
export type AttemptResult =
  | { kind: 'response'; status: number }
  /** No answer within the timeout. */
  | { kind: 'timeout' }
  /** No answer at all: refused, reset, a name that does not resolve, a TLS failure, an address the policy refuses. */
  | { kind: 'network'; error: string };

export type NextStep =
  | { action: 'delivered' }
  | { action: 'retry'; delayMs: number }
  /** Every attempt failed: the delivery is marked failed. */
  | { action: 'give-up' }
  /** 410 Gone: the endpoint is disabled now, and the delivery with it. */
  | { action: 'disable-endpoint'; reason: string };

/** Whether an answer's status is success: 2xx only. */
function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * The wait before the attempt after attempt `attempt` (1-based) failed, with jitter; null when
 * that was the last attempt. `random` is uniform over [0, 1), like Math.random.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) throw new Error(`retryDelayMs: attempt ${attempt} is not 1 or more`);
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  const r = random();
  if (!(r >= 0 && r < 1)) throw new Error(`retryDelayMs: random() gave ${r}, not a number in [0, 1)`);
  return Math.round(base * (1 + JITTER * (2 * r - 1)));
}

/** What to do after attempt `attempt` (1-based, this one included) ended with `result`. */
export function nextStep(result: AttemptResult, attempt: number, random: () => number = Math.random): NextStep {
  if (result.kind === 'response' && isSuccess(result.status)) return { action: 'delivered' };
  if (result.kind === 'response' && result.status === 410) {
    return { action: 'disable-endpoint', reason: 'The endpoint answered 410 Gone.' };
  }
  const delayMs = retryDelayMs(attempt, random);
  return delayMs === null ? { action: 'give-up' } : { action: 'retry', delayMs };
}

/**
 * Whether an endpoint failing since `failingSince` (ISO date-time of its first failed attempt since
 * its last success) is to be disabled at `now`.
 */
export function failingTooLong(failingSince: string | null, now: Date): boolean {
  if (failingSince === null) return false;
  const since = Date.parse(failingSince);
  if (Number.isNaN(since)) throw new Error(`failingTooLong: ${failingSince} is not a date-time`);
  return now.getTime() - since >= DISABLE_FAILING_ENDPOINT_AFTER_MS;
}
