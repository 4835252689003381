/**
 * The people index on PostgreSQL or PGlite (the embedded default; migration 008): one row per person,
 * the document as the answer shows it beside the columns it is found and ranked by (the column
 * `current_companies` holds the document's active_companies, what ranks it). Word-prefix
 * matching uses the trigram index, as company names do (pg-search-index.ts).
 */
import type { PeopleIndex } from '../../ports/people-index.ts';
import type { PersonDocument, PersonKey } from '../../domain/people.ts';
import { personSearchName } from '../../ownership/people.ts';
import { PEOPLE_TOTAL_COUNTED_UP_TO } from '../../domain/people.ts';
import { personNameQuery } from '../../ownership/person-name.ts';
import type { Sql } from '../../ports/sql.ts';
import { rebuildBeside, tableUpkeep } from './rebuild-beside.ts';
import type { RebuildBeside } from './rebuild-beside.ts';

const TABLE = 'people_search';

const COLUMNS = `person_key, kind, name_words, name_length, current_companies, birth_year, birth_month, document`;

const REBUILD: RebuildBeside<PersonDocument> = {
  table: TABLE,
  key: 'person_key',
  lock: 7_240_314,
  description: 'the Postgres people index',
  insert: (sql, table, documents) => writePeople(sql, table, documents, 'insert'),
};

export function createPgPeopleIndex(sql: Sql): PeopleIndex {
  return {
    upsertPeople: (documents) => writePeople(sql, TABLE, documents, 'upsert'),

    async removePeople(personKeys) {
      if (personKeys.length === 0) return;
      await sql.query(`DELETE FROM ${TABLE} WHERE person_key = ANY($1::text[])`, [personKeys]);
    },

    rebuild: (batches) => rebuildBeside(sql, REBUILD, batches),

    ...tableUpkeep(sql, TABLE),

    async searchPeople(query) {
      const { phrase, words } = personNameQuery(query.name);
      if (words.length === 0) return { total: 0, total_is_lower_bound: false, people: [], next: null };
      // Every query word starts some word of the name; the birth filters; then the tier decides.
      const params: unknown[] = [];
      const conditions = words.map((word) => `name_words LIKE '% ' || $${params.push(word)} || '%'`);
      if (query.birth_year !== undefined) conditions.push(`birth_year = $${params.push(query.birth_year)}`);
      if (query.birth_month !== undefined) conditions.push(`birth_month = $${params.push(query.birth_month)}`);
      // Read off the document: the name's conditions narrow the rows first.
      if (query.role === 'psc') conditions.push(`document -> 'roles' @> '["psc"]'::jsonb`);
      if (query.role === 'officer') conditions.push(`(document ->> 'appointment_count')::int > 0`);
      const where = conditions.join(' AND ');
      const pageParams = [...params];
      const p = `$${pageParams.push(phrase)}`;
      // From just after the key (search after, never an offset), one more than asked to know
      // whether another page follows. More current companies rank first: compared negated, so
      // that the whole key compares ascending. person_key in byte order, as Elasticsearch sorts it.
      const after = query.after
        ? `WHERE (tier, -current_companies, name_length, person_key COLLATE "C") >
             ($${pageParams.push(query.after[0])}::int, -$${pageParams.push(query.after[1])}::int,
              $${pageParams.push(query.after[2])}::int, $${pageParams.push(query.after[3])}::text COLLATE "C")`
        : '';
      const limit = `$${pageParams.push(query.limit + 1)}`;
      const countUpTo = query.count_up_to ?? PEOPLE_TOTAL_COUNTED_UP_TO;
      const [page, total] = await Promise.all([
        sql.query<{
          document: PersonDocument;
          tier: number;
          current_companies: number;
          name_length: number;
          person_key: string;
        }>(
          `SELECT document, tier, current_companies, name_length, person_key FROM (
             SELECT document, person_key, current_companies, name_length,
               CASE WHEN name_words = ' ' || ${p} THEN 0
                 WHEN name_words LIKE ' ' || ${p} || '%' THEN 1
                 WHEN name_words LIKE '% ' || ${p} || '%' THEN 2
                 ELSE 3 END AS tier
             FROM ${TABLE} WHERE ${where}
           ) ranked
           ${after}
           ORDER BY tier, current_companies DESC, name_length, person_key COLLATE "C"
           LIMIT ${limit}`,
          pageParams,
        ),
        // Counted to one past the bound (LIMIT stops the scan there): past it is "at least the bound".
        sql.query<{ total: number }>(
          `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${TABLE} WHERE ${where} LIMIT $${params.length + 1}) counted`,
          [...params, countUpTo + 1],
        ),
      ]);
      const rows = page.rows.slice(0, query.limit);
      const last = rows.at(-1);
      const next: PersonKey | null =
        page.rows.length > query.limit && last
          ? [Number(last.tier), Number(last.current_companies), Number(last.name_length), last.person_key]
          : null;
      const counted = total.rows[0]!.total;
      return {
        total: Math.min(counted, countUpTo),
        total_is_lower_bound: counted > countUpTo,
        people: rows.map((row) => row.document),
        next,
      };
    },
  };
}

async function writePeople(
  sql: Sql,
  table: string,
  documents: readonly PersonDocument[],
  mode: 'insert' | 'upsert',
): Promise<void> {
  if (documents.length === 0) return;
  // A person read twice in one batch keeps its last copy (one INSERT cannot touch a row twice).
  const byKey = new Map(documents.map((d) => [d.person_key, d]));
  const rows = [...byKey.values()].map((d) => {
    const name = personSearchName(d);
    return {
      person_key: d.person_key,
      kind: d.kind,
      name_words: ` ${name.normalised}`,
      name_length: name.length,
      // The column ranks: companies the person is on now in any way (people.ts PersonKey).
      current_companies: d.active_companies,
      birth_year: d.birth_year,
      birth_month: d.birth_month,
      document: d,
    };
  });
  await sql.query(
    `INSERT INTO ${table} AS s (${COLUMNS})
     SELECT ${COLUMNS} FROM jsonb_to_recordset($1::jsonb) AS r(person_key text, kind text, name_words text,
       name_length integer, current_companies integer, birth_year smallint, birth_month smallint, document jsonb)
     ${
       mode === 'upsert'
         ? `ON CONFLICT (person_key) DO UPDATE SET kind = EXCLUDED.kind, name_words = EXCLUDED.name_words,
              name_length = EXCLUDED.name_length, current_companies = EXCLUDED.current_companies,
              birth_year = EXCLUDED.birth_year, birth_month = EXCLUDED.birth_month, document = EXCLUDED.document`
         : ''
     }`,
    [JSON.stringify(rows)],
  );
}
