/**
 * Standard Webhooks signatures, checked by the `standardwebhooks` package: a verifier nobody here
 * wrote, the one receivers use. What it accepts, our signatures must give; what it refuses (a
 * wrong secret, an altered body, id or timestamp, an old timestamp) must stay refused.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  SECRET_BYTES,
  newWebhookSecret,
  secretKey,
  signature,
  signatureHeader,
  webhookHeaders,
  webhookTimestamp,
} from '../../src/webhooks/signing.ts';

describe('newWebhookSecret', () => {
  test('whsec_ and the base64 of 32 bytes, different every time', () => {
    const secrets = Array.from({ length: 200 }, () => newWebhookSecret());
    for (const secret of secrets) {
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(secretKey(secret).length, SECRET_BYTES);
    }
    assert.equal(new Set(secrets).size, secrets.length);
  });

  test('the bytes drawn are the key', () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7));
    const secret = newWebhookSecret(() => bytes);
    assert.equal(secret, `whsec_${bytes.toString('base64')}`);
    assert.deepEqual(secretKey(secret), bytes);
  });

  test('a source giving the wrong number of bytes is refused', () => {
    assert.throws(() => newWebhookSecret(() => Buffer.alloc(16)), /16 bytes/);
  });
});

describe('secretKey', () => {
  const cases: { name: string; secret: string; want: RegExp | number }[] = [
    { name: '32 bytes', secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, want: 32 },
    { name: '24 bytes, the shortest allowed', secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`, want: 24 },
    { name: '64 bytes, the longest allowed', secret: `whsec_${Buffer.alloc(64, 1).toString('base64')}`, want: 64 },
    { name: 'no prefix', secret: Buffer.alloc(32, 1).toString('base64'), want: /starts with whsec_/ },
    { name: 'another prefix', secret: `whsex_${Buffer.alloc(32, 1).toString('base64')}`, want: /starts with whsec_/ },
    { name: 'not base64', secret: 'whsec_not*base64*at*all*but*long*enough*to*pass', want: /standard base64/ },
    {
      name: 'url-safe base64',
      secret: `whsec_${Buffer.alloc(32, 251).toString('base64url')}`,
      want: /standard base64/,
    },
    { name: 'empty', secret: 'whsec_', want: /is 24 to 64 bytes; this one is 0/ },
    { name: '16 bytes', secret: `whsec_${Buffer.alloc(16, 1).toString('base64')}`, want: /this one is 16/ },
    { name: '65 bytes', secret: `whsec_${Buffer.alloc(65, 1).toString('base64')}`, want: /this one is 65/ },
  ];
  for (const { name, secret, want } of cases) {
    test(name, () => {
      if (typeof want === 'number') assert.equal(secretKey(secret).length, want);
      else assert.throws(() => secretKey(secret), want);
    });
  }
});

describe('signature', () => {
  test("the specification's example: the same signature as the reference libraries give", () => {
    // The example of the Standard Webhooks and Svix documentation.
    const message = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' };
    assert.equal(
      signature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', message),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  test("equal to the package's own signing, for many secrets, ids, times and bodies", () => {
    for (let i = 0; i < 50; i++) {
      const secret = newWebhookSecret();
      const id = `msg_${i}`;
      const at = new Date(1_700_000_000_000 + i * 997_000);
      const body = JSON.stringify({ n: i, text: 'Café & Søn 🚀'.repeat(i % 4) });
      assert.equal(
        signature(secret, { id, timestamp: webhookTimestamp(at), body }),
        new Webhook(secret).sign(id, at, body),
      );
    }
  });

  const bad: { name: string; timestamp: number }[] = [
    { name: 'milliseconds given as a fraction', timestamp: 1614265330.5 },
    { name: 'negative', timestamp: -1 },
    { name: 'not a number', timestamp: Number.NaN },
  ];
  for (const { name, timestamp } of bad) {
    test(`a timestamp that is ${name} is refused`, () => {
      assert.throws(() => signature(newWebhookSecret(), { id: 'msg_1', timestamp, body: '{}' }), /whole seconds/);
    });
  }

  test('no secret, no header', () => {
    assert.throws(() => signatureHeader([], { id: 'msg_1', timestamp: 1, body: '{}' }), /no secret/);
  });

  test('during a rotation the header carries one signature per secret, the current first', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const message = { id: 'msg_1', timestamp: 1_700_000_000, body: '{}' };
    assert.equal(
      signatureHeader([current, previous], message),
      `${signature(current, message)} ${signature(previous, message)}`,
    );
  });
});

describe('webhookTimestamp', () => {
  test('whole seconds, rounded down', () => {
    assert.equal(webhookTimestamp(new Date('2026-11-23T20:00:00.999Z')), 1_795_464_000);
  });
});

describe('verified by the standardwebhooks package', () => {
  const secret = newWebhookSecret();
  const other = newWebhookSecret();
  const body = JSON.stringify({
    type: 'alert.status_change',
    timestamp: '2026-11-23T20:00:00.000Z',
    data: { alert: { kind: 'status_change', to: 'Liquidation' }, company: { name: 'CAFÉ & SØN LIMITED' } },
  });
  const id = 'msg_2Qn3fQZ7m1Xg9bq0sVd4kA';

  const cases: {
    name: string;
    signWith: string[];
    verifyWith: string;
    /** Seconds from now of the timestamp signed and sent. */
    age?: number;
    /** What reaches the receiver instead of what was signed. */
    tamper?: { body?: string; id?: string; timestamp?: (signed: number) => string };
    /** True: verifies; a pattern: the package's error. */
    want: true | RegExp;
  }[] = [
    { name: 'one secret', signWith: [secret], verifyWith: secret, want: true },
    {
      name: 'rotation: the receiver already has the new secret',
      signWith: [secret, other],
      verifyWith: secret,
      want: true,
    },
    {
      name: 'rotation: the receiver still has the old secret',
      signWith: [secret, other],
      verifyWith: other,
      want: true,
    },
    {
      name: 'sent two minutes ago, within the tolerance',
      signWith: [secret],
      verifyWith: secret,
      age: 120,
      want: true,
    },
    { name: 'a wrong secret', signWith: [secret], verifyWith: other, want: /No matching signature/ },
    {
      name: 'an altered body',
      signWith: [secret],
      verifyWith: secret,
      tamper: { body: body.replace('Liquidation', 'Active') },
      want: /No matching signature/,
    },
    {
      name: 'an altered webhook-id',
      signWith: [secret],
      verifyWith: secret,
      tamper: { id: `${id}x` },
      want: /No matching signature/,
    },
    {
      name: 'an altered timestamp, still recent',
      signWith: [secret],
      verifyWith: secret,
      tamper: { timestamp: (signed) => String(signed - 1) },
      want: /No matching signature/,
    },
    { name: 'an old timestamp, signed correctly', signWith: [secret], verifyWith: secret, age: 600, want: /too old/ },
    {
      name: 'a future timestamp, signed correctly',
      signWith: [secret],
      verifyWith: secret,
      age: -600,
      want: /too new/,
    },
  ];

  for (const { name, signWith, verifyWith, age = 0, tamper = {}, want } of cases) {
    test(name, () => {
      const timestamp = webhookTimestamp(new Date()) - age;
      const headers: Record<string, string> = webhookHeaders(signWith, { id, timestamp, body });
      if (tamper.id !== undefined) headers['webhook-id'] = tamper.id;
      if (tamper.timestamp !== undefined) headers['webhook-timestamp'] = tamper.timestamp(timestamp);
      const verify = () => new Webhook(verifyWith).verify(tamper.body ?? body, headers);
      if (want === true) assert.deepEqual(verify(), JSON.parse(body));
      else assert.throws(verify, want);
    });
  }
});
