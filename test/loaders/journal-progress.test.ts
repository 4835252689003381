/**
 * A running load's counts reach the journal on a timer, on both stores: written while it runs,
 * no longer once stopped, and never over the counts finishLoad wrote.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { reportProgressToJournal } from '../../loaders/skeleton/journal-progress.ts';
import type { LoadJournal } from '../../src/ports/load-journal.ts';
import type { LoadCounts } from '../../src/domain/loads.ts';
import { testStores, useStore } from '../support/databases.ts';

/** The counts the journal holds for load `id` once they equal `want`, or the last seen after 2 s. */
async function journalCounts(store: LoadJournal, id: number, want: LoadCounts): Promise<LoadCounts | undefined> {
  let seen: LoadCounts | undefined;
  for (const deadline = Date.now() + 2000; Date.now() < deadline; await sleep(5)) {
    const load = (await store.loadProgress()).running.find((running) => running.id === id);
    seen = load && { rows_read: load.rows_read, rows_written: load.rows_written, rows_rejected: load.rows_rejected };
    if (seen && JSON.stringify(seen) === JSON.stringify(want)) break;
  }
  return seen;
}

for (const kind of testStores) {
  describe(`${kind.name}: load progress to the journal`, () => {
    const db = useStore(kind);

    test('the counts so far are written every interval while the load runs, and not after stop', async () => {
      const id = await db.store.startLoad('register', `progress-${kind.name}.csv`, {});
      const counts: LoadCounts = { rows_read: 0, rows_written: 0, rows_rejected: 0 };
      const progress = reportProgressToJournal(db.store, { id, counts: () => counts, intervalMs: 10 });
      try {
        Object.assign(counts, { rows_read: 300, rows_written: 200, rows_rejected: 1 });
        assert.deepEqual(await journalCounts(db.store, id, counts), counts);
        Object.assign(counts, { rows_read: 600, rows_written: 590, rows_rejected: 2 });
        assert.deepEqual(await journalCounts(db.store, id, counts), counts);
      } finally {
        await progress.stop();
      }
      const stoppedAt = { ...counts };
      Object.assign(counts, { rows_read: 900, rows_written: 900, rows_rejected: 2 });
      await sleep(60);
      const load = (await db.store.loadProgress()).running.find((running) => running.id === id);
      assert.deepEqual(load && [load.rows_read, load.rows_written, load.rows_rejected], [
        stoppedAt.rows_read,
        stoppedAt.rows_written,
        stoppedAt.rows_rejected,
      ]);
      await db.store.finishLoad(id, 'done', counts);
    });

    test('a reporter still running after finishLoad does not change the final counts', async () => {
      const id = await db.store.startLoad('register', `late-${kind.name}.csv`, {});
      const counts: LoadCounts = { rows_read: 5, rows_written: 5, rows_rejected: 0 };
      await db.store.finishLoad(id, 'done', counts);
      const progress = reportProgressToJournal(db.store, {
        id,
        counts: () => ({ ...counts, rows_read: 50 }),
        intervalMs: 5,
      });
      await sleep(40);
      await progress.stop();
      const row = await db.sql.query<{ rows_read: number; status: string }>(
        `SELECT rows_read, status FROM load_journal WHERE id = $1`,
        [id],
      );
      assert.deepEqual(row.rows[0], { rows_read: 5, status: 'done' });
    });
  });
}
