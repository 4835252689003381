/**
 * The sender's settings as src/config.ts reads them: the timeout (15 s unless set) and the lease,
 * which must be longer than the timeout so that a live attempt is never claimed twice.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';

describe('WEBHOOK_TIMEOUT_MS and WEBHOOK_LEASE_MS', () => {
  const cases: {
    name: string;
    env: Record<string, string>;
    want: { timeout: number; lease: number | undefined } | RegExp;
  }[] = [
    {
      name: 'neither set: 15 s, and the sender derives the lease',
      env: {},
      want: { timeout: 15_000, lease: undefined },
    },
    {
      name: 'empty values are unset',
      env: { WEBHOOK_TIMEOUT_MS: '', WEBHOOK_LEASE_MS: '' },
      want: { timeout: 15_000, lease: undefined },
    },
    {
      name: 'a lease longer than the default timeout',
      env: { WEBHOOK_LEASE_MS: '20000' },
      want: { timeout: 15_000, lease: 20_000 },
    },
    {
      name: 'both short, for tests that kill senders',
      env: { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '6000' },
      want: { timeout: 5000, lease: 6000 },
    },
    {
      name: 'a lease shorter than the default timeout',
      env: { WEBHOOK_LEASE_MS: '10000' },
      want: /WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS/,
    },
    {
      name: 'a lease equal to the timeout',
      env: { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '5000' },
      want: /WEBHOOK_LEASE_MS must be longer/,
    },
    { name: 'a timeout that is not a number', env: { WEBHOOK_TIMEOUT_MS: 'soon' }, want: /WEBHOOK_TIMEOUT_MS/ },
    { name: 'a timeout over a minute', env: { WEBHOOK_TIMEOUT_MS: '60001' }, want: /WEBHOOK_TIMEOUT_MS/ },
    { name: 'a fractional lease', env: { WEBHOOK_LEASE_MS: '20000.5' }, want: /WEBHOOK_LEASE_MS/ },
  ];
  for (const { name, env, want } of cases) {
    test(name, () => {
      if (want instanceof RegExp) {
        assert.throws(() => loadConfig(env), want);
      } else {
        const config = loadConfig(env);
        assert.equal(config.WEBHOOK_TIMEOUT_MS, want.timeout);
        assert.equal(config.WEBHOOK_LEASE_MS, want.lease);
      }
    });
  }
});
