/**
 * Monthly quotas and the free-key limit end to end over real HTTP, on a real PostgreSQL with a real
 * Elasticsearch (where concurrent requests really run at once, on a pool) and on the embedded
 * default: exactly the plan's number of answered calls, also under concurrency; what counts and
 * what does not; the reset on the 1st by the injected clock; refused requests write nothing; and
 * ten free keys per client address per hour.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { keyPrefix } from '../../src/domain/api-keys.ts';
import type { Answer } from '../support/api-fixtures.ts';
import { call, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const setups = [
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
];

const epoch = (iso: string) => String(Date.parse(iso) / 1000);
const JULY_1 = '2025-07-01T00:00:00Z';
/** From NOW (2025-06-15 12:00 UTC) to 2025-07-01 00:00 UTC: 15.5 days. */
const SECONDS_TO_JULY = String(15.5 * 86_400);

const OK = '/v1/company?number=1'; // 200
const BAD = '/v1/company?number=x'; // 400
const UNKNOWN = '/v1/company?number=7'; // 404

const quota = (a: Answer) => ({
  limit: a.headers.get('x-ratelimit-limit'),
  remaining: a.headers.get('x-ratelimit-remaining'),
  reset: a.headers.get('x-ratelimit-reset'),
});

for (const setup of setups) {
  describe(`quota on ${setup.name}`, () => {
    let world: World;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
    });
    afterEach(() => world.setNow(NOW));
    after(() => world.close());

    const get = (path: string, key: string) => call(world, path, { key });
    const used = async (key: string, month: string) => {
      const [listed] = await world.keys.listKeys(month, keyPrefix(key));
      assert.ok(listed, `key ${keyPrefix(key)} is listed`);
      return listed.used;
    };
    const keyId = async (key: string) => (await world.keys.listKeys('2025-06', keyPrefix(key)))[0]!.id;
    const watchedRows = async (id?: number) =>
      Number(
        (
          await world.sql.query<{ n: number }>(
            'SELECT count(*) AS n FROM watchlist_entries WHERE $1::bigint IS NULL OR key_id = $1::bigint',
            [id ?? null],
          )
        ).rows[0]!.n,
      );
    /** Use up a free key's month with 50 concurrent answered calls. */
    const useUp = async (key: string) => {
      const answers = await Promise.all(Array.from({ length: 50 }, () => get(OK, key)));
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(50).fill(200),
      );
      assert.equal((await get(OK, key)).status, 429);
    };
    const assertQuotaExceeded = (answer: Answer, resetsAt: string, retryAfter: string) => {
      assert.equal(answer.status, 429);
      assert.deepEqual(answer.body, { error: 'Monthly quota exceeded', resets_at: resetsAt });
      assert.equal(answer.headers.get('retry-after'), retryAfter);
      assert.deepEqual(quota(answer), { limit: '50', remaining: '0', reset: epoch(resetsAt) });
    };

    test('a free key gets exactly 50 answered calls, then 429 with the contract body and headers', async () => {
      const key = await world.issueKey('free');
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 50; i++) {
        const answer = await get(OK, key);
        assert.equal(answer.status, 200);
        assert.equal(answer.headers.get('x-ratelimit-limit'), '50');
        assert.equal(answer.headers.get('x-ratelimit-reset'), epoch(JULY_1));
        remaining.push(answer.headers.get('x-ratelimit-remaining'));
      }
      assert.deepEqual(
        remaining,
        Array.from({ length: 50 }, (_, i) => String(49 - i)),
      );
      for (let i = 0; i < 3; i++) assertQuotaExceeded(await get(OK, key), JULY_1, SECONDS_TO_JULY);
      // The Markdown shape and errors alike: nothing more is answered, nothing more counted.
      assertQuotaExceeded(await get(BAD, key), JULY_1, SECONDS_TO_JULY);
      assert.equal(await used(key, '2025-06'), 50);
    });

    test('80 concurrent calls on a fresh free key: exactly 50 answered (200, 400 and 404 alike), 30 refused', async () => {
      const key = await world.issueKey('free');
      const paths = [OK, BAD, UNKNOWN];
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) => call(world, `${paths[i % 3]!}&format=json`, { key })),
      );
      const answered = answers.filter((a) => a.status !== 429);
      const refused = answers.filter((a) => a.status === 429);
      assert.equal(answered.length, 50);
      assert.equal(refused.length, 30);
      assert.deepEqual([...new Set(answered.map((a) => a.status))].sort(), [200, 400, 404]);
      // Each answered call took its own unit: remaining 49 down to 0, once each.
      assert.deepEqual(
        answered.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i),
      );
      for (const answer of refused) assertQuotaExceeded(answer, JULY_1, SECONDS_TO_JULY);
      assert.equal(await used(key, '2025-06'), 50);
    });

    test('400, 404 and 409 are counted; 401 and 429 are not', async () => {
      const key = await world.issueKey('free');
      const steps: [number, string | null][] = [];
      const record = (answer: Answer) => steps.push([answer.status, answer.headers.get('x-ratelimit-remaining')]);
      record(await get(OK, key));
      record(await get(BAD, key));
      record(await get(UNKNOWN, key));
      record(await get('/v1/search?format=xml', key));
      record(await call(world, '/v1/watchlist/add', { key, body: { company_numbers: ['1', '2', '3', '4', '5'] } }));
      record(await call(world, '/v1/watchlist/add', { key, body: { company_numbers: ['6'] } })); // over the limit of 5
      record(await call(world, '/v1/watchlist/add', { key, body: '[1,2]' })); // JSON, but not an object
      // 401s in between: another (unknown) key, a malformed header, none at all.
      const unauthorised: Record<string, string>[] = [
        { authorization: `Bearer ukcd_${'x'.repeat(32)}` },
        { authorization: 'Basic abc' },
        {},
      ];
      for (const headers of unauthorised) {
        const refused = await call(world, OK, { headers });
        assert.equal(refused.status, 401);
        assert.equal(refused.headers.get('x-ratelimit-remaining'), null, 'a 401 has no quota to report');
      }
      record(await get(OK, key));
      assert.deepEqual(steps, [
        [200, '49'],
        [400, '48'],
        [404, '47'],
        [400, '46'],
        [200, '45'],
        [409, '44'],
        [400, '43'],
        [200, '42'],
      ]);
      assert.equal(await used(key, '2025-06'), 8);

      // A revoked key's 401s are not counted against it either.
      const revoked = await world.issueKey('free');
      assert.equal(quota(await get(OK, revoked)).remaining, '49');
      await world.keys.revokeKeys(keyPrefix(revoked));
      for (let i = 0; i < 3; i++) {
        const answer = await get(OK, revoked);
        assert.equal(answer.status, 401);
        assert.deepEqual(answer.body, { error: 'Invalid or revoked API key.' });
      }
      assert.equal(await used(revoked, '2025-06'), 1);

      // 429s are not counted: the month stays at 50 however many are refused.
      const spent = await world.issueKey('free');
      await useUp(spent);
      const more = await Promise.all(Array.from({ length: 10 }, () => get(OK, spent)));
      assert.deepEqual(
        more.map((a) => a.status),
        Array(10).fill(429),
      );
      assert.equal(await used(spent, '2025-06'), 50);
    });

    test('the quota resets on the 1st at 00:00 UTC by the injected clock', async () => {
      const key = await world.issueKey('free');
      await useUp(key);
      world.setNow(new Date('2025-06-30T23:59:59Z'));
      assertQuotaExceeded(await get(OK, key), JULY_1, '1');
      world.setNow(new Date(JULY_1));
      const july = await get(OK, key);
      assert.equal(july.status, 200);
      assert.deepEqual(quota(july), { limit: '50', remaining: '49', reset: epoch('2025-08-01T00:00:00Z') });
      assert.equal(await used(key, '2025-06'), 50);
      assert.equal(await used(key, '2025-07'), 1);
    });

    test('December rolls over into January of the next year', async () => {
      const key = await world.issueKey('free');
      world.setNow(new Date('2025-12-31T23:59:59Z'));
      const first = await get(OK, key);
      assert.deepEqual(quota(first), { limit: '50', remaining: '49', reset: epoch('2026-01-01T00:00:00Z') });
      await Promise.all(Array.from({ length: 49 }, () => get(OK, key)));
      assertQuotaExceeded(await get(OK, key), '2026-01-01T00:00:00Z', '1');
      world.setNow(new Date('2026-01-01T00:00:00Z'));
      const january = await get(OK, key);
      assert.equal(january.status, 200);
      assert.deepEqual(quota(january), { limit: '50', remaining: '49', reset: epoch('2026-02-01T00:00:00Z') });
      assert.equal(await used(key, '2025-12'), 50);
      assert.equal(await used(key, '2026-01'), 1);
    });

    test('a refused request writes nothing: a 429 add or a 401 add leaves the lists as they were', async () => {
      const key = await world.issueKey('free');
      await useUp(key);
      const refused = await call(world, '/v1/watchlist/add', { key, body: { company_numbers: ['1', '2'] } });
      assertQuotaExceeded(refused, JULY_1, SECONDS_TO_JULY);
      assert.equal(await watchedRows(await keyId(key)), 0);
      // Seen through the API once the month has turned: still empty.
      world.setNow(new Date(JULY_1));
      assert.equal((await get('/v1/watchlist?format=json', key)).body.count, 0);
      world.setNow(NOW);

      const before = await watchedRows();
      const unauthorised: Record<string, string>[] = [{ authorization: `Bearer ukcd_${'y'.repeat(32)}` }, {}];
      for (const headers of unauthorised) {
        const answer = await call(world, '/v1/watchlist/add', { headers, body: { company_numbers: ['1'] } });
        assert.equal(answer.status, 401);
      }
      const revoked = await world.issueKey('free');
      await world.keys.revokeKeys(keyPrefix(revoked));
      const answer = await call(world, '/v1/watchlist/add', { key: revoked, body: { company_numbers: ['1'] } });
      assert.equal(answer.status, 401);
      assert.equal(await watchedRows(), before);
      assert.equal(await watchedRows(await keyId(revoked)), 0);

      // The same add with quota left does write: the checks above are not vacuous.
      const fresh = await world.issueKey('free');
      const added = await call(world, '/v1/watchlist/add', { key: fresh, body: { company_numbers: ['1', '2'] } });
      assert.match(markdown(added), /Added \(2\)/);
      assert.equal(await watchedRows(await keyId(fresh)), 2);
    });

    test('POST /v1/keys/free: 10 an hour per client address, then 429; an hour later it issues again', async () => {
      const spent = await world.issueKey('free');
      await useUp(spent);
      const issued: string[] = [];
      const bodies: { body?: unknown; headers?: Record<string, string> }[] = [
        { body: {} },
        { body: { email: 'a@b.co' } },
        {}, // no body at all
        { body: {}, headers: { authorization: 'Bearer not-a-key' } }, // a key is not needed, nor read
        { body: {}, headers: { authorization: `Bearer ${spent}` } }, // a used-up key does not matter
      ];
      for (let i = 0; i < 10; i++) {
        const options = bodies[i % bodies.length]!;
        const answer = await call(world, '/v1/keys/free', { method: 'POST', ...options });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        assert.equal(answer.headers.get('x-ratelimit-remaining'), null);
        issued.push(answer.body.api_key);
        if (i === 4) {
          // A refused request (bad e-mail) is not one of the ten.
          assert.equal((await call(world, '/v1/keys/free', { body: { email: 'nope' } })).status, 400);
        }
      }
      assert.equal(new Set(issued).size, 10);
      const refused = await call(world, '/v1/keys/free', { body: {} });
      assert.equal(refused.status, 429);
      assert.match(refused.body.error, /Too many free keys from this address: 10 an hour/);
      assert.equal(refused.headers.get('retry-after'), '3600');
      // The proxy header is not trusted: the address is still the connection's.
      const forwarded = await call(world, '/v1/keys/free', { body: {}, headers: { 'x-forwarded-for': '203.0.113.9' } });
      assert.equal(forwarded.status, 429);
      const addresses = await world.sql.query<{ client_ip: string; n: number }>(
        'SELECT client_ip, count(*) AS n FROM api_keys WHERE client_ip IS NOT NULL GROUP BY client_ip',
      );
      assert.deepEqual(
        addresses.rows.map((r) => [r.client_ip, Number(r.n)]),
        [['127.0.0.1', 10]],
      );
      // The keys work, and issuing them counted nothing against any quota.
      assert.deepEqual(quota(await get(OK, issued[9]!)), {
        limit: '50',
        remaining: '49',
        reset: epoch(JULY_1),
      });

      world.setNow(new Date(NOW.getTime() + 59 * 60_000));
      assert.equal((await call(world, '/v1/keys/free', { body: {} })).status, 429);
      world.setNow(new Date(NOW.getTime() + 61 * 60_000));
      const again = await call(world, '/v1/keys/free', { body: {} });
      assert.equal(again.status, 201);
      assert.equal((await get(OK, again.body.api_key)).status, 200);

      // Three hours on, 15 at once from the one address: exactly 10 are issued.
      world.setNow(new Date(NOW.getTime() + 3 * 3_600_000));
      const burst = await Promise.all(Array.from({ length: 15 }, () => call(world, '/v1/keys/free', { body: {} })));
      assert.deepEqual(burst.map((a) => a.status).sort(), [...Array(10).fill(201), ...Array(5).fill(429)]);
    });
  });
}
