/**
 * How far a reader of changes may say it has read. A row's `updated_at` is its transaction's
 * start, so a transaction that began before a run and commits after it read dates its rows
 * before the run: a mark at the run's `now()` would pass them by for good. The mark is therefore
 * just before the oldest transaction still open in this database (or now, with none open).
 */
import type { Sql } from '../../ports/sql.ts';

/** The first key of the indexing lock (two-key form, like the free-key lock; its own number). */
export const INDEXING_LOCK_SPACE = 5_310_443;

/**
 * The mark as `timestamptz` text. Index runs are left out (they hold the indexing lock and write
 * no rows that readers of changes read), and so are transactions of roles this one may not see,
 * which show no start. PGlite is one connection: no other transaction is open while this runs.
 */
export async function openTransactionsWatermark(sql: Sql): Promise<string> {
  if (sql.dialect === 'pglite') return (await sql.query<{ now: string }>(`SELECT now()::text AS now`)).rows[0]!.now;
  const result = await sql.query<{ watermark: string }>(
    `SELECT least(now(), (
       SELECT min(a.xact_start) - interval '1 microsecond' FROM pg_stat_activity a
       WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM pg_locks l
           WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.classid = $1::int::oid)
     ))::text AS watermark`,
    [INDEXING_LOCK_SPACE],
  );
  return result.rows[0]!.watermark;
}
