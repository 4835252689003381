/**
 * StreamGaps on Postgres (pg or PGlite): stream_gaps with the catch-up's progress and lease
 * (migration 025). Each company's fill renews the lease in its own transaction, so a process whose
 * lease went to another applies nothing more. Times are the database's.
 */
import type { Sql } from '../../ports/sql.ts';
import type { StreamGaps } from '../../ports/stream-gaps.ts';

// A PSC row is keyed by its self link's last segment when its line or event had one (psc-line.ts);
// otherwise by its etag, which no list of the API can be matched against.
const PSC_LINKS = (statements: boolean) => `
  SELECT data -> 'links' ->> 'self' AS link FROM psc
  WHERE company_number = $1 AND NOT ceased AND ${statements ? `kind_class = 'statement'` : `kind_class NOT IN ('statement', 'exemption')`}
    AND right(data -> 'links' ->> 'self', length(psc_id) + 1) = '/' || psc_id
  ORDER BY psc_id`;

/** By stream, what storedLinks reads: the exemptions are no PSC or statement list's items. */
const STORED_LINKS: Record<string, string> = {
  officers: `SELECT '/company/' || company_number || '/appointments/' || appointment_id AS link FROM officers
    WHERE company_number = $1 AND NOT deleted ORDER BY appointment_id`,
  'persons-with-significant-control': PSC_LINKS(false),
  'persons-with-significant-control-statements': PSC_LINKS(true),
};

export function createStreamGaps(sql: Sql): StreamGaps {
  return {
    async claimOpen(holder, seconds) {
      const result = await sql.query<{
        id: string;
        stream: string;
        since: string;
        fill_after_company: string | null;
        fill_counts: Record<string, number>;
      }>(
        `UPDATE stream_gaps SET fill_holder = $1, fill_lease_until = now() + make_interval(secs => $2)
         WHERE filled_at IS NULL AND (fill_holder IS NULL OR fill_holder = $1 OR fill_lease_until < now())
         RETURNING id::text, stream, ((coalesce(after_published_at, detected_at) AT TIME ZONE 'UTC')::date)::text AS since,
           fill_after_company, fill_counts`,
        [holder, seconds],
      );
      return (
        result.rows
          .map((row) => ({
            id: Number(row.id),
            stream: row.stream,
            since: row.since,
            afterCompany: row.fill_after_company,
            counts: row.fill_counts,
          }))
          // The companies stream's gaps last: a profile applied moves the company's register day to
          // today, and a charge delivered before that day is no longer counted as new.
          .sort((a, b) => Number(a.stream === 'companies') - Number(b.stream === 'companies') || a.id - b.id)
      );
    },

    async watchedAfter(after, limit) {
      const result = await sql.query<{ company_number: string }>(
        `SELECT DISTINCT company_number FROM watchlist_entries
         WHERE $1::text IS NULL OR company_number > $1 ORDER BY company_number LIMIT $2`,
        [after, limit],
      );
      return result.rows.map((row) => row.company_number);
    },

    applyFill(gap, company, runs, counts) {
      return sql.transaction(async (tx) => {
        const held = await tx.query(
          `UPDATE stream_gaps SET fill_lease_until = now() + make_interval(secs => $3)
           WHERE id = $1 AND fill_holder = $2 AND filled_at IS NULL`,
          [gap.id, gap.holder, gap.seconds],
        );
        if (held.rowCount === 0) return null;
        const companies = new Set<string>();
        for (const { applier, events } of runs) {
          if (events.length === 0) continue;
          for (const number of (await applier.apply(tx, events)).companies) companies.add(number);
        }
        await tx.query(`UPDATE stream_gaps SET fill_after_company = $2, fill_counts = $3::jsonb WHERE id = $1`, [
          gap.id,
          company,
          JSON.stringify(counts),
        ]);
        return { companies: [...companies] };
      });
    },

    async storedLinks(stream, company) {
      const query = STORED_LINKS[stream];
      if (query === undefined) return null;
      const result = await sql.query<{ link: string }>(query, [company]);
      return result.rows.map((row) => row.link);
    },

    async markFilled(gap, counts) {
      await sql.query(
        `UPDATE stream_gaps SET filled_at = now(), fill_counts = $3::jsonb, fill_holder = NULL, fill_lease_until = NULL
         WHERE id = $1 AND fill_holder = $2`,
        [gap.id, gap.holder, JSON.stringify(counts)],
      );
    },
  };
}
