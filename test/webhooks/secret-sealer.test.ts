import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createSecretSealer, parseSealerKey } from '../../src/webhooks/secret-sealer.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYq=';

describe('SecretSealer', () => {
  const key = randomBytes(32);
  const sealer = createSecretSealer(key);

  test('opens what it sealed, with the same context', () => {
    const sealed = sealer.seal(SECRET, 'wh_one');
    assert.equal(sealer.open(sealed, 'wh_one'), SECRET);
    assert.equal(sealer.open(sealer.seal('', 'wh_one'), 'wh_one'), '');
    assert.equal(sealer.open(sealer.seal('Café 🚀', 'ctx'), 'ctx'), 'Café 🚀');
  });

  test('the sealed text shows nothing of the secret, and differs every time', () => {
    const one = sealer.seal(SECRET, 'wh_one');
    const two = sealer.seal(SECRET, 'wh_one');
    assert.notEqual(one, two);
    for (const sealed of [one, two]) {
      assert.match(sealed, /^v1\.[A-Za-z0-9_-]+$/);
      assert.ok(!sealed.includes(SECRET.slice(6, 20)), 'no part of the secret in clear');
      assert.ok(!Buffer.from(sealed.slice(3), 'base64url').includes(Buffer.from(SECRET.slice(6, 20))));
    }
  });

  const refusals: {
    name: string;
    sealed: () => string;
    context: string;
    opener?: () => ReturnType<typeof createSecretSealer>;
    want: RegExp;
  }[] = [
    {
      name: 'another key',
      sealed: () => sealer.seal(SECRET, 'wh_one'),
      context: 'wh_one',
      opener: () => createSecretSealer(randomBytes(32)),
      want: /does not open with this key/,
    },
    {
      name: "another endpoint's row (another context)",
      sealed: () => sealer.seal(SECRET, 'wh_one'),
      context: 'wh_two',
      want: /does not open with this key/,
    },
    {
      name: 'one character changed',
      sealed: () => {
        const sealed = sealer.seal(SECRET, 'wh_one');
        const at = 20;
        return sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
      },
      context: 'wh_one',
      want: /does not open with this key/,
    },
    {
      name: 'truncated',
      sealed: () => sealer.seal(SECRET, 'wh_one').slice(0, 30),
      context: 'wh_one',
      want: /does not open|Not a sealed/,
    },
    { name: 'the secret itself', sealed: () => SECRET, context: 'wh_one', want: /Not a sealed webhook secret/ },
    {
      name: 'another version',
      sealed: () => `v2.${sealer.seal(SECRET, 'c').slice(3)}`,
      context: 'c',
      want: /Not a sealed/,
    },
    { name: 'too short to hold a nonce and tag', sealed: () => 'v1.AAAA', context: 'c', want: /Not a sealed/ },
  ];
  for (const { name, sealed, context, opener, want } of refusals) {
    test(`refuses to open ${name}`, () => {
      const text = sealed();
      assert.throws(() => (opener ? opener() : sealer).open(text, context), want);
    });
  }

  test('a key of other than 32 bytes is refused', () => {
    assert.throws(() => createSecretSealer(randomBytes(31)), /must be 32 bytes, not 31/);
    assert.throws(() => createSecretSealer(randomBytes(0)), /not 0/);
  });

  test("changing the caller's key buffer afterwards changes nothing", () => {
    const buffer = randomBytes(32);
    const own = createSecretSealer(buffer);
    const sealed = own.seal(SECRET, 'c');
    buffer.fill(0);
    assert.equal(own.open(sealed, 'c'), SECRET);
  });
});

describe('parseSealerKey', () => {
  const bytes = randomBytes(32);
  const cases: { name: string; text: string; want: Buffer | RegExp }[] = [
    { name: 'base64', text: bytes.toString('base64'), want: bytes },
    { name: 'base64 with a trailing newline', text: `${bytes.toString('base64')}\n`, want: bytes },
    { name: 'base64url', text: Buffer.alloc(32, 0xfb).toString('base64url'), want: Buffer.alloc(32, 0xfb) },
    { name: '16 bytes', text: randomBytes(16).toString('base64'), want: /must be 32 bytes; this one is 16/ },
    { name: '48 bytes', text: randomBytes(48).toString('base64'), want: /this one is 48/ },
    { name: 'hex', text: bytes.toString('hex'), want: /this one is 48/ },
    { name: 'not base64', text: 'correct horse battery staple', want: /base64 of 32 bytes/ },
    { name: 'empty', text: '', want: /base64 of 32 bytes/ },
  ];
  for (const { name, text, want } of cases) {
    test(name, () => {
      if (want instanceof RegExp) assert.throws(() => parseSealerKey(text), want);
      else assert.deepEqual(parseSealerKey(text), want);
    });
  }
});
