/**
 * The one way officers and disqualifications are written, by the backfill (officer-store.ts) and
 * by the stream appliers (officer-appliers.ts) alike: a batch as one JSON parameter, each row
 * applied only when it is newer than what is stored, by (as_of, timepoint). The same event again,
 * or an older one arriving late, changes nothing. A deletion keeps the stored values and marks
 * the row deleted, so that it stays a tombstone against older changes.
 */
import type { Disqualification, OfficerRecord } from '../../domain/officers.ts';
import { officerPersonKey } from '../../ownership/officer-person.ts';
import type { SqlClient } from '../../ports/sql.ts';

/** A row to write: the record (null fields for a deletion), whether deleted, and its order. */
export interface OfficerRow extends Omit<OfficerRecord, 'data' | 'name' | 'role'> {
  name: string | null;
  role: string | null;
  data: Record<string, unknown> | null;
  deleted: boolean;
  as_of: string;
  timepoint: number | null;
}

export interface DisqualificationRow {
  officer_id: string;
  kind: string;
  name: string | null;
  disqualifications: Disqualification[] | null;
  deleted: boolean;
  as_of: string;
  timepoint: number | null;
}

const OFFICER_COLUMNS: Record<string, string> = {
  officer_id: 'text',
  name: 'text',
  role: 'text',
  appointed_on: 'date',
  resigned_on: 'date',
  nationality: 'text',
  occupation: 'text',
  country_of_residence: 'text',
  birth_year: 'smallint',
  birth_month: 'smallint',
  identity_verification: 'jsonb',
  data: 'jsonb',
  // The person the people index groups the appointment under (officer-person.ts).
  person_key: 'text',
};

const NEWER = `(t.as_of, coalesce(t.timepoint, -1)) < (EXCLUDED.as_of, coalesce(EXCLUDED.timepoint, -1))`;

/** A deletion keeps what the row said. */
const keepOnDelete = (columns: readonly string[]) =>
  columns.map((c) => `${c} = CASE WHEN EXCLUDED.deleted THEN t.${c} ELSE EXCLUDED.${c} END`).join(', ');

const officerNames = Object.keys(OFFICER_COLUMNS);
const WRITE_OFFICERS = `
INSERT INTO officers AS t (company_number, appointment_id, ${officerNames.join(', ')}, deleted, as_of, timepoint)
SELECT r.company_number, r.appointment_id, ${officerNames.map((c) => (c === 'data' ? `coalesce(r.data, '{}')` : `r.${c}`)).join(', ')},
  r.deleted, r.as_of, r.timepoint
FROM jsonb_to_recordset($1::jsonb) AS r(company_number text, appointment_id text,
  ${Object.entries(OFFICER_COLUMNS)
    .map(([c, type]) => `${c} ${type}`)
    .join(', ')}, deleted boolean, as_of timestamptz, timepoint bigint)
ON CONFLICT (company_number, appointment_id) DO UPDATE SET ${keepOnDelete(officerNames)},
  deleted = EXCLUDED.deleted, as_of = EXCLUDED.as_of, timepoint = EXCLUDED.timepoint, updated_at = now()
WHERE ${NEWER}
RETURNING t.company_number`;

const disqualificationNames = ['kind', 'name', 'disqualifications', 'disqualified_until'];
const WRITE_DISQUALIFICATIONS = `
INSERT INTO officer_disqualifications AS t (officer_id, kind, name, disqualifications, disqualified_until, deleted, as_of, timepoint)
SELECT r.officer_id, r.kind, r.name, coalesce(r.disqualifications, '[]'),
  (SELECT max((d ->> 'disqualified_until')::date) FROM jsonb_array_elements(coalesce(r.disqualifications, '[]')) d),
  r.deleted, r.as_of, r.timepoint
FROM jsonb_to_recordset($1::jsonb) AS r(officer_id text, kind text, name text, disqualifications jsonb,
  deleted boolean, as_of timestamptz, timepoint bigint)
ON CONFLICT (officer_id) DO UPDATE SET ${keepOnDelete(disqualificationNames)},
  deleted = EXCLUDED.deleted, as_of = EXCLUDED.as_of, timepoint = EXCLUDED.timepoint, updated_at = now()
WHERE ${NEWER}
RETURNING t.officer_id`;

/**
 * Of rows for the same key, the newest (by as_of, then timepoint; the later one on a tie): one
 * INSERT … ON CONFLICT cannot touch a row twice, and an older one would change nothing anyway.
 */
function newestByKey<Row extends { as_of: string; timepoint: number | null }>(
  rows: readonly Row[],
  key: (row: Row) => string,
): Row[] {
  const newest = new Map<string, Row>();
  for (const row of rows) {
    const held = newest.get(key(row));
    if (!held || order(held) <= order(row)) newest.set(key(row), row);
  }
  return [...newest.values()];
}

function order(row: { as_of: string; timepoint: number | null }): string {
  // Comparable as text: the instant in milliseconds, then the timepoint, both zero-padded.
  const ms = Date.parse(row.as_of);
  return `${String(ms).padStart(15, '0')}:${String((row.timepoint ?? -1) + 1).padStart(20, '0')}`;
}

/** Writes the rows that are newer than what is stored; returns the companies whose rows changed. */
export async function writeOfficers(client: SqlClient, rows: readonly OfficerRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const batch = newestByKey(rows, (row) => `${row.company_number}/${row.appointment_id}`).map((row) => ({
    ...row,
    person_key:
      row.name !== null && row.role !== null ? officerPersonKey({ ...row, name: row.name, role: row.role }) : null,
  }));
  const result = await client.query<{ company_number: string }>(WRITE_OFFICERS, [JSON.stringify(batch)]);
  return [...new Set(result.rows.map((row) => row.company_number))];
}

/**
 * Writes the disqualifications that are newer than what is stored; returns the companies where
 * an officer whose disqualification changed holds a current appointment.
 */
export async function writeDisqualifications(
  client: SqlClient,
  rows: readonly DisqualificationRow[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const batch = newestByKey(rows, (row) => row.officer_id);
  const written = await client.query<{ officer_id: string }>(WRITE_DISQUALIFICATIONS, [JSON.stringify(batch)]);
  if (written.rows.length === 0) return [];
  const companies = await client.query<{ company_number: string }>(
    `SELECT DISTINCT company_number FROM officers
     WHERE officer_id = ANY($1::text[]) AND NOT deleted AND resigned_on IS NULL ORDER BY company_number`,
    [written.rows.map((row) => row.officer_id)],
  );
  return companies.rows.map((row) => row.company_number);
}
