/**
 * The people indexer's reading of the store: the PSC records and officer appointments grouped by
 * person_key into people (people.ts `personDocument`), with the names of their companies from the
 * register. A full build walks the keys in order (keyset batches, never an offset: memory stays
 * flat at 12 million records); an update reads the keys that changed since a time.
 */
import type { PeopleSource } from '../../ports/people-index.ts';
import type { OfficerPersonRecord, PersonRecord } from '../../ownership/people.ts';
import { personDocument } from '../../ownership/people.ts';
import { officerPersonKey } from '../../ownership/officer-person.ts';
import { PERSON_KINDS } from '../../domain/people.ts';
import { readIdentityVerification } from '../../domain/officers.ts';
import type { IdentityVerification } from '../../domain/officers.ts';
import type { PersonDocument } from '../../domain/people.ts';
import type { Sql } from '../../ports/sql.ts';

/**
 * A PSC record's identity verification block as filed in `data`, under its name or the older one
 * (read into shape by readIdentityVerification, as get_ownership reads it).
 */
const PSC_VERIFICATION = `coalesce(p.data -> 'identity_verification_details', p.data -> 'verification_details')`;

/** A person's PSC records with their companies' register names; the WHERE says whose. */
const RECORDS_FROM = `
SELECT p.person_key, p.company_number, p.kind_class, p.name, p.name_elements, p.natures AS natures_of_control,
  to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on, to_char(p.ceased_on, 'YYYY-MM-DD') AS ceased_on, p.ceased,
  p.birth_year, p.birth_month, p.nationality, p.country_of_residence, p.country, p.registered_company_number,
  c.name AS company_name, ${PSC_VERIFICATION} AS identity_verification
FROM psc p LEFT JOIN companies c ON c.company_number = p.company_number`;

const RECORDS = `${RECORDS_FROM}
WHERE p.person_key = ANY($1::text[]) AND p.kind_class = ANY($2::text[])`;

/** A person's appointments (deleted ones are not), with their companies' register name and status. */
const APPOINTMENTS_FROM = `
SELECT o.person_key, o.company_number, o.name, o.role, to_char(o.appointed_on, 'YYYY-MM-DD') AS appointed_on,
  to_char(o.resigned_on, 'YYYY-MM-DD') AS resigned_on, o.officer_id, o.birth_year, o.birth_month, o.nationality,
  o.country_of_residence, c.name AS company_name, c.status AS company_status, o.identity_verification
FROM officers o LEFT JOIN companies c ON c.company_number = o.company_number`;

const APPOINTMENTS = `${APPOINTMENTS_FROM}
WHERE o.person_key = ANY($1::text[]) AND NOT o.deleted AND o.name IS NOT NULL AND o.role IS NOT NULL`;

/**
 * A full build on PostgreSQL: every person's PSC records and appointments in person_key order, in
 * one sequential scan and sort of each table (Sql.scan), merged. Reading them key by key through
 * psc_person fetched heap pages in key order, scattered over a 13 GB table: from a cold cache 470
 * people/s, I/O-bound (BENCHMARKS.md). `source` says which table a row is from.
 */
const ALL_ROWS = `
SELECT 'psc' AS source, p.person_key, p.company_number, p.kind_class, p.name, p.name_elements,
  p.natures AS natures_of_control, to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on,
  to_char(p.ceased_on, 'YYYY-MM-DD') AS ceased_on, p.ceased, p.birth_year, p.birth_month, p.nationality,
  p.country_of_residence, p.country, p.registered_company_number, c.name AS company_name,
  NULL::text AS company_status, NULL::text AS role, NULL::text AS appointed_on, NULL::text AS resigned_on,
  NULL::text AS officer_id, ${PSC_VERIFICATION} AS identity_verification
FROM psc p LEFT JOIN companies c ON c.company_number = p.company_number
WHERE p.person_key IS NOT NULL AND p.kind_class = ANY($1::text[])
UNION ALL
SELECT 'officer', o.person_key, o.company_number, NULL, o.name, NULL, NULL, NULL, NULL, NULL, o.birth_year,
  o.birth_month, o.nationality, o.country_of_residence, NULL, NULL, c.name, c.status, o.role,
  to_char(o.appointed_on, 'YYYY-MM-DD'), to_char(o.resigned_on, 'YYYY-MM-DD'), o.officer_id, o.identity_verification
FROM officers o LEFT JOIN companies c ON c.company_number = o.company_number
WHERE o.person_key IS NOT NULL AND NOT o.deleted AND o.name IS NOT NULL AND o.role IS NOT NULL
ORDER BY 2`;

