/**
 * The journal a backfill keeps of its runs, one row a selection in its own table: a run begun
 * again before it finished keeps its start, so the companies done since then are skipped.
 */
import type { Sql } from '../../ports/sql.ts';

export interface BackfillRuns {
  beginRun(selection: string): Promise<{ startedAt: string; resumed: boolean }>;
  finishRun(selection: string): Promise<void>;
  /** Every watched company, in number order: a backfill does them first. */
  watchedCompanies(): Promise<string[]>;
}

export function backfillRuns(sql: Sql, table: 'officer_backfill_runs' | 'pdf_backfill_runs'): BackfillRuns {
  return {
    async beginRun(selection) {
      const result = await sql.query<{ started_at: string; resumed: boolean }>(
        `INSERT INTO ${table} AS r (selection, started_at) VALUES ($1, now())
         ON CONFLICT (selection) DO UPDATE
           SET started_at = CASE WHEN r.finished_at IS NULL THEN r.started_at ELSE now() END, finished_at = NULL
         RETURNING to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started_at,
           (started_at < now()) AS resumed`,
        [selection],
      );
      return { startedAt: result.rows[0]!.started_at, resumed: result.rows[0]!.resumed };
    },

    async finishRun(selection) {
      await sql.query(`UPDATE ${table} SET finished_at = now() WHERE selection = $1`, [selection]);
    },

    async watchedCompanies() {
      const result = await sql.query<{ company_number: string }>(
        `SELECT DISTINCT company_number FROM watchlist_entries ORDER BY company_number`,
      );
      return result.rows.map((row) => row.company_number);
    },
  };
}
