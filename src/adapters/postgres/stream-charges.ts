/**
 * The charges stream's applier (table stream_charges, migration 023): a charge first seen that was
 * delivered on or after the day the company's register facts are from is added to the company's
 * charge counts, so new_charges fires; a known charge's change of status moves it between
 * outstanding, part satisfied and satisfied. An event older than the one stored changes nothing.
 * A charge delivered before that day is in the counts already (or will be, with the next snapshot):
 * it is recorded, not counted, so no charge is counted twice.
 */
import type { SqlClient } from '../../ports/sql.ts';
import type { StreamApplier, StreamEvent } from '../../ports/stream-appliers.ts';
import { eventCompanyNumber, isLater, recordRejects, utc } from './stream-rejects.ts';
import type { StreamReject } from './stream-rejects.ts';

type Bucket = 'charges_outstanding' | 'charges_part_satisfied' | 'charges_satisfied';

function bucket(status: string | null): Bucket {
  if (status === 'part-satisfied') return 'charges_part_satisfied';
  if (status === 'fully-satisfied' || status === 'satisfied') return 'charges_satisfied';
  return 'charges_outstanding';
}

export function chargesApplier(): StreamApplier {
  return {
    stream: 'charges',
    async apply(tx: SqlClient, events: readonly StreamEvent[]) {
      const rejects: StreamReject[] = [];
      const changed = new Set<string>();
      for (const event of events) {
        if (event.event.type === 'deleted') continue;
        const number = eventCompanyNumber(event);
        const chargeId = event.resource_id || /\/charges\/([^/]+)$/.exec(event.resource_uri)?.[1] || null;
        if (!number || !chargeId) {
          rejects.push({ event, reason: `no ${number ? 'charge id' : 'company number'} in the event` });
          continue;
        }
        const status = typeof event.data.status === 'string' ? event.data.status : null;
        const deliveredText =
          typeof event.data.delivered_on === 'string'
            ? event.data.delivered_on
            : typeof event.data.created_on === 'string'
              ? event.data.created_on
              : null;
        const delivered = deliveredText && /^\d{4}-\d{2}-\d{2}$/.test(deliveredText) ? deliveredText : null;
        const stamp = { publishedAt: utc(event.event.published_at), timepoint: event.event.timepoint };
        const held = (
          await tx.query<{ status: string | null; counted: boolean; published_at: string; timepoint: string }>(
            `SELECT status, counted, to_char(stream_published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS published_at,
               stream_timepoint::text AS timepoint
             FROM stream_charges WHERE charge_id = $1 FOR UPDATE`,
            [chargeId],
          )
        ).rows[0];
        if (held && !isLater(stamp, { publishedAt: held.published_at, timepoint: Number(held.timepoint) })) continue;
        let counted = held?.counted ?? false;
        if (!held) {
          const company = await tx.query(
            `UPDATE companies SET charges_total = charges_total + 1, ${bucket(status)} = ${bucket(status)} + 1,
               updated_at = now()
             WHERE company_number = $1 AND $2::date >= snapshot_date`,
            [number, delivered],
          );
          counted = company.rowCount > 0;
          if (counted) changed.add(number);
        } else if (held.counted && bucket(held.status) !== bucket(status)) {
          await tx.query(
            `UPDATE companies SET ${bucket(held.status)} = greatest(0, ${bucket(held.status)} - 1),
               ${bucket(status)} = ${bucket(status)} + 1, updated_at = now()
             WHERE company_number = $1`,
            [number],
          );
          changed.add(number);
        }
        await tx.query(
          `INSERT INTO stream_charges (charge_id, company_number, status, delivered_on, counted, stream_timepoint,
             stream_published_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz)
           ON CONFLICT (charge_id) DO UPDATE SET status = EXCLUDED.status, delivered_on = EXCLUDED.delivered_on,
             stream_timepoint = EXCLUDED.stream_timepoint, stream_published_at = EXCLUDED.stream_published_at`,
          [chargeId, number, status, delivered, counted, event.event.timepoint, stamp.publishedAt],
        );
      }
      await recordRejects(tx, 'charges', rejects);
      return { companies: [...changed] };
    },
  };
}