/** Rows a fetch of the full build's scan. */
const SCAN_ROWS = 10_000;

// The keys a record, a moved record (its old key), an appointment or a company's register facts
// changed since $1. A company renamed on the register changes the name its people show.
const CHANGED_KEYS = `
SELECT person_key FROM psc WHERE updated_at > $1::timestamptz AND person_key IS NOT NULL
UNION SELECT person_key FROM psc_person_moves WHERE moved_at > $1::timestamptz
UNION SELECT person_key FROM officers WHERE updated_at > $1::timestamptz AND person_key IS NOT NULL
UNION SELECT p.person_key FROM companies c JOIN psc p ON p.company_number = c.company_number
  WHERE c.updated_at > $1::timestamptz AND p.person_key IS NOT NULL
UNION SELECT o.person_key FROM companies c JOIN officers o ON o.company_number = c.company_number
  WHERE c.updated_at > $1::timestamptz AND o.person_key IS NOT NULL
ORDER BY 1`;

/** Every key the PSC records and appointments name. */
const ALL_KEYS = `
SELECT person_key FROM psc WHERE person_key IS NOT NULL
UNION SELECT person_key FROM officers WHERE person_key IS NOT NULL`;

/** Appointments keyed a batch at a time when rows written before migration 031 have none. */
const KEYING_BATCH = 1_000;

