import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DISABLE_FAILING_ENDPOINT_AFTER_MS,
  JITTER,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  failingTooLong,
  nextStep,
  retryDelayMs,
  type AttemptResult,
  type NextStep,
} from '../../src/webhooks/retry-schedule.ts';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

/** random() at the middle of its range: no jitter. */
const middle = () => 0.5;

describe('the schedule', () => {
  test('5 s, 5 min, 30 min, 2 h, 5 h and six times 10 h: twelve attempts over 67 h 35 min 5 s', () => {
    assert.deepEqual(RETRY_DELAYS_MS, [
      5 * S,
      5 * MIN,
      30 * MIN,
      2 * H,
      5 * H,
      10 * H,
      10 * H,
      10 * H,
      10 * H,
      10 * H,
      10 * H,
    ]);
    assert.equal(MAX_ATTEMPTS, 12);
    assert.equal(
      RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0),
      67 * H + 35 * MIN + 5 * S,
    );
  });
});

describe('retryDelayMs', () => {
  const cases: { name: string; attempt: number; random: number; want: number | null }[] = [
    { name: 'after the first attempt, no jitter', attempt: 1, random: 0.5, want: 5 * S },
    { name: 'after the first attempt, at the low end', attempt: 1, random: 0, want: 4 * S },
    { name: 'after the first attempt, at the high end', attempt: 1, random: 0.999_999, want: 6 * S },
    { name: 'after the second', attempt: 2, random: 0.5, want: 5 * MIN },
    { name: 'after the third, a quarter low', attempt: 3, random: 0.25, want: 27 * MIN },
    { name: 'after the fourth', attempt: 4, random: 0.5, want: 2 * H },
    { name: 'after the fifth, a quarter high', attempt: 5, random: 0.75, want: 5.5 * H },
    { name: 'after the sixth', attempt: 6, random: 0.5, want: 10 * H },
    { name: 'after the ninth', attempt: 9, random: 0, want: 8 * H },
    { name: 'after the tenth: 10 h', attempt: 10, random: 0.5, want: 10 * H },
    { name: 'after the twelfth: none, give up', attempt: 12, random: 0.5, want: null },
    { name: 'after one more (a claim whose sender died): none', attempt: MAX_ATTEMPTS + 1, random: 0.5, want: null },
  ];
  for (const { name, attempt, random, want } of cases) {
    test(name, () =>
      assert.equal(
        retryDelayMs(attempt, () => random),
        want,
      ),
    );
  }

  test('every delay stays within ±20 % of its base, whole milliseconds', () => {
    assert.equal(JITTER, 0.2);
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const base = RETRY_DELAYS_MS[attempt - 1]!;
      for (let i = 0; i < 200; i++) {
        const delay = retryDelayMs(attempt)!;
        assert.ok(Number.isInteger(delay), `${delay} is whole`);
        assert.ok(delay >= base * 0.8 && delay <= base * 1.2, `attempt ${attempt}: ${delay} within 20 % of ${base}`);
      }
    }
  });

  test('Math.random spreads the delays: not all the same', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(1)));
    assert.ok(delays.size > 10, `${delays.size} distinct delays`);
  });

  const invalid: { name: string; attempt: number; random: number; want: RegExp }[] = [
    { name: 'attempt 0', attempt: 0, random: 0.5, want: /not 1 or more/ },
    { name: 'a fractional attempt', attempt: 1.5, random: 0.5, want: /not 1 or more/ },
    { name: 'random() of 1', attempt: 1, random: 1, want: /not a number in \[0, 1\)/ },
    { name: 'random() below 0', attempt: 1, random: -0.1, want: /not a number in \[0, 1\)/ },
    { name: 'random() NaN', attempt: 1, random: Number.NaN, want: /not a number in \[0, 1\)/ },
  ];
  for (const { name, attempt, random, want } of invalid) {
    test(`refuses ${name}`, () => assert.throws(() => retryDelayMs(attempt, () => random), want));
  }
});

