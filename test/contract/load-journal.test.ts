/**
 * The LoadJournal contract, run against every store: PGlite and a real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testStores, useStore } from '../support/databases.ts';

for (const kind of testStores) {
  describe(`${kind.name}: LoadJournal`, () => {
    const db = useStore(kind);

    test('the journal: a completed load is found; a load left running is marked interrupted by the next', async () => {
      const first = await db.store.startLoad('accounts', 'Accounts_Bulk_Data-2024-01-01.zip', { size: 10 });
      await db.store.finishLoad(first, 'done', { rows_read: 1, rows_written: 1, rows_rejected: 0 });
      assert.deepEqual(await db.store.findCompletedLoad('accounts', 'Accounts_Bulk_Data-2024-01-01.zip'), {
        id: first,
        detail: { size: 10 },
      });
      const killed = await db.store.startLoad('register', 'r.csv', {});
      await db.store.startLoad('register', 'r.csv', {});
      const status = await db.sql.query<{ status: string }>(`SELECT status FROM load_journal WHERE id = $1`, [killed]);
      assert.equal(status.rows[0]?.status, 'interrupted');
      assert.equal(await db.store.findCompletedLoad('register', 'r.csv'), null);
    });

    test('loaded through: the newest snapshot date and publication date of completed loads only', async () => {
      assert.equal(await db.store.loadedThrough('register'), null);
      const register = await db.store.startLoad('register', 'BasicCompanyDataAsOneFile-2024-06-01.zip', {
        snapshotDate: '2024-06-01',
      });
      await db.store.finishLoad(register, 'done', { rows_read: 1, rows_written: 1, rows_rejected: 0 });
      const older = await db.store.startLoad('register', 'BasicCompanyDataAsOneFile-2024-05-01.zip', {
        snapshotDate: '2024-05-01',
      });
      await db.store.finishLoad(older, 'done', { rows_read: 1, rows_written: 1, rows_rejected: 0 });
      const failed = await db.store.startLoad('accounts', 'Accounts_Bulk_Data-2024-06-06.zip', {
        published: '2024-06-06',
      });
      await db.store.finishLoad(failed, 'failed', { rows_read: 0, rows_written: 0, rows_rejected: 0 });
      const done = await db.store.startLoad('accounts', 'Accounts_Bulk_Data-2024-06-05.zip', {
        published: '2024-06-05',
      });
      await db.store.finishLoad(done, 'done', { rows_read: 3, rows_written: 3, rows_rejected: 0 });
      await db.store.startLoad('accounts', 'Accounts_Bulk_Data-2024-06-07.zip', { published: '2024-06-07' });
      assert.equal(await db.store.loadedThrough('register'), '2024-06-01');
      assert.equal(await db.store.loadedThrough('accounts'), '2024-06-05');
    });

    test('load progress: running loads with the counts they reported, and the newest finished load of each kind and outcome', async () => {
      const before = Date.parse(await db.store.now());
      const id = await db.store.startLoad('accounts', 'Accounts_Bulk_Data-2024-02-01.zip', {});
      await db.store.reportLoadProgress(id, { rows_read: 10, rows_written: 8, rows_rejected: 1 });
      const running = (await db.store.loadProgress()).running.find((load) => load.id === id);
      assert.ok(running, 'the started load is running');
      const { started_at, ...rest } = running;
      assert.deepEqual(rest, {
        id,
        kind: 'accounts',
        source: 'Accounts_Bulk_Data-2024-02-01.zip',
        rows_read: 10,
        rows_written: 8,
        rows_rejected: 1,
      });
      assert.match(started_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(Math.abs(Date.parse(started_at) - before) < 60_000, `${started_at} is about now`);

      await db.store.finishLoad(id, 'failed', { rows_read: 12, rows_written: 9, rows_rejected: 3 });
      // A report that arrives after the load finished changes nothing.
      await db.store.reportLoadProgress(id, { rows_read: 99, rows_written: 99, rows_rejected: 99 });
      const later = await db.store.startLoad('accounts', 'Accounts_Bulk_Data-2024-02-02.zip', {});
      await db.store.finishLoad(later, 'failed', { rows_read: 5, rows_written: 5, rows_rejected: 0 });
      const done = await db.store.startLoad('accounts', 'Accounts_Bulk_Data-2024-02-03.zip', {});
      await db.store.finishLoad(done, 'done', { rows_read: 7, rows_written: 7, rows_rejected: 0 });

      const progress = await db.store.loadProgress();
      assert.ok(!progress.running.some((load) => load.id === id || load.id === later || load.id === done));
      const outcomes = progress.lastFinished.map((load) => `${load.kind}/${load.status}`);
      assert.deepEqual(outcomes, [...new Set(outcomes)].sort(), 'one per kind and status, in that order');
      const last = (status: string) => {
        const found = progress.lastFinished.find((load) => load.kind === 'accounts' && load.status === status);
        assert.ok(found, `a finished accounts load with status ${status}`);
        const { finished_at, ...counts } = found;
        assert.ok(Date.parse(finished_at) >= Date.parse(started_at));
        return counts;
      };
      assert.deepEqual(last('failed'), {
        kind: 'accounts',
        status: 'failed',
        rows_read: 5,
        rows_written: 5,
        rows_rejected: 0,
        partial_because: null,
      });
      assert.deepEqual(last('done'), {
        kind: 'accounts',
        status: 'done',
        rows_read: 7,
        rows_written: 7,
        rows_rejected: 0,
        partial_because: null,
      });
      // The earlier failure's own counts were kept, not the late report's.
      const kept = await db.sql.query<{ rows_read: number }>(`SELECT rows_read FROM load_journal WHERE id = $1`, [id]);
      assert.equal(kept.rows[0]?.rows_read, 12);
    });
  });
}