export function createPeopleSource(sql: Sql): PeopleSource {
  /** The people of these keys, and the keys of them that name nobody now. */
  async function peopleOf(keys: readonly string[]): Promise<{ people: PersonDocument[]; gone: string[] }> {
    const [pscs, offices] = await Promise.all([
      sql.query<PersonRecord>(RECORDS, [keys, PERSON_KINDS]),
      sql.query<OfficerPersonRecord>(APPOINTMENTS, [keys]),
    ]);
    const recordsOf = groupByKey(pscs.rows.map(asRead));
    const officesOf = groupByKey(offices.rows.map(asRead));
    const people: PersonDocument[] = [];
    const gone: string[] = [];
    for (const key of keys) {
      const person = personDocument(recordsOf.get(key) ?? [], officesOf.get(key) ?? []);
      if (person) people.push(person);
      else gone.push(key);
    }
    return { people, gone };
  }

  /**
   * Appointments written before officers had a person_key (migration 031) get theirs, with
   * updated_at now so that an update re-reads them. Keyset over the primary key: a name that makes
   * no key is passed over, never read again in the same run.
   */
  async function keyOfficers(): Promise<void> {
    let after: [string, string] = ['', ''];
    for (;;) {
      const rows = (
        await sql.query<{
          company_number: string;
          appointment_id: string;
          name: string;
          role: string;
          birth_year: number | null;
          birth_month: number | null;
          data: Record<string, unknown> | null;
        }>(
          `SELECT company_number, appointment_id, name, role, birth_year, birth_month,
             jsonb_build_object('name_elements', data -> 'name_elements') AS data
           FROM officers WHERE person_key IS NULL AND name IS NOT NULL AND role IS NOT NULL
             AND (company_number, appointment_id) > ($1, $2)
           ORDER BY company_number, appointment_id LIMIT $3`,
          [after[0], after[1], KEYING_BATCH],
        )
      ).rows;
      if (rows.length === 0) return;
      const keyed = rows.map((row) => ({
        company_number: row.company_number,
        appointment_id: row.appointment_id,
        person_key: officerPersonKey(withNumbers(row)),
      }));
      await sql.query(
        `UPDATE officers o SET person_key = k.person_key, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS k(company_number text, appointment_id text, person_key text)
         WHERE o.company_number = k.company_number AND o.appointment_id = k.appointment_id AND k.person_key IS NOT NULL`,
        [JSON.stringify(keyed)],
      );
      const last = rows.at(-1)!;
      after = [last.company_number, last.appointment_id];
    }
  }

  return {
    async *peopleForIndex(batchSize, changedSince) {
      await keyOfficers();
      if (changedSince !== undefined) {
        // On PostgreSQL the changed keys stream through a cursor: a snapshot that changed most
        // records (a first load over an index built before) names millions of them.
        if (sql.scan) {
          for await (const rows of sql.scan<{ person_key: string }>(CHANGED_KEYS, batchSize, [changedSince]))
            yield await peopleOf(rows.map((row) => row.person_key));
          return;
        }
        const changed = (await sql.query<{ person_key: string }>(CHANGED_KEYS, [changedSince])).rows.map(
          (row) => row.person_key,
        );
        for (let offset = 0; offset < changed.length; offset += batchSize)
          yield await peopleOf(changed.slice(offset, offset + batchSize));
        return;
      }
      if (sql.scan) {
        yield* scannedPeople(sql.scan.bind(sql), batchSize);
        return;
      }
      // PGlite: keyset batches, the next batchSize distinct keys after the last one, read off the
      // indexes (its one connection cannot hold a cursor open while the index is written).
      let after = '';
      for (;;) {
        const keys = (
          await sql.query<{ person_key: string }>(
            `SELECT person_key FROM (${ALL_KEYS}) k WHERE person_key > $1 ORDER BY person_key LIMIT $2`,
            [after, batchSize],
          )
        ).rows.map((row) => row.person_key);
        if (keys.length === 0) return;
        yield await peopleOf(keys);
        after = keys.at(-1)!;
      }
    },

    async countPeople() {
      const result = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM (${ALL_KEYS}) k`);
      return result.rows[0]!.count;
    },
  };
}

function groupByKey<Row extends { person_key: string }>(rows: readonly Row[]): Map<string, Row[]> {
  const byKey = new Map<string, Row[]>();
  for (const row of rows) {
    const list = byKey.get(row.person_key);
    if (list) list.push(row);
    else byKey.set(row.person_key, [row]);
  }
  return byKey;
}

type ScannedRow = (PersonRecord & { source: 'psc' }) | (OfficerPersonRecord & { source: 'officer' });

/** The full scan's rows, grouped by person (they arrive in person_key order), batchSize people a batch. */
async function* scannedPeople(
  scan: NonNullable<Sql['scan']>,
  batchSize: number,
): AsyncGenerator<{ people: PersonDocument[]; gone: string[] }> {
  let people: PersonDocument[] = [];
  let key: string | null = null;
  let records: PersonRecord[] = [];
  let offices: OfficerPersonRecord[] = [];
  const flush = () => {
    const person = key !== null ? personDocument(records, offices) : null;
    if (person) people.push(person);
    records = [];
    offices = [];
  };
  for await (const rows of scan<ScannedRow>(ALL_ROWS, SCAN_ROWS, [PERSON_KINDS])) {
    for (const row of rows) {
      if (key !== null && key !== row.person_key) {
        flush();
        if (people.length >= batchSize) {
          yield { people, gone: [] };
          people = [];
        }
      }
      key = row.person_key;
      if (row.source === 'psc') records.push(asRead(row));
      else offices.push(asRead(row));
    }
  }
  flush();
  if (people.length > 0) yield { people, gone: [] };
}

/** A row as the store gives it: numbers as numbers, the verification block read into its shape. */
function asRead<Row extends { birth_year: unknown; birth_month: unknown; identity_verification: unknown }>(
  row: Row,
): Row & { birth_year: number | null; birth_month: number | null; identity_verification: IdentityVerification | null } {
  const block = row.identity_verification;
  return {
    ...withNumbers(row),
    identity_verification:
      block !== null && typeof block === 'object'
        ? readIdentityVerification({ identity_verification_details: block })
        : null,
  };
}

function withNumbers<Row extends { birth_year: unknown; birth_month: unknown }>(
  row: Row,
): Row & { birth_year: number | null; birth_month: number | null } {
  return { ...row, birth_year: numberOrNull(row.birth_year), birth_month: numberOrNull(row.birth_month) };
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
