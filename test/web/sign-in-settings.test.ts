/**
 * The web sign-in settings as src/config.ts reads them: the anonymous page limit a minute and the
 * session's lifetime, with their defaults, and bad values refused by name.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';

const cases: { name: string; env: Record<string, string>; want: { anon: number; ttl: number } | RegExp }[] = [
  { name: 'neither set: 120 a minute, 12 hours', env: {}, want: { anon: 120, ttl: 720 } },
  {
    name: 'empty values are unset',
    env: { WEB_ANON_RATE_PER_MINUTE: '', WEB_SESSION_TTL_MINUTES: '' },
    want: { anon: 120, ttl: 720 },
  },
  {
    name: 'both set',
    env: { WEB_ANON_RATE_PER_MINUTE: '30', WEB_SESSION_TTL_MINUTES: '60' },
    want: { anon: 30, ttl: 60 },
  },
  {
    name: 'a limit of 0 would shut every page',
    env: { WEB_ANON_RATE_PER_MINUTE: '0' },
    want: /WEB_ANON_RATE_PER_MINUTE/,
  },
  { name: 'not a number', env: { WEB_ANON_RATE_PER_MINUTE: 'lots' }, want: /WEB_ANON_RATE_PER_MINUTE/ },
  { name: 'a session shorter than 5 minutes', env: { WEB_SESSION_TTL_MINUTES: '1' }, want: /WEB_SESSION_TTL_MINUTES/ },
  { name: 'a session longer than 30 days', env: { WEB_SESSION_TTL_MINUTES: '50000' }, want: /WEB_SESSION_TTL_MINUTES/ },
];

for (const c of cases)
  test(`WEB_ANON_RATE_PER_MINUTE, WEB_SESSION_TTL_MINUTES: ${c.name}`, () => {
    if (c.want instanceof RegExp) {
      assert.throws(() => loadConfig(c.env), c.want);
      return;
    }
    const config = loadConfig(c.env);
    assert.deepEqual({ anon: config.WEB_ANON_RATE_PER_MINUTE, ttl: config.WEB_SESSION_TTL_MINUTES }, c.want);
  });
