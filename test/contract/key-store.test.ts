/**
 * The KeyStore contract, run against every store: PGlite and a real PostgreSQL server. The
 * concurrency tests run on the real server with a pool of many connections, where requests
 * really do race.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../../src/domain/api-keys.ts';
import type { KeyStore } from '../../src/ports/keys.ts';
import type { Plan } from '../../src/domain/api-keys.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { freshPostgres, testStores, useStore } from '../support/databases.ts';

const HOUR_AGO = () => new Date(Date.now() - 3600_000).toISOString();

/** A new key's store input; `key` is kept by the test, as a client would keep it. */
function newKey(plan: Plan = 'pro', extra: { email?: string | null; clientIp?: string | null; prefix?: string } = {}) {
  const key = generateApiKey();
  return {
    key,
    input: {
      hash: hashApiKey(key),
      prefix: extra.prefix ?? keyPrefix(key),
      plan,
      email: extra.email ?? null,
      clientIp: extra.clientIp ?? null,
    },
  };
}

async function issue(keys: KeyStore, plan: Plan = 'pro', extra: Parameters<typeof newKey>[1] = {}) {
  const { key, input } = newKey(plan, extra);
  const record = await keys.createKey(input);
  assert.ok(record);
  return { key, record };
}

for (const kind of testStores) {
  describe(`${kind.name}: KeyStore`, () => {
    const db = useStore(kind);
    const store = () => createKeyStore(db.sql);

    test('a created key reads back by its hash, never by the key itself', async () => {
      const keys = store();
      const { key, record } = await issue(keys, 'free', { email: 'a@example.com', clientIp: '192.0.2.1' });
      assert.equal(record.prefix, keyPrefix(key));
      assert.equal(record.plan, 'free');
      assert.equal(record.email, 'a@example.com');
      assert.equal(record.revoked_at, null);
      assert.equal(typeof record.id, 'number');
      assert.match(record.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(Math.abs(Date.parse(record.created_at) - Date.now()) < 60_000);
      assert.deepEqual(await keys.findByHash(hashApiKey(key)), record);
      assert.equal(await keys.findByHash(key), null);
      assert.equal(await keys.findByHash(hashApiKey(generateApiKey())), null);
    });

    test('the same hash twice is refused', async () => {
      const keys = store();
      const { input } = newKey();
      assert.ok(await keys.createKey(input));
      await assert.rejects(keys.createKey(input));
    });

    test('listKeys: by prefix, oldest first, with the usage of the month asked for', async () => {
      const keys = store();
      const a = await issue(keys, 'pro', { prefix: 'ukcd_LISTaaa1' });
      const b = await issue(keys, 'free', { prefix: 'ukcd_LISTaaa2' });
      const c = await issue(keys, 'pro', { prefix: 'ukcd_LISTbbb1' });
      await keys.consumeRequest(a.record.id, '2026-11', 10);
      await keys.consumeRequest(a.record.id, '2026-11', 10);
      await keys.consumeRequest(a.record.id, '2026-10', 10);
      await keys.consumeRequest(b.record.id, '2026-10', 10);

      const listed = await keys.listKeys('2026-11', 'ukcd_LIST');
      assert.deepEqual(listed, [
        { ...a.record, used: 2 },
        { ...b.record, used: 0 },
        { ...c.record, used: 0 },
      ]);
      assert.deepEqual(
        (await keys.listKeys('2026-10', 'ukcd_LISTaaa')).map((k) => [k.prefix, k.used]),
        [
          ['ukcd_LISTaaa1', 1],
          ['ukcd_LISTaaa2', 1],
        ],
      );
      assert.deepEqual(
        (await keys.listKeys('2026-11', 'ukcd_LISTbbb1')).map((k) => k.id),
        [c.record.id],
      );
      assert.deepEqual(await keys.listKeys('2026-11', 'ukcd_LISTccc'), []);
      const all = await keys.listKeys('2026-11');
      for (const record of [a.record, b.record, c.record]) assert.ok(all.some((k) => k.id === record.id));
    });

    test('a prefix is matched literally: _ and % are not wildcards', async () => {
      const keys = store();
      const plain = await issue(keys, 'pro', { prefix: 'ukcd_WILDxyz1' });
      assert.deepEqual(await keys.listKeys('2026-11', 'ukcd_WILD_'), []);
      assert.deepEqual(await keys.listKeys('2026-11', 'ukcd_WI%'), []);
      assert.deepEqual(await keys.revokeKeys('ukcd%'), []);
      assert.deepEqual(await keys.revokeKeys('ukcd_WILD_'), []);
      // "ukcd_" itself contains an underscore: it must match only a literal one.
      assert.deepEqual(await keys.listKeys('2026-11', 'ukcdXWILD'), []);
      assert.deepEqual(
        (await keys.listKeys('2026-11', 'ukcd_WILD')).map((k) => [k.id, k.revoked_at]),
        [[plain.record.id, null]],
      );
    });

    test('revokeKeys revokes the keys with the prefix, once; the others stay', async () => {
      const keys = store();
      const a = await issue(keys, 'pro', { prefix: 'ukcd_REVaaaa1' });
      const b = await issue(keys, 'free', { prefix: 'ukcd_REVaaaa2' });
      const c = await issue(keys, 'pro', { prefix: 'ukcd_REVbbbb1' });

      const revoked = await keys.revokeKeys('ukcd_REVaaaa1');
      assert.deepEqual(
        revoked.map((k) => k.id),
        [a.record.id],
      );
      assert.ok(revoked[0]?.revoked_at);
      assert.equal((await keys.findByHash(hashApiKey(a.key)))?.revoked_at, revoked[0]?.revoked_at);
      assert.equal((await keys.findByHash(hashApiKey(b.key)))?.revoked_at, null);

      // Already revoked: not returned again, and its time of revocation stays.
      const more = await keys.revokeKeys('ukcd_REVaaaa');
      assert.deepEqual(
        more.map((k) => k.id),
        [b.record.id],
      );
      assert.deepEqual(await keys.revokeKeys('ukcd_REVaaaa'), []);
      assert.equal((await keys.findByHash(hashApiKey(a.key)))?.revoked_at, revoked[0]?.revoked_at);
      assert.equal((await keys.findByHash(hashApiKey(c.key)))?.revoked_at, null);
      assert.deepEqual(await keys.revokeKeys('ukcd_REVzzzz'), []);
    });

    test('free-key limit: 10 from one address, the 11th refused; another address is fine', async () => {
      const keys = store();
      const limit = { count: 10, since: HOUR_AGO() };
      for (let i = 0; i < 10; i++)
        assert.ok(await keys.createKey({ ...newKey('free', { clientIp: '198.51.100.7' }).input, freeLimit: limit }));
      const refused = newKey('free', { clientIp: '198.51.100.7' });
      assert.equal(await keys.createKey({ ...refused.input, freeLimit: limit }), null);
      assert.equal(await keys.findByHash(refused.input.hash), null, 'a refused key is not stored');
      assert.ok(await keys.createKey({ ...newKey('free', { clientIp: '198.51.100.8' }).input, freeLimit: limit }));
      // Without a limit (an operator's key), the address does not matter.
      assert.ok(await keys.createKey(newKey('pro', { clientIp: '198.51.100.7' }).input));
    });

    test('free-key limit: keys created before `since` do not count', async () => {
      const keys = store();
      const ip = '203.0.113.50';
      for (let i = 0; i < 10; i++) assert.ok(await keys.createKey(newKey('free', { clientIp: ip }).input));
      await db.sql.query(`UPDATE api_keys SET created_at = now() - interval '61 minutes' WHERE client_ip = $1`, [ip]);
      const limit = { count: 10, since: HOUR_AGO() };
      for (let i = 0; i < 10; i++)
        assert.ok(await keys.createKey({ ...newKey('free', { clientIp: ip }).input, freeLimit: limit }));
      assert.equal(await keys.createKey({ ...newKey('free', { clientIp: ip }).input, freeLimit: limit }), null);
    });

    test('quota: counts up to the limit, then null without counting', async () => {
      const keys = store();
      const { record } = await issue(keys);
      const counts: (number | null)[] = [];
      for (let i = 0; i < 7; i++) counts.push(await keys.consumeRequest(record.id, '2026-11', 5));
      assert.deepEqual(counts, [1, 2, 3, 4, 5, null, null]);
      assert.equal((await keys.listKeys('2026-11', record.prefix))[0]?.used, 5);
    });

    test('quota: a limit of 0 counts nothing', async () => {
      const keys = store();
      const { record } = await issue(keys);
      assert.equal(await keys.consumeRequest(record.id, '2026-11', 0), null);
      assert.equal((await keys.listKeys('2026-11', record.prefix))[0]?.used, 0);
      assert.equal(await keys.consumeRequest(record.id, '2026-11', 1), 1);
      assert.equal(await keys.consumeRequest(record.id, '2026-11', 0), null);
    });

    test('quota: each month starts from 0, and keys count separately', async () => {
      const keys = store();
      const a = await issue(keys);
      const b = await issue(keys);
      for (let i = 0; i < 3; i++) await keys.consumeRequest(a.record.id, '2026-11', 3);
      assert.equal(await keys.consumeRequest(a.record.id, '2026-11', 3), null);
      assert.equal(await keys.consumeRequest(a.record.id, '2026-12', 3), 1);
      assert.equal(await keys.consumeRequest(b.record.id, '2026-11', 3), 1);
      assert.equal((await keys.listKeys('2026-11', a.record.prefix))[0]?.used, 3);
      assert.equal((await keys.listKeys('2026-12', a.record.prefix))[0]?.used, 1);
    });

    test('refund gives one request back, never going below 0', async () => {
      const keys = store();
      const { record } = await issue(keys);
      const used = async () => (await keys.listKeys('2026-11', record.prefix))[0]?.used;
      await keys.refundRequest(record.id, '2026-11');
      assert.equal(await used(), 0);
      await keys.consumeRequest(record.id, '2026-11', 2);
      await keys.consumeRequest(record.id, '2026-11', 2);
      assert.equal(await keys.consumeRequest(record.id, '2026-11', 2), null);
      await keys.refundRequest(record.id, '2026-11');
      assert.equal(await used(), 1);
      assert.equal(await keys.consumeRequest(record.id, '2026-11', 2), 2);
      for (let i = 0; i < 4; i++) await keys.refundRequest(record.id, '2026-11');
      assert.equal(await used(), 0);
      assert.equal(await keys.consumeRequest(record.id, '2026-11', 2), 1);
    });

    test('quota, a batch: N requests at once, all or none; refused, it says how many are left', async () => {
      const keys = store();
      const { record } = await issue(keys);
      const used = async () => (await keys.listKeys('2026-11', record.prefix))[0]?.used;
      // More than the whole quota, on a month not yet started: nothing is counted, not even a row.
      assert.deepEqual(await keys.consumeRequests(record.id, '2026-11', 10, 11), { counted: false, left: 10 });
      assert.equal(await used(), 0);
      assert.deepEqual(await keys.consumeRequests(record.id, '2026-11', 10, 4), { counted: true, left: 6 });
      assert.deepEqual(await keys.consumeRequests(record.id, '2026-11', 10, 7), { counted: false, left: 6 });
      assert.equal(await used(), 4);
      assert.deepEqual(await keys.consumeRequests(record.id, '2026-11', 10, 6), { counted: true, left: 0 });
      assert.deepEqual(await keys.consumeRequests(record.id, '2026-11', 10, 2), { counted: false, left: 0 });
      assert.deepEqual(await keys.consumeRequests(record.id, '2026-11', 10, 1), { counted: false, left: 0 });
      assert.equal(await used(), 10);
      // A batch given back is given back whole; never below 0.
      await keys.refundRequest(record.id, '2026-11', 6);
      assert.equal(await used(), 4);
      await keys.refundRequest(record.id, '2026-11', 9);
      assert.equal(await used(), 0);
      // One at a time through the same method, as every other call counts.
      assert.deepEqual(await keys.consumeRequests(record.id, '2026-11', 10, 1), { counted: true, left: 9 });
      await assert.rejects(keys.consumeRequests(record.id, '2026-11', 10, 0), /count must be 1 or more/);
    });

    test('identifyAndConsume: the key by its hash and its requests counted by its plan, in one statement', async () => {
      const keys = store();
      const limits = { free: 3, pro: 10 };
      const free = await issue(keys, 'free');
      const pro = await issue(keys, 'pro');
      const used = async (prefix: string) => (await keys.listKeys('2026-11', prefix))[0]?.used;
      const take = async (key: string, count: number, month = '2026-11', planLimits = limits) =>
        (await keys.identifyAndConsume(hashApiKey(key), month, planLimits, count))?.take;
      // Unknown: nothing found, nothing counted.
      assert.equal(await keys.identifyAndConsume(hashApiKey(generateApiKey()), '2026-11', limits, 1), null);
      assert.equal(await keys.identifyAndConsume(free.key, '2026-11', limits, 1), null);
      // Each key counted against its own plan's limit.
      assert.deepEqual(await keys.identifyAndConsume(hashApiKey(free.key), '2026-11', limits, 1), {
        key: free.record,
        take: { counted: true, left: 2 },
      });
      assert.deepEqual(await take(pro.key, 4), { counted: true, left: 6 });
      // All or none: a batch over what is left counts nothing and says what is left.
      assert.deepEqual(await take(free.key, 3), { counted: false, left: 2 });
      assert.deepEqual(await take(free.key, 2), { counted: true, left: 0 });
      assert.deepEqual(await take(free.key, 1), { counted: false, left: 0 });
      assert.equal(await used(free.record.prefix), 3);
      assert.equal(await used(pro.record.prefix), 4);
      // A limit of 0 counts nothing, not even a row of a new month.
      assert.deepEqual(await take(pro.key, 1, '2026-12', { free: 3, pro: 0 }), { counted: false, left: 0 });
      // Revoked: found, and nothing counted.
      const [revoked] = await keys.revokeKeys(pro.record.prefix);
      const found = await keys.identifyAndConsume(hashApiKey(pro.key), '2026-11', limits, 1);
      assert.deepEqual(found, { key: revoked, take: null });
      assert.equal(await used(pro.record.prefix), 4);
      await assert.rejects(
        keys.identifyAndConsume(hashApiKey(free.key), '2026-11', limits, 0),
        /count must be 1 or more/,
      );
    });
  });
}

describe('postgres: KeyStore under concurrent requests (a pool of 20 connections)', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let pool: Sql;
  let keys: KeyStore;
  before(async () => {
    db = await freshPostgres();
    pool = createPgSql({ connectionString: db.url, max: 20 });
    // Open all 20 connections up front, so that the calls below really run side by side.
    await Promise.all(Array.from({ length: 20 }, () => pool.query('SELECT pg_sleep(0.05)')));
    keys = createKeyStore(pool);
  });
  after(async () => {
    await pool?.close();
    await db?.drop();
  });

  test('40 concurrent requests on a key with 25 left: exactly 25 succeed, and the count ends at the limit', async () => {
    const { record } = await issue(keys);
    const limit = 50;
    for (let i = 0; i < limit - 25; i++) await keys.consumeRequest(record.id, '2026-11', limit);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => keys.consumeRequest(record.id, '2026-11', limit)),
    );
    const succeeded = results.filter((r): r is number => r !== null);
    assert.equal(succeeded.length, 25);
    assert.deepEqual(
      succeeded.sort((x, y) => x - y),
      Array.from({ length: 25 }, (_, i) => 26 + i),
    );
    assert.equal((await keys.listKeys('2026-11', record.prefix))[0]?.used, limit);
  });

  test('identifyAndConsume: 40 concurrent first requests of a month on a key with a limit of 25, exactly 25 counted', async () => {
    const { key, record } = await issue(keys);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => keys.identifyAndConsume(hashApiKey(key), '2026-10', { free: 1, pro: 25 }, 1)),
    );
    assert.equal(results.filter((r) => r?.take?.counted).length, 25);
    assert.deepEqual(
      results
        .filter((r) => r?.take?.counted)
        .map((r) => r!.take!.left)
        .sort((x, y) => x - y),
      Array.from({ length: 25 }, (_, i) => i),
    );
    assert.equal((await keys.listKeys('2026-10', record.prefix))[0]?.used, 25);
  });

  test('counting commits asynchronously for itself only: the connection commits synchronously after it', async () => {
    const one = createPgSql({ connectionString: db.url, max: 1 });
    try {
      const counted = createKeyStore(one);
      const { record } = await issue(counted);
      const setting = async () =>
        (await one.query<{ s: string }>('SELECT current_setting($1) AS s', ['synchronous_commit'])).rows[0]!.s;
      const before = await setting();
      assert.equal(await counted.consumeRequest(record.id, '2026-11', 5), 1);
      assert.deepEqual(await counted.consumeRequests(record.id, '2026-11', 5, 2), { counted: true, left: 2 });
      assert.equal(await setting(), before);
      assert.notEqual(before, 'off');
    } finally {
      await one.close();
    }
  });

  test('40 concurrent first requests of a month on a key with a limit of 25: the insert races too', async () => {
    const { record } = await issue(keys);
    const results = await Promise.all(Array.from({ length: 40 }, () => keys.consumeRequest(record.id, '2027-01', 25)));
    assert.equal(results.filter((r) => r !== null).length, 25);
    assert.equal((await keys.listKeys('2027-01', record.prefix))[0]?.used, 25);
  });

  test('batches racing single requests never pass the limit: 30 batches of 7 and 40 singles on 100 left', async () => {
    const { record } = await issue(keys);
    const limit = 120;
    for (let i = 0; i < 20; i++) await keys.consumeRequest(record.id, '2026-11', limit);
    const calls = [
      ...Array.from({ length: 30 }, () => keys.consumeRequests(record.id, '2026-11', limit, 7)),
      ...Array.from({ length: 40 }, () => keys.consumeRequests(record.id, '2026-11', limit, 1)),
    ];
    const results = await Promise.all(calls);
    const taken = results.reduce((sum, r, i) => sum + (r.counted ? (i < 30 ? 7 : 1) : 0), 0);
    const used = (await keys.listKeys('2026-11', record.prefix))[0]!.used;
    assert.equal(used, 20 + taken, 'the count is exactly what the granted calls took');
    assert.ok(used <= limit, `used ${used} of ${limit}`);
    // 280 asked for 100 left: the requests ran out, so fewer than 7 remain.
    assert.ok(limit - used < 7, `${limit - used} left, when a batch of 7 could still have been granted`);
    for (const r of results.filter((r) => r.counted)) assert.ok(r.left >= 0 && r.left <= 100);
  });

  test('30 concurrent free keys from one address: exactly 10 are issued', async () => {
    const ip = '192.0.2.99';
    const limit = { count: 10, since: HOUR_AGO() };
    const results = await Promise.all(
      Array.from({ length: 30 }, () => keys.createKey({ ...newKey('free', { clientIp: ip }).input, freeLimit: limit })),
    );
    assert.equal(results.filter((r) => r !== null).length, 10);
    const stored = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE client_ip = $1', [
      ip,
    ]);
    assert.equal(stored.rows[0]?.n, 10);
  });
});
