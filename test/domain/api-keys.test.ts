import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  FREE_KEYS_PER_IP_PER_HOUR,
  PLANS,
  generateApiKey,
  hashApiKey,
  keyPrefix,
  looksLikeApiKey,
  nextMonthStart,
  usageMonth,
} from '../../src/domain/api-keys.ts';

describe('PLANS', () => {
  test('the contract table: free 50 requests, 5 watched and 1 webhook, pro 5,000, 50 and 10; 10 free keys an hour', () => {
    assert.deepEqual(PLANS, {
      free: { monthly_quota: 50, watchlist_limit: 5, webhook_limit: 1 },
      pro: { monthly_quota: 5000, watchlist_limit: 50, webhook_limit: 10 },
    });
    assert.equal(FREE_KEYS_PER_IP_PER_HOUR, 10);
  });
});

describe('generateApiKey', () => {
  test('ukcd_ and 32 letters or digits, different every time', () => {
    const keys = Array.from({ length: 1000 }, () => generateApiKey());
    for (const key of keys) assert.match(key, /^ukcd_[A-Za-z0-9]{32}$/);
    assert.equal(new Set(keys).size, keys.length);
  });

  test('uses the whole alphabet, each character about equally often', () => {
    const counts = new Map<string, number>();
    const draws = 2000;
    for (let i = 0; i < draws; i++)
      for (const char of generateApiKey().slice(5)) counts.set(char, (counts.get(char) ?? 0) + 1);
    assert.equal(counts.size, 62);
    // 64,000 characters: about 1,032 each, with a standard deviation of about 32. A `byte % 62`
    // generator would give the first 8 characters about 1,230 each and fail this.
    for (const [char, count] of counts) assert.ok(count > 880 && count < 1190, `${char}: ${count}`);
  });
});

describe('hashApiKey', () => {
  const cases = [
    { input: 'ukcd_abc', want: createHash('sha256').update('ukcd_abc').digest('hex') },
    { input: '', want: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
  ];
  for (const c of cases)
    test(`${JSON.stringify(c.input)} -> sha256 hex`, () => assert.equal(hashApiKey(c.input), c.want));

  test('is lower-case hex of 64 characters and never the key', () => {
    const key = generateApiKey();
    assert.match(hashApiKey(key), /^[0-9a-f]{64}$/);
    assert.notEqual(hashApiKey(key), key);
  });
});

describe('keyPrefix', () => {
  const cases = [
    { input: 'ukcd_AbCdEfGh0123456789012345678901234', want: 'ukcd_AbCdEfGh' },
    { input: 'ukcd_12345678', want: 'ukcd_12345678' },
    { input: 'ukcd_1', want: 'ukcd_1' },
  ];
  for (const c of cases) test(`${c.input} -> ${c.want}`, () => assert.equal(keyPrefix(c.input), c.want));
});

describe('looksLikeApiKey', () => {
  const key = 'ukcd_' + 'aB3'.repeat(10) + 'zZ';
  const cases = [
    { input: key, want: true },
    { input: generateApiKey(), want: true },
    { input: key.slice(0, -1), want: false },
    { input: key + 'x', want: false },
    { input: key.replace('ukcd_', 'UKCD_'), want: false },
    { input: key.replace('ukcd_', 'ukcd-'), want: false },
    { input: key.slice(0, -1) + '-', want: false },
    { input: ` ${key}`, want: false },
    { input: `${key}\n`, want: false },
    { input: '', want: false },
  ];
  for (const c of cases)
    test(`${JSON.stringify(c.input)} -> ${c.want}`, () => assert.equal(looksLikeApiKey(c.input), c.want));
});

describe('usageMonth and nextMonthStart', () => {
  const cases = [
    { at: '2026-11-30T23:59:59.999Z', month: '2026-11', reset: '2026-12-01T00:00:00.000Z' },
    { at: '2026-12-01T00:00:00.000Z', month: '2026-12', reset: '2027-01-01T00:00:00.000Z' },
    { at: '2026-12-31T23:59:59Z', month: '2026-12', reset: '2027-01-01T00:00:00.000Z' },
    { at: '2027-01-01T00:00:00Z', month: '2027-01', reset: '2027-02-01T00:00:00.000Z' },
    { at: '2026-01-31T12:00:00Z', month: '2026-01', reset: '2026-02-01T00:00:00.000Z' },
    { at: '2028-02-29T08:00:00Z', month: '2028-02', reset: '2028-03-01T00:00:00.000Z' },
    // UTC decides, not the offset the time was written in.
    { at: '2026-12-01T00:30:00+01:00', month: '2026-11', reset: '2026-12-01T00:00:00.000Z' },
    { at: '2026-11-30T23:30:00-01:00', month: '2026-12', reset: '2027-01-01T00:00:00.000Z' },
  ];
  for (const c of cases)
    test(`${c.at} -> ${c.month}, resets ${c.reset}`, () => {
      assert.equal(usageMonth(new Date(c.at)), c.month);
      assert.equal(nextMonthStart(new Date(c.at)).toISOString(), c.reset);
    });

  test('an invalid date is an error, not "NaN-NaN"', () => {
    assert.throws(() => usageMonth(new Date('nope')), RangeError);
    assert.throws(() => nextMonthStart(new Date('nope')), RangeError);
  });
});
