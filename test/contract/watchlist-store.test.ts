/**
 * The WatchlistStore contract, run against every store: PGlite and a real PostgreSQL server; and
 * the limit under concurrent adds on the real server, where a pool runs them at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type { WatchSnapshot } from '../../src/domain/watchlists.ts';
import type { WatchlistStore } from '../../src/ports/watchlists.ts';
import { freshPostgres, testStores, useStore } from '../support/databases.ts';

let keys = 0;

/** A new API key row (the watchlist's foreign key); returns its id. */
async function newKey(sql: Sql): Promise<number> {
  keys += 1;
  const result = await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'free') RETURNING id`,
    [`hash-${process.pid}-${keys}`, `ukcd_${String(keys).padStart(8, '0')}`],
  );
  return result.rows[0]!.id;
}

function snapshot(overrides: Partial<WatchSnapshot> = {}): WatchSnapshot {
  return {
    status: 'Active',
    accounts_next_due: '2025-09-30',
    charges_total: 1,
    charges_outstanding: 0,
    latest_balance_sheet_date: '2023-12-31',
    net_assets: 125_000.5,
    cash: null,
    ...overrides,
  };
}

const entries = (...numbers: string[]) => numbers.map((company_number) => ({ company_number, snapshot: snapshot() }));

for (const kind of testStores) {
  describe(`${kind.name}: WatchlistStore`, () => {
    const db = useStore(kind);
    let watchlists: WatchlistStore;
    before(() => {
      watchlists = createWatchlistStore(db.sql);
    });

    test('add, list and remove', async () => {
      const key = await newKey(db.sql);
      assert.deepEqual(await watchlists.list(key), []);
      const first = snapshot({ status: 'Liquidation', net_assets: -45_000 });
      assert.deepEqual(
        await watchlists.add(
          key,
          [
            { company_number: '00000002', snapshot: first },
            { company_number: '00000001', snapshot: snapshot() },
          ],
          5,
        ),
        { added: ['00000002', '00000001'], alreadyWatched: [], overLimit: [], limitReached: false },
      );
      const listed = await watchlists.list(key);
      // Added together: in the order the request gave them.
      assert.deepEqual(
        listed.map((w) => w.company_number),
        ['00000002', '00000001'],
      );
      assert.deepEqual(listed[0]!.snapshot, first);
      assert.deepEqual(listed[1]!.snapshot, snapshot());
      for (const w of listed) {
        assert.match(w.added, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.ok(Math.abs(Date.parse(w.added) - Date.now()) < 60_000, `${w.added} is about now`);
      }

      assert.deepEqual(await watchlists.remove(key, ['00000002', '00000009', '00000002']), {
        removed: ['00000002'],
        notWatched: ['00000009'],
      });
      assert.deepEqual(
        (await watchlists.list(key)).map((w) => w.company_number),
        ['00000001'],
      );
      assert.deepEqual(await watchlists.remove(key, []), { removed: [], notWatched: [] });
    });

    test('listed in the order added, a request in its own order, at one time or not', async () => {
      const key = await newKey(db.sql);
      const at = '2025-06-15T12:00:00.000Z';
      await watchlists.add(key, entries('00000030'), 5, at);
      await watchlists.add(key, entries('00000020', '00000040', '00000010'), 5, at);
      await watchlists.add(key, entries('00000005'), 5);
      assert.deepEqual(
        (await watchlists.list(key)).map((w) => w.company_number),
        ['00000030', '00000020', '00000040', '00000010', '00000005'],
      );
    });

    test('asked to, adds the first new companies that fit and names the rest', async () => {
      const key = await newKey(db.sql);
      await watchlists.add(key, entries('00000001', '00000002', '00000003'), 5);
      assert.deepEqual(
        await watchlists.add(
          key,
          entries('00000009', '00000001', '00000008', '00000007'),
          5,
          undefined,
          'add_what_fits',
        ),
        {
          added: ['00000009', '00000008'],
          alreadyWatched: ['00000001'],
          overLimit: ['00000007'],
          limitReached: false,
        },
      );
      assert.deepEqual(await watchlists.add(key, entries('00000006'), 5, undefined, 'add_what_fits'), {
        added: [],
        alreadyWatched: [],
        overLimit: ['00000006'],
        limitReached: false,
      });
      assert.deepEqual(
        (await watchlists.list(key)).map((w) => w.company_number),
        ['00000001', '00000002', '00000003', '00000009', '00000008'],
      );
    });

    test('a company already watched keeps its snapshot and the time it was added', async () => {
      const key = await newKey(db.sql);
      await watchlists.add(key, [{ company_number: '00000001', snapshot: snapshot({ charges_total: 1 }) }], 5);
      const [before] = await watchlists.list(key);
      const result = await watchlists.add(
        key,
        [
          { company_number: '00000001', snapshot: snapshot({ charges_total: 7 }) },
          { company_number: '00000002', snapshot: snapshot() },
        ],
        5,
      );
      assert.deepEqual(result, {
        added: ['00000002'],
        alreadyWatched: ['00000001'],
        overLimit: [],
        limitReached: false,
      });
      const [after] = await watchlists.list(key);
      assert.deepEqual(after, before);
      assert.equal(after!.snapshot.charges_total, 1);
    });

    test('the limit is all or nothing', async () => {
      const key = await newKey(db.sql);
      assert.deepEqual(await watchlists.add(key, entries('00000001', '00000002', '00000003'), 5), {
        added: ['00000001', '00000002', '00000003'],
        alreadyWatched: [],
        overLimit: [],
        limitReached: false,
      });
      // 3 + 3 new > 5: none of them is added.
      assert.deepEqual(await watchlists.add(key, entries('00000004', '00000005', '00000006'), 5), {
        added: [],
        alreadyWatched: [],
        overLimit: ['00000004', '00000005', '00000006'],
        limitReached: true,
      });
      assert.equal((await watchlists.list(key)).length, 3);
      // 3 + 2 new = 5 (the one already watched does not count again).
      assert.deepEqual(await watchlists.add(key, entries('00000004', '00000001', '00000005'), 5), {
        added: ['00000004', '00000005'],
        alreadyWatched: ['00000001'],
        overLimit: [],
        limitReached: false,
      });
      // Full: companies already watched are still fine, one more is not.
      assert.deepEqual(await watchlists.add(key, entries('00000002'), 5), {
        added: [],
        alreadyWatched: ['00000002'],
        overLimit: [],
        limitReached: false,
      });
      assert.deepEqual(await watchlists.add(key, entries('00000002', '00000006'), 5), {
        added: [],
        alreadyWatched: ['00000002'],
        overLimit: ['00000006'],
        limitReached: true,
      });
      assert.deepEqual(
        (await watchlists.list(key)).map((w) => w.company_number),
        ['00000001', '00000002', '00000003', '00000004', '00000005'],
      );
    });

    test('a number repeated in one request counts once, with its first snapshot', async () => {
      const key = await newKey(db.sql);
      const result = await watchlists.add(
        key,
        [
          { company_number: '00000001', snapshot: snapshot({ status: 'First' }) },
          { company_number: '00000002', snapshot: snapshot() },
          { company_number: '00000001', snapshot: snapshot({ status: 'Second' }) },
        ],
        2,
      );
      assert.deepEqual(result, {
        added: ['00000001', '00000002'],
        alreadyWatched: [],
        overLimit: [],
        limitReached: false,
      });
      const listed = await watchlists.list(key);
      assert.equal(listed.length, 2);
      assert.equal(listed[0]!.snapshot.status, 'First');
    });

    test('an empty request changes nothing', async () => {
      const key = await newKey(db.sql);
      assert.deepEqual(await watchlists.add(key, [], 0), {
        added: [],
        alreadyWatched: [],
        overLimit: [],
        limitReached: false,
      });
      assert.deepEqual(await watchlists.list(key), []);
    });

    test('each key has its own list and its own limit', async () => {
      const one = await newKey(db.sql);
      const two = await newKey(db.sql);
      await watchlists.add(one, entries('00000001', '00000002'), 2);
      assert.deepEqual(await watchlists.list(two), []);
      assert.deepEqual(await watchlists.add(two, entries('00000001', '00000003'), 2), {
        added: ['00000001', '00000003'],
        alreadyWatched: [],
        overLimit: [],
        limitReached: false,
      });
      assert.deepEqual(await watchlists.remove(two, ['00000001', '00000002']), {
        removed: ['00000001'],
        notWatched: ['00000002'],
      });
      assert.deepEqual(
        (await watchlists.list(one)).map((w) => w.company_number),
        ['00000001', '00000002'],
      );
    });

    test('a deleted key takes its list with it', async () => {
      const key = await newKey(db.sql);
      await watchlists.add(key, entries('00000001'), 5);
      await db.sql.query('DELETE FROM api_keys WHERE id = $1', [key]);
      const left = await db.sql.query('SELECT 1 FROM watchlist_entries WHERE key_id = $1', [key]);
      assert.equal(left.rowCount, 0);
    });

    test('adding for a key that does not exist fails and adds nothing', async () => {
      await assert.rejects(watchlists.add(987_654_321, entries('00000001'), 5), /does not exist/);
      assert.deepEqual(await watchlists.list(987_654_321), []);
    });
  });
}

describe('postgres: WatchlistStore under concurrent adds', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  before(async () => {
    db = await freshPostgres();
  });
  after(async () => db?.drop());

  test('10 concurrent adds of one company each against a limit of 5 leave exactly 5', async () => {
    const sql = db!.sql;
    const watchlists = createWatchlistStore(sql);
    for (let round = 0; round < 5; round++) {
      const key = await newKey(sql);
      const numbers = Array.from({ length: 10 }, (_, i) => String(i + 1).padStart(8, '0'));
      const results = await Promise.all(numbers.map((number) => watchlists.add(key, entries(number), 5)));
      assert.equal(results.filter((r) => r.added.length === 1).length, 5, `round ${round}: 5 added`);
      assert.equal(results.filter((r) => r.limitReached).length, 5, `round ${round}: 5 refused`);
      const listed = await watchlists.list(key);
      assert.deepEqual(listed.map((w) => w.company_number).sort(), results.flatMap((r) => r.added).sort());
    }
  });
});
