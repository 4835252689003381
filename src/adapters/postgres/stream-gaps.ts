/** StreamGaps on Postgres (pg or PGlite): stream_gaps with the catch-up's progress (migration 025). */
import type { Sql } from '../../ports/sql.ts';
import type { StreamGaps } from '../../ports/stream-gaps.ts';

export function createStreamGaps(sql: Sql): StreamGaps {
  return {
    async open() {
      const result = await sql.query<{
        id: string;
        stream: string;
        fill_after_company: string | null;
        fill_counts: Record<string, number>;
      }>(
        `SELECT id::text, stream, fill_after_company, fill_counts FROM stream_gaps WHERE filled_at IS NULL ORDER BY id`,
      );
      return result.rows.map((row) => ({
        id: Number(row.id),
        stream: row.stream,
        afterCompany: row.fill_after_company,
        counts: row.fill_counts,
      }));
    },

    async watchedAfter(after, limit) {
      const result = await sql.query<{ company_number: string }>(
        `SELECT DISTINCT company_number FROM watchlist_entries
         WHERE $1::text IS NULL OR company_number > $1 ORDER BY company_number LIMIT $2`,
        [after, limit],
      );
      return result.rows.map((row) => row.company_number);
    },

    applyFill(gapId, company, runs, counts) {
      return sql.transaction(async (tx) => {
        const companies = new Set<string>();
        for (const { applier, events } of runs) {
          if (events.length === 0) continue;
          for (const number of (await applier.apply(tx, events)).companies) companies.add(number);
        }
        await tx.query(`UPDATE stream_gaps SET fill_after_company = $2, fill_counts = $3::jsonb WHERE id = $1`, [
          gapId,
          company,
          JSON.stringify(counts),
        ]);
        return { companies: [...companies] };
      });
    },

    async markFilled(gapId, counts) {
      await sql.query(`UPDATE stream_gaps SET filled_at = now(), fill_counts = $2::jsonb WHERE id = $1`, [
        gapId,
        JSON.stringify(counts),
      ]);
    },
  };
}
