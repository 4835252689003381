/**
 * The companies stream's applier: each event's company profile becomes the stored company
 * (domain/company-profile.ts). Within a batch only the latest event of a company counts; an event
 * published before the one the row was last written from (or the same one again), or before the
 * register snapshot the row comes from, changes nothing. The row's snapshot_date becomes the
 * event's day, so status_change dates its alert from it and an older snapshot never overwrites it.
 * A `deleted` event marks a held company removed from the register (status Dissolved), as a
 * complete register snapshot marks one it no longer lists.
 */
import { companyFromProfile } from '../../domain/company-profile.ts';
import type { RegisterCompany } from '../../domain/company.ts';
import type { SqlClient } from '../../ports/sql.ts';
import type { StreamApplier, StreamEvent } from '../../ports/stream-appliers.ts';
import { COMPANY_COLUMNS, REGISTER_FACTS, companyJson } from './company-store.ts';
import { eventCompanyNumber, isLater, recordRejects, utc } from './stream-rejects.ts';
import type { StreamReject } from './stream-rejects.ts';

type HeldRow = Partial<RegisterCompany> & {
  company_number: string;
  snapshot_date: string;
  stream_published_at: string | null;
  stream_timepoint: string | null;
};

const HELD = `SELECT company_number, status, type, country_of_origin, accounts_ref_day, accounts_ref_month,
  accounts_category, accounts_last_made_up_to::text, charges_total, charges_outstanding, charges_part_satisfied,
  charges_satisfied, sic_codes, snapshot_date::text,
  to_char(stream_published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS stream_published_at,
  stream_timepoint::text
FROM companies WHERE company_number = ANY($1::text[])`;

const UPSERT = `
INSERT INTO companies AS c (${REGISTER_FACTS.join(', ')}, company_number, snapshot_date, stream_published_at,
  stream_timepoint, updated_at)
SELECT ${REGISTER_FACTS.map((column) => `r.${column}`).join(', ')}, r.company_number, r.snapshot_date,
  r.stream_published_at, r.stream_timepoint, now()
FROM json_to_recordset($1::json) AS r(${COMPANY_COLUMNS}, snapshot_date date, stream_published_at timestamp,
  stream_timepoint bigint)
ON CONFLICT (company_number) DO UPDATE SET
  ${REGISTER_FACTS.map((column) => `${column} = EXCLUDED.${column}`).join(', ')},
  snapshot_date = EXCLUDED.snapshot_date, removed_from_register = NULL,
  stream_published_at = EXCLUDED.stream_published_at, stream_timepoint = EXCLUDED.stream_timepoint,
  updated_at = CASE WHEN (${REGISTER_FACTS.map((column) => `c.${column}`).join(', ')}, c.removed_from_register)
    IS DISTINCT FROM (${REGISTER_FACTS.map((column) => `EXCLUDED.${column}`).join(', ')}, NULL::date)
    THEN now() ELSE c.updated_at END
WHERE c.snapshot_date <= EXCLUDED.snapshot_date
  AND (c.stream_published_at IS NULL
    OR (c.stream_published_at, coalesce(c.stream_timepoint, -1)) < (EXCLUDED.stream_published_at, EXCLUDED.stream_timepoint))`;

// A company whose profile was deleted: as markRemovedFromRegister marks one a complete snapshot
// no longer lists (status Dissolved, removed_from_register its day), under the same ordering guard
// as UPSERT; a later `changed` event, or a snapshot listing it, brings it back.
const REMOVE = `
UPDATE companies AS c SET status = 'Dissolved', removed_from_register = coalesce(c.removed_from_register, r.day),
  snapshot_date = r.day, stream_published_at = r.stream_published_at, stream_timepoint = r.stream_timepoint,
  updated_at = CASE WHEN c.removed_from_register IS NULL OR c.status IS DISTINCT FROM 'Dissolved'
    THEN now() ELSE c.updated_at END
FROM json_to_recordset($1::json) AS r(company_number text, day date, stream_published_at timestamp, stream_timepoint bigint)
WHERE c.company_number = r.company_number AND c.snapshot_date <= r.day
  AND (c.stream_published_at IS NULL
    OR (c.stream_published_at, coalesce(c.stream_timepoint, -1)) < (r.stream_published_at, r.stream_timepoint))
RETURNING c.company_number`;

export function companiesApplier(): StreamApplier {
  return {
    stream: 'companies',
    async apply(tx: SqlClient, events: readonly StreamEvent[]) {
      const rejects: StreamReject[] = [];
      const latest = new Map<string, StreamEvent>();
      for (const event of events) {
        const number = eventCompanyNumber(event);
        if (!number) {
          rejects.push({ event, reason: 'no company number in its data or resource_uri' });
          continue;
        }
        const before = latest.get(number);
        if (!before || isLater(stamp(event), stamp(before))) latest.set(number, event);
      }
      const held = new Map(
        (await tx.query<HeldRow>(HELD, [[...latest.keys()]])).rows.map((row) => [row.company_number, row]),
      );
      const rows: Record<string, unknown>[] = [];
      const removed: Record<string, unknown>[] = [];
      for (const [number, event] of latest) {
        const row = held.get(number) ?? null;
        const day = event.event.published_at.slice(0, 10);
        if (row && row.snapshot_date > day) continue;
        if (row?.stream_published_at && !isLater(stamp(event), heldStamp(row))) continue;
        if (event.event.type === 'deleted') {
          // A profile deleted is a company gone from the register: marked as a --complete snapshot
          // marks one it no longer lists. One never held is not made up from its deletion.
          if (row)
            removed.push({
              company_number: number,
              day,
              stream_published_at: event.event.published_at.replace(/Z$/, ''),
              stream_timepoint: event.event.timepoint,
            });
          continue;
        }
        try {
          const company = companyFromProfile({ ...event.data, company_number: number }, row);
          rows.push({
            ...companyJson(company),
            snapshot_date: day,
            stream_published_at: event.event.published_at.replace(/Z$/, ''),
            stream_timepoint: event.event.timepoint,
          });
        } catch (error) {
          rejects.push({ event, reason: error instanceof Error ? error.message : String(error) });
        }
      }
      await recordRejects(tx, 'companies', rejects);
      if (rows.length > 0) await tx.query(UPSERT, [JSON.stringify(rows)]);
      const marked =
        removed.length > 0 ? (await tx.query<{ company_number: string }>(REMOVE, [JSON.stringify(removed)])).rows : [];
      return {
        companies: [...rows.map((row) => row.company_number as string), ...marked.map((row) => row.company_number)],
      };
    },
  };
}

function stamp(event: StreamEvent): { publishedAt: string; timepoint: number } {
  return { publishedAt: utc(event.event.published_at), timepoint: event.event.timepoint };
}

function heldStamp(row: HeldRow): { publishedAt: string; timepoint: number } {
  return { publishedAt: utc(row.stream_published_at!), timepoint: Number(row.stream_timepoint ?? -1) };
}
