/**
 * The insolvency-cases stream's applier (table company_insolvency, migration 024). An event is a
 * company's whole insolvency resource, so it replaces what is stored of that company when it was
 * published later (published_at, then timepoint); the same event again, or an older one, changes
 * nothing. A change of cases marks the company changed (its updated_at too, so the detection run
 * a follower makes when it starts finds it after a crash), and the insolvency alert compares the
 * cases with each watch's snapshot.
 */
import { readInsolvencyCases } from '../../domain/insolvency.ts';
import type { SqlClient } from '../../ports/sql.ts';
import type { StreamApplier, StreamEvent } from '../../ports/stream-appliers.ts';
import { eventCompanyNumber, isLater, recordRejects, utc } from './stream-rejects.ts';
import type { StreamReject } from './stream-rejects.ts';

export function insolvencyApplier(): StreamApplier {
  return {
    stream: 'insolvency-cases',
    async apply(tx: SqlClient, events: readonly StreamEvent[]) {
      const rejects: StreamReject[] = [];
      const changed = new Set<string>();
      for (const event of events) {
        // A resource withdrawn whole: what was published of the company's cases stays known.
        if (event.event.type === 'deleted') continue;
        const number = eventCompanyNumber(event);
        if (!number) {
          rejects.push({ event, reason: 'no company number in the event' });
          continue;
        }
        const cases = readInsolvencyCases(event.data);
        if (typeof cases === 'string') {
          rejects.push({ event, reason: cases });
          continue;
        }
        const stamp = { publishedAt: utc(event.event.published_at), timepoint: event.event.timepoint };
        const held = (
          await tx.query<{ cases: string; published_at: string; timepoint: string }>(
            `SELECT cases::text AS cases,
               to_char(stream_published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS published_at,
               stream_timepoint::text AS timepoint
             FROM company_insolvency WHERE company_number = $1 FOR UPDATE`,
            [number],
          )
        ).rows[0];
        if (held && !isLater(stamp, { publishedAt: held.published_at, timepoint: Number(held.timepoint) })) continue;
        const status = typeof event.data.status === 'string' ? event.data.status : null;
        const written = await tx.query<{ same: boolean }>(
          `INSERT INTO company_insolvency (company_number, status, cases, stream_timepoint, stream_published_at)
           VALUES ($1, $2, $3::jsonb, $4, $5::timestamptz)
           ON CONFLICT (company_number) DO UPDATE SET status = EXCLUDED.status, cases = EXCLUDED.cases,
             stream_timepoint = EXCLUDED.stream_timepoint, stream_published_at = EXCLUDED.stream_published_at
           RETURNING cases = $6::jsonb AS same`,
          [number, status, JSON.stringify(cases), event.event.timepoint, stamp.publishedAt, held?.cases ?? null],
        );
        if (written.rows[0]?.same === true) continue;
        await tx.query(`UPDATE companies SET updated_at = now() WHERE company_number = $1`, [number]);
        changed.add(number);
      }
      await recordRejects(tx, 'insolvency-cases', rejects);
      return { companies: [...changed] };
    },
  };
}
