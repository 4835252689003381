/**
 * The people indexer's reading of the store: the PSC records grouped by person_key into people
 * (people.ts `personDocument`), with the names of their companies from the register. A full build
 * walks the keys in order through the psc_person index (keyset batches, never an offset: memory
 * stays flat at 12 million records); an update reads the keys that changed since a time.
 */
import type { PeopleSource } from '../../ports/people-index.ts';
import type { PersonRecord } from '../../ownership/people.ts';
import { personDocument } from '../../ownership/people.ts';
import { PERSON_KINDS } from '../../domain/people.ts';
import type { PersonDocument } from '../../domain/people.ts';
import type { Sql } from '../../ports/sql.ts';

/** A person's records with their companies' register names; the WHERE says whose. */
const RECORDS_FROM = `
SELECT p.person_key, p.company_number, p.kind_class, p.name, p.name_elements, p.natures AS natures_of_control,
  to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on, to_char(p.ceased_on, 'YYYY-MM-DD') AS ceased_on, p.ceased,
  p.birth_year, p.birth_month, p.nationality, p.country_of_residence, p.country, p.registered_company_number,
  c.name AS company_name
FROM psc p LEFT JOIN companies c ON c.company_number = p.company_number`;

const RECORDS = `${RECORDS_FROM}
WHERE p.person_key = ANY($1::text[]) AND p.kind_class = ANY($2::text[])`;

/**
 * A full build on PostgreSQL: every person's records in person_key order, in one sequential scan
 * and sort (Sql.scan). Reading them key by key through psc_person fetched heap pages in key order,
 * scattered over a 13 GB table: from a cold cache 470 people/s, I/O-bound (BENCHMARKS.md).
 */
const ALL_RECORDS = `${RECORDS_FROM}
WHERE p.person_key IS NOT NULL AND p.kind_class = ANY($1::text[])
ORDER BY p.person_key`;

/** Rows a fetch of the full build's scan. */
const SCAN_ROWS = 10_000;

// The keys a record, a moved record (its old key) or a company's register facts changed since $1.
// A company renamed on the register changes the name its people show.
const CHANGED_KEYS = `
SELECT person_key FROM psc WHERE updated_at > $1::timestamptz AND person_key IS NOT NULL
UNION SELECT person_key FROM psc_person_moves WHERE moved_at > $1::timestamptz
UNION SELECT p.person_key FROM companies c JOIN psc p ON p.company_number = c.company_number
  WHERE c.updated_at > $1::timestamptz AND p.person_key IS NOT NULL
ORDER BY 1`;

export function createPeopleSource(sql: Sql): PeopleSource {
  /** The people of these keys, and the keys of them that name nobody now. */
  async function peopleOf(keys: readonly string[]): Promise<{ people: PersonDocument[]; gone: string[] }> {
    const result = await sql.query<PersonRecord>(RECORDS, [keys, PERSON_KINDS]);
    const recordsOf = new Map<string, PersonRecord[]>();
    for (const row of result.rows) {
      const record = withNumbers(row);
      const list = recordsOf.get(record.person_key);
      if (list) list.push(record);
      else recordsOf.set(record.person_key, [record]);
    }
    const people: PersonDocument[] = [];
    const gone: string[] = [];
    for (const key of keys) {
      const person = personDocument(recordsOf.get(key) ?? []);
      if (person) people.push(person);
      else gone.push(key);
    }
    return { people, gone };
  }

  return {
    async *peopleForIndex(batchSize, changedSince) {
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
      // index (its one connection cannot hold a cursor open while the index is written).
      let after = '';
      for (;;) {
        const keys = (
          await sql.query<{ person_key: string }>(
            `SELECT DISTINCT person_key FROM psc WHERE person_key IS NOT NULL AND person_key > $1
             ORDER BY person_key LIMIT $2`,
            [after, batchSize],
          )
        ).rows.map((row) => row.person_key);
        if (keys.length === 0) return;
        yield await peopleOf(keys);
        after = keys.at(-1)!;
      }
    },

    async countPeople() {
      const result = await sql.query<{ count: number }>(
        `SELECT count(DISTINCT person_key)::int AS count FROM psc WHERE person_key IS NOT NULL`,
      );
      return result.rows[0]!.count;
    },
  };
}

/** The full scan's rows, grouped by person (they arrive in person_key order), batchSize people a batch. */
async function* scannedPeople(
  scan: NonNullable<Sql['scan']>,
  batchSize: number,
): AsyncGenerator<{ people: PersonDocument[]; gone: string[] }> {
  let people: PersonDocument[] = [];
  let records: PersonRecord[] = [];
  const flush = () => {
    const person = records.length > 0 ? personDocument(records) : null;
    if (person) people.push(person);
    records = [];
  };
  for await (const rows of scan<PersonRecord>(ALL_RECORDS, SCAN_ROWS, [PERSON_KINDS])) {
    for (const row of rows) {
      if (records.length > 0 && records[0]!.person_key !== row.person_key) {
        flush();
        if (people.length >= batchSize) {
          yield { people, gone: [] };
          people = [];
        }
      }
      records.push(withNumbers(row));
    }
  }
  flush();
  if (people.length > 0) yield { people, gone: [] };
}

function withNumbers(row: PersonRecord): PersonRecord {
  return { ...row, birth_year: numberOrNull(row.birth_year), birth_month: numberOrNull(row.birth_month) };
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
