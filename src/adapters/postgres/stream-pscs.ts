/**
 * The appliers of the persons-with-significant-control and -statements streams. An event's `data`
 * is a PSC snapshot line's `data`, so it is read by the snapshot's own parser (parsePscLine) and
 * stored by the snapshot's own upsert, dated the event's day: the same records, the same rule that
 * an older record never overwrites a newer one, and the same control_change alerts. Within a batch
 * only the latest event of a record counts. A `deleted` event (the record was removed from the
 * register, a filing made in error) marks the stored PSC ceased that day, as a complete snapshot
 * marks one it no longer lists (ceased_by_snapshot): kept, shown as ceased, raising control_change,
 * and dated so that an older record arriving later does not bring it back.
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
      const latest = new Map<string, { event: StreamEvent; record: PscRecord | null; key: Deletion }>();
      for (const event of events) {
        const number = eventCompanyNumber(event);
        if (event.event.type === 'deleted') {
          const id = event.resource_uri.slice(event.resource_uri.lastIndexOf('/') + 1);
          if (number === null || id === '') {
            rejects.push({
              event,
              reason: `resource_uri ${JSON.stringify(event.resource_uri)} names no company and PSC`,
            });
            continue;
          }
          const key = `${number}\n${id}`;
          const before = latest.get(key);
          if (!before || isLater(stamp(event), stamp(before.event)))
            latest.set(key, { event, record: null, key: { company_number: number, psc_id: id } });
          continue;
        }
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
        if (!before || isLater(stamp(event), stamp(before.event)))
          latest.set(key, { event, record: line.record, key: line.record });
      }
      await recordRejects(tx, stream, rejects);
      const byDay = new Map<string, PscRecord[]>();
      const deletions: (Deletion & { day: string })[] = [];
      for (const { event, record, key } of latest.values()) {
        const day = event.event.published_at.slice(0, 10);
        if (record === null) deletions.push({ ...key, day });
        else byDay.set(day, [...(byDay.get(day) ?? []), record]);
      }
      for (const [day, records] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await tx.query(UPSERT_PSCS_JSON, [serialisePscs(records, 'json'), day]);
      }
      const ceased =
        deletions.length === 0
          ? []
          : (await tx.query<{ company_number: string }>(CEASE_DELETED, [JSON.stringify(deletions)])).rows;
      const changed = [...latest.values()].flatMap(({ record }) => (record ? [record.company_number] : []));
      return { companies: [...new Set([...changed, ...ceased.map((row) => row.company_number)])] };
    },
  };
}

/** The stored PSC a `deleted` event names: its self link's last segment, as psc-line.ts keys it. */
interface Deletion {
  company_number: string;
  psc_id: string;
}

// Only a record stored from that day or before is ceased: a newer one says the PSC is back.
const CEASE_DELETED = `
UPDATE psc AS p SET ceased = true, ceased_by_snapshot = d.day, snapshot_date = d.day, updated_at = now()
FROM jsonb_to_recordset($1::jsonb) AS d(company_number text, psc_id text, day date)
WHERE p.company_number = d.company_number AND p.psc_id = d.psc_id AND NOT p.ceased AND p.snapshot_date <= d.day
RETURNING p.company_number`;

function stamp(event: StreamEvent): { publishedAt: string; timepoint: number } {
  return { publishedAt: utc(event.event.published_at), timepoint: event.event.timepoint };
}
