/**
 * The SearchIndex on Postgres (pg or PGlite): the embedded default's search, and the reference
 * the Elasticsearch adapter is tested against. Word-prefix matching uses trigram indexes.
 */
import { normaliseCompanyName } from '../../domain/company-name.ts';
import { isActiveStatus, nameQuery } from '../../domain/name-search.ts';
import type { NameSearchHit, SearchDocument, SearchIndex, Sql } from '../../ports.ts';

export function createPgSearchIndex(sql: Sql): SearchIndex {
  return {
    upsertCompanies: (documents) => upsertInto(sql, 'company_search', documents),

    async rebuild(batches) {
      // Built beside the live table, then swapped in one transaction: searches never see it half-built.
      await sql.exec(
        'DROP TABLE IF EXISTS company_search_next; CREATE TABLE company_search_next (LIKE company_search INCLUDING ALL)',
      );
      let count = 0;
      for await (const batch of batches) {
        await upsertInto(sql, 'company_search_next', batch);
        count += batch.length;
      }
      await sql.transaction(async (tx) => {
        await tx.query('DROP TABLE company_search');
        await tx.query('ALTER TABLE company_search_next RENAME TO company_search');
      });
      return count;
    },

    async refresh() {
      // Postgres reads its own writes: nothing to do.
    },

    async searchByName(query, limit) {
      const { phrase, words } = nameQuery(query);
      if (words.length === 0) return [];
      // Every query word must start some word of the name; the phrase decides the tier.
      const wordConditions = words.map((_, i) => `s.name_words LIKE '% ' || $${i + 3} || '%'`).join(' AND ');
      const result = await sql.query<NameSearchHit>(
        `SELECT company_number, name, status, type, post_town, incorporated, sic_codes
         FROM company_search s
         WHERE ${wordConditions}
         ORDER BY (s.name_words = ' ' || $1) DESC, s.active DESC,
           CASE WHEN s.name_words LIKE ' ' || $1 || '%' THEN 0 WHEN s.name_words LIKE '% ' || $1 || '%' THEN 1 ELSE 2 END,
           s.name_length, s.company_number
         LIMIT $2`,
        [phrase, limit, ...words],
      );
      return result.rows;
    },
  };
}

async function upsertInto(
  sql: Sql,
  table: 'company_search' | 'company_search_next',
  documents: readonly SearchDocument[],
): Promise<void> {
  if (documents.length === 0) return;
  const rows = documents.map((d) => ({
    ...d,
    name_words: ` ${normaliseCompanyName(d.name)}`,
    name_length: d.name.length,
    active: isActiveStatus(d.status),
  }));
  await sql.query(
    `INSERT INTO ${table} AS s (company_number, name, name_words, name_length, status, active, type, post_town, incorporated, sic_codes)
     SELECT company_number, name, name_words, name_length, status, active, type, post_town, incorporated, sic_codes
     FROM json_to_recordset($1::json) AS r(company_number text, name text, name_words text, name_length integer,
       status text, active boolean, type text, post_town text, incorporated date, sic_codes text[])
     ON CONFLICT (company_number) DO UPDATE SET name = EXCLUDED.name, name_words = EXCLUDED.name_words,
       name_length = EXCLUDED.name_length, status = EXCLUDED.status, active = EXCLUDED.active, type = EXCLUDED.type,
       post_town = EXCLUDED.post_town, incorporated = EXCLUDED.incorporated, sic_codes = EXCLUDED.sic_codes`,
    [JSON.stringify(rows)],
  );
}