describe('nextStep', () => {
  const response = (status: number): AttemptResult => ({ kind: 'response', status });
  const gone: NextStep = { action: 'disable-endpoint', reason: 'The endpoint answered 410 Gone.' };
  const cases: { name: string; result: AttemptResult; attempt: number; want: NextStep }[] = [
    { name: '200 is delivered', result: response(200), attempt: 1, want: { action: 'delivered' } },
    { name: '204 is delivered', result: response(204), attempt: 3, want: { action: 'delivered' } },
    { name: '299 is delivered', result: response(299), attempt: 1, want: { action: 'delivered' } },
    {
      name: '2xx on the last attempt is delivered',
      result: response(200),
      attempt: MAX_ATTEMPTS,
      want: { action: 'delivered' },
    },
    { name: '500 is retried', result: response(500), attempt: 1, want: { action: 'retry', delayMs: 5 * S } },
    { name: '503 is retried', result: response(503), attempt: 2, want: { action: 'retry', delayMs: 5 * MIN } },
    { name: '404 is retried', result: response(404), attempt: 3, want: { action: 'retry', delayMs: 30 * MIN } },
    { name: '429 is retried', result: response(429), attempt: 4, want: { action: 'retry', delayMs: 2 * H } },
    { name: '400 is retried', result: response(400), attempt: 1, want: { action: 'retry', delayMs: 5 * S } },
    {
      name: 'a redirect is not followed: retried',
      result: response(301),
      attempt: 1,
      want: { action: 'retry', delayMs: 5 * S },
    },
    { name: '199 is no success', result: response(199), attempt: 1, want: { action: 'retry', delayMs: 5 * S } },
    { name: '300 is no success', result: response(300), attempt: 1, want: { action: 'retry', delayMs: 5 * S } },
    {
      name: 'a timeout is retried',
      result: { kind: 'timeout' },
      attempt: 5,
      want: { action: 'retry', delayMs: 5 * H },
    },
    {
      name: 'a refused connection is retried',
      result: { kind: 'network', error: 'connect ECONNREFUSED 203.0.113.1:443' },
      attempt: 9,
      want: { action: 'retry', delayMs: 10 * H },
    },
    {
      name: '500 on the last attempt gives up',
      result: response(500),
      attempt: MAX_ATTEMPTS,
      want: { action: 'give-up' },
    },
    {
      name: 'a timeout on the last attempt gives up',
      result: { kind: 'timeout' },
      attempt: MAX_ATTEMPTS,
      want: { action: 'give-up' },
    },
    {
      name: 'a refused connection on the last attempt gives up',
      result: { kind: 'network', error: 'ECONNREFUSED' },
      attempt: MAX_ATTEMPTS,
      want: { action: 'give-up' },
    },
    { name: '410 disables at once', result: response(410), attempt: 1, want: gone },
    {
      name: '410 on the last attempt disables rather than gives up',
      result: response(410),
      attempt: MAX_ATTEMPTS,
      want: gone,
    },
  ];
  for (const { name, result, attempt, want } of cases) {
    test(name, () => assert.deepEqual(nextStep(result, attempt, middle), want));
  }

  test('the retry delay carries the jitter drawn', () => {
    assert.deepEqual(
      nextStep(response(500), 1, () => 0),
      { action: 'retry', delayMs: 4 * S },
    );
  });
});

describe('failingTooLong', () => {
  const now = new Date('2026-11-23T20:00:00.000Z');
  const cases: { name: string; since: string | null; want: boolean }[] = [
    { name: 'not failing', since: null, want: false },
    { name: 'failing for a minute', since: '2026-11-23T19:59:00.000Z', want: false },
    { name: 'failing for 71 h 59 min 59.999 s', since: '2026-11-20T20:00:00.001Z', want: false },
    { name: 'failing for exactly three days', since: '2026-11-20T20:00:00.000Z', want: true },
    { name: 'failing for a week', since: '2026-11-16T20:00:00.000Z', want: true },
  ];
  for (const { name, since, want } of cases) {
    test(name, () => assert.equal(failingTooLong(since, now), want));
  }

  test('three days', () => assert.equal(DISABLE_FAILING_ENDPOINT_AFTER_MS, 3 * 24 * H));

  test('a date-time that does not parse is refused', () => {
    assert.throws(() => failingTooLong('yesterday', now), /not a date-time/);
  });
});
