/**
 * The appliers of the persons-with-significant-control and -statements streams. An event's `data`
 * is a PSC snapshot line's `data`, so it is read by the snapshot's own parser (parsePscLine) and
 * stored by the snapshot's own upsert, dated the event's day: the same records, the same rule that
 * an older record never overwrites a newer one, and the same control_change alerts. Within a batch
 * only the latest event of a record counts.
 */
import { parsePscLine } from '../../ownership/psc-line.ts';
import { serialisePscs } from '../../ownership/psc-batch.ts';
import type { PscRecord } from '../../domain/psc.ts';
import type { SqlClient } from '../../ports/sql.ts';
import type { StreamApplier, StreamEvent } from '../../ports/stream-appliers.ts';
import { UPSERT_PSCS_JSON } from './psc-store.ts';
import { eventCompanyNumber, isLater, recordRejects, utc } from './stream-rejects.ts';
import type { StreamReject } from './stream-rejects.ts';

export function pscApplier(
  stream: 'persons-with-significant-control' | 'persons-with-significant-control-statements',
): StreamApplier {
  return {
    stream,
    async apply(tx: SqlClient, events: readonly StreamEvent[]) {
      const rejects: StreamReject[] = [];
      const latest = new Map<string, { event: StreamEvent; record: PscRecord }>();
      for (const event of events) {
        if (event.event.type === 'deleted') continue;
        const number = eventCompanyNumber(event);
        const links = (event.data.links ?? {}) as Record<string, unknown>;
        const data =
          typeof links.self === 'string'
            ? event.data
            : { ...event.data, links: { ...links, self: event.resource_uri } };
        const line = parsePscLine(JSON.stringify({ company_number: number, data }));
        if (line.type !== 'psc') {
          rejects.push({ event, reason: line.type === 'rejected' ? line.reason : 'a summary line, not a record' });
          continue;
        }
        const key = `${line.record.company_number}\n${line.record.psc_id}`;
        const before = latest.get(key);
        if (!before || isLater(stamp(event), stamp(before.event))) latest.set(key, { event, record: line.record });
      }
      await recordRejects(tx, stream, rejects);
      const byDay = new Map<string, PscRecord[]>();
      for (const { event, record } of latest.values()) {
        const day = event.event.published_at.slice(0, 10);
        byDay.set(day, [...(byDay.get(day) ?? []), record]);
      }
      for (const [day, records] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await tx.query(UPSERT_PSCS_JSON, [serialisePscs(records, 'json'), day]);
      }
      return { companies: [...new Set([...latest.values()].map(({ record }) => record.company_number))] };
    },
  };
}

function stamp(event: StreamEvent): { publishedAt: string; timepoint: number } {
  return { publishedAt: utc(event.event.published_at), timepoint: event.event.timepoint };
}
