/**
 * The people indexer's reading of the store: the PSC records grouped by person_key into people
 * (people.ts `personDocument`), with the names of their companies from the register. A full build
 * walks the keys in order through the psc_person index (keyset batches, never an offset: memory
 * stays flat at 12 million records); an update reads the keys that changed since a time.
 */
import type { PeopleSource } from '../../ownership/ports.ts';
import type { PersonRecord } from '../../ownership/people.ts';
import { personDocument, PERSON_KINDS } from '../../ownership/people.ts';
import type { PersonDocument } from '../../ownership/people.ts';
import type { Sql } from '../../ports.ts';

const RECORDS = `
SELECT p.person_key, p.company_number, p.kind_class, p.name, p.name_elements, p.natures AS natures_of_control,
  to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on, to_char(p.ceased_on, 'YYYY-MM-DD') AS ceased_on, p.ceased,
  p.birth_year, p.birth_month, p.nationality, p.country_of_residence, p.country, p.registered_company_number,
  c.name AS company_name
FROM psc p LEFT JOIN companies c ON c.company_number = p.company_number
WHERE p.person_key = ANY($1::text[]) AND p.kind_class = ANY($2::text[])`;

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
      const record = { ...row, birth_year: numberOrNull(row.birth_year), birth_month: numberOrNull(row.birth_month) };
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
        const changed = (await sql.query<{ person_key: string }>(CHANGED_KEYS, [changedSince])).rows.map(
          (row) => row.person_key,
        );
        for (let offset = 0; offset < changed.length; offset += batchSize)
          yield await peopleOf(changed.slice(offset, offset + batchSize));
        return;
      }
      // Keyset batches: the next batchSize distinct keys after the last one, read off the index.
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

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
