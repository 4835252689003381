/**
 * The SearchIndex on Postgres (pg or PGlite): the embedded default's search, and the reference
 * the Elasticsearch adapter is tested against. Word-prefix matching uses trigram indexes; the
 * criteria conditions become plain SQL (see conditions-sql.ts).
 */
import { normaliseCompanyName } from '../../domain/company-name.ts';
import { companyKey, queryConditions, filterConditions } from '../../domain/company-conditions.ts';
import type { CompanyFilters, FigureStats, MarketStats } from '../../domain/criteria.ts';
import { overdueOn } from '../../domain/company-conditions.ts';
import type { GroupBy, GroupedMarketStats, GroupStats } from '../../domain/market-groups.ts';
import { compareGroups, GROUP_LIMIT } from '../../domain/market-groups.ts';
import type { SicSection } from '../../domain/sic-section.ts';
import { SIC_SECTIONS, sicSectionDivisions } from '../../domain/sic-section.ts';
import { RANGE_FIGURES } from '../../domain/criteria.ts';
import { GROWTH_FIGURES } from '../../domain/figure-growth.ts';
import {
  allowedEdits,
  isActiveStatus,
  NEAR_CANDIDATES,
  NEAR_MATCHES_UP_TO,
  nameQuery,
  nearMatches,
} from '../../domain/name-search.ts';
import { documentKey } from '../../domain/search-document.ts';
import type { SearchDocument } from '../../domain/search-document.ts';
import type { NameSearchHit } from '../../domain/name-search.ts';
import type { SearchIndex } from '../../ports/search-index.ts';
import type { Sql, SqlClient } from '../../ports/sql.ts';
import { afterSql, orderBySql, whereSql } from './conditions-sql.ts';
import { rebuildBeside, tableUpkeep } from './rebuild-beside.ts';
import type { RebuildBeside } from './rebuild-beside.ts';

const TABLE = 'company_search';

/** Columns filled from the document as it is (the rest are computed: its key, and from the name). */
const DOCUMENT_COLUMNS: readonly [column: keyof SearchDocument, type: string][] = [
  ['view', 'text'],
  ['company_number', 'text'],
  ['name', 'text'],
  ['status', 'text'],
  ['type', 'text'],
  ['post_town', 'text'],
  ['incorporated', 'date'],
  ['sic_codes', 'text[]'],
  ['status_groups', 'text[]'],
  ['type_key', 'text'],
  ['sic_prefixes', 'text[]'],
  ['post_town_key', 'text'],
  ['must_file', 'boolean'],
  ['accounts_next_due', 'date'],
  ['charges_outstanding', 'integer'],
  ['balance_sheet_date', 'date'],
  ['published', 'date'],
  ['net_assets', 'double precision'],
  ['cash', 'double precision'],
  ['turnover', 'double precision'],
  ['employees', 'double precision'],
  ['profit', 'double precision'],
  ['current_assets', 'double precision'],
  ['total_assets_less_current_liabilities', 'double precision'],
  ['prior_balance_sheet_date', 'date'],
  ['prior_net_assets', 'double precision'],
  ['prior_cash', 'double precision'],
  ['prior_turnover', 'double precision'],
  ['prior_employees', 'double precision'],
  ['prior_profit', 'double precision'],
  ['prior_total_assets_less_current_liabilities', 'double precision'],
  ['net_assets_change_pct', 'double precision'],
  ['cash_change_pct', 'double precision'],
  ['employees_change', 'double precision'],
  ...GROWTH_FIGURES.flatMap((figure): [keyof SearchDocument, string][] => [
    [`${figure}_growth_pct`, 'double precision'],
    [`${figure}_trend`, 'text'],
  ]),
  ['flags', 'text[]'],
  ['trajectory', 'text'],
  ['size_band', 'text'],
  ['risk_band', 'text'],
  ['risk_band_if_overdue', 'text'],
  ['controller_count', 'integer'],
  ['has_corporate_parent', 'boolean'],
  ['parent_countries', 'text[]'],
  ['identity_overdue_from', 'date'],
];
const NAME_COLUMNS: readonly [string, string][] = [
  ['doc_key', 'text'],
  ['name_words', 'text'],
  ['name_length', 'integer'],
  ['active', 'boolean'],
];
const ALL_COLUMNS = [...DOCUMENT_COLUMNS, ...NAME_COLUMNS];
const COLUMN_LIST = ALL_COLUMNS.map(([column]) => column).join(', ');
const RECORD_TYPE = ALL_COLUMNS.map(([column, type]) => `${column} ${type}`).join(', ');
const DOCUMENT_SELECT = DOCUMENT_COLUMNS.map(([column]) => column).join(', ');
const UPDATE_SET = ALL_COLUMNS.filter(([column]) => column !== 'doc_key')
  .map(([column]) => `${column} = EXCLUDED.${column}`)
  .join(', ');

const REBUILD: RebuildBeside<SearchDocument> = {
  table: TABLE,
  key: 'doc_key',
  lock: 7_240_311,
  description: 'the Postgres search index',
  insert: (sql, table, documents) => writeDocuments(sql, table, documents, 'insert'),
};

export function createPgSearchIndex(sql: Sql): SearchIndex {
  return {
    upsertCompanies: (documents) => writeDocuments(sql, TABLE, documents, 'upsert'),

    rebuild: (batches) => rebuildBeside(sql, REBUILD, batches),

    ...tableUpkeep(sql, TABLE),

    // Companies, not documents: a company's estimated document is a second copy of it.
    async count() {
      const result = await sql.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ${TABLE} WHERE view <> 'estimated'`,
      );
      return result.rows[0]!.count;
    },

    async searchByName(query, limit, after) {
      const { phrase, words } = nameQuery(query);
      if (words.length === 0) return { total: 0, hits: [], next: null, near: [] };
      // Every query word must start some word of the name; the phrase decides the tier (the
      // exact name, active or not; then active names starting with the phrase, containing it,
      // or matching its words; then the same for other statuses: NameKey's tiers 0–7).
      // A company's estimated document is a second copy of it: never listed by name.
      const wordConditions = (first: number) =>
        [`s.view <> 'estimated'`, ...words.map((_, i) => `s.name_words LIKE '% ' || $${i + first} || '%'`)].join(
          ' AND ',
        );
      const params: unknown[] = [phrase, limit + 1, ...words];
      // From just after the key (search after, never an offset), one more than asked to know
      // whether another page follows.
      const from = after
        ? `WHERE (tier, name_length, company_number) > ($${params.push(after[0])}::int, $${params.push(after[1])}::int, $${params.push(after[2])})`
        : '';
      const [page, total] = await Promise.all([
        sql.query<NameSearchHit & { tier: number; name_length: number }>(
          `SELECT * FROM (
             SELECT company_number, name, status, type, post_town, incorporated, sic_codes, name_length,
               CASE WHEN s.name_words = ' ' || $1 THEN CASE WHEN s.active THEN 0 ELSE 1 END
                 ELSE CASE WHEN s.active THEN 2 ELSE 5 END
                   + CASE WHEN s.name_words LIKE ' ' || $1 || '%' THEN 0 WHEN s.name_words LIKE '% ' || $1 || '%' THEN 1 ELSE 2 END
               END AS tier
             FROM ${TABLE} s
             WHERE ${wordConditions(3)}
           ) ranked
           ${from}
           ORDER BY tier, name_length, company_number
           LIMIT $2`,
          params,
        ),
        sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${TABLE} s WHERE ${wordConditions(1)}`, words),
      ]);
      const rows = page.rows.slice(0, limit);
      const last = rows.at(-1);
      // Near matches only when the words match no name at all: a query that finds anything never
      // pays for them.
      const room = after || total.rows[0]!.total > 0 ? 0 : Math.min(limit, NEAR_MATCHES_UP_TO);
      return {
        total: total.rows[0]!.total,
        hits: rows.map(({ tier: _tier, name_length: _length, ...hit }) => hit),
        next: page.rows.length > limit && last ? [last.tier, last.name_length, last.company_number] : null,
        near: room > 0 ? nearMatches(await nearCandidates(sql, words), words, room) : [],
      };
    },

    async findCompanies(query) {
      const params: unknown[] = [];
      const where = whereSql(queryConditions(query), params);
      const order = orderBySql(query);
      // The page from just after the key (search after, never an offset: stable while loads
      // write), one more than asked to know whether another page follows.
      const pageParams = [...params];
      const after = query.after ? ` AND ${afterSql(query, query.after, pageParams)}` : '';
      const limitParam = pageParams.push(query.limit + 1);
      // Two statements rather than count(*) OVER (), which would sort every match to return a few.
      const [page, total] = await Promise.all([
        sql.query<SearchDocument>(
          `SELECT ${DOCUMENT_SELECT} FROM ${TABLE} WHERE ${where}${after} ORDER BY ${order} LIMIT $${limitParam}`,
          pageParams,
        ),
        sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${TABLE} WHERE ${where}`, params),
      ]);
      const documents = page.rows.slice(0, query.limit);
      const more = page.rows.length > query.limit;
      return { total: total.rows[0]!.total, documents, next: more ? companyKey(documents.at(-1)!, query) : null };
    },

    async stats(filters, asOf) {
      const params: unknown[] = [];
      const where = whereSql(filterConditions(filters, asOf), params);
      return sql.transaction((tx) => marketStats(tx, where, params));
    },

    async groupedStats(filters, groupBy, asOf) {
      return sql.transaction((tx) => groupedMarketStats(tx, filters, groupBy, asOf));
    },
  };
}

/**
 * Names that may be near matches of the words: each word starts a word of the name, or (a word
 * allowed edits) is trigram-similar to one (`<%`, word_similarity at least NEAR_SIMILARITY,
 * through the trigram index), the most similar NEAR_CANDIDATES first. nearMatches decides.
 */
async function nearCandidates(sql: Sql, words: readonly string[]): Promise<NameSearchHit[]> {
  const params: unknown[] = [NEAR_CANDIDATES];
  const conditions = words.map((word) => {
    const p = params.push(word);
    const prefix = `s.name_words LIKE '% ' || $${p} || '%'`;
    return allowedEdits(word) === 0 ? prefix : `(${prefix} OR $${p} <% s.name_words)`;
  });
  const similarity = words.map((_, i) => `word_similarity($${i + 2}, s.name_words)`).join(' + ');
  // The threshold of `<%` is a setting; LOCAL keeps it to this transaction.
  return sql.transaction(async (tx) => {
    await tx.query(`SELECT set_config('pg_trgm.word_similarity_threshold', '${NEAR_SIMILARITY}', true)`);
    const found = await tx.query<NameSearchHit>(
      `SELECT company_number, name, status, type, post_town, incorporated, sic_codes FROM ${TABLE} s
       WHERE ${conditions.join(' AND ')}
       ORDER BY ${similarity} DESC, name_length, company_number
       LIMIT $1`,
      params,
    );
    return found.rows;
  });
}

/**
 * The word similarity (pg_trgm) a misspelt word needs to be a candidate: a word of 5 letters
 * with two swapped ("TESOC" for TESCO) scores 0.5, two letters missing from 9 ("SAINSBRYS")
 * 0.6, but a swap of the first two ("TSECO") 0.2 and a second letter changed in four ("AKME"
 * for ACME) 0.25. Near matches are asked only when nothing matches, so the wider net is cheap.
 */
const NEAR_SIMILARITY = 0.2;

/** The aggregates of market stats but the breakdowns, read back by groupStats. */
const STATS_COLUMNS = `count(*)::int AS companies, count(balance_sheet_date)::int AS with_accounts,
  count(*) FILTER (WHERE net_assets < 0)::int AS negative_net_assets,
  ${RANGE_FIGURES.map(
    (f) => `count(${f})::int AS ${f}_count, avg(${f}) AS ${f}_mean,
      percentile_cont(ARRAY[0.1, 0.25, 0.5, 0.75, 0.9]) WITHIN GROUP (ORDER BY ${f}) AS ${f}_pct`,
  ).join(',\n')}`;

type StatsRow = Record<string, number | number[] | null>;

async function marketStats(tx: SqlClient, where: string, params: unknown[]): Promise<MarketStats> {
  const totals = await tx.query<StatsRow>(`SELECT ${STATS_COLUMNS} FROM ${TABLE} WHERE ${where}`, params);
  const groups = async (expression: string, order: string) =>
    Object.fromEntries(
      (
        await tx.query<{ key: string; count: number }>(
          `SELECT ${expression} AS key, count(*)::int AS count FROM ${TABLE}
           WHERE ${where} AND ${expression} IS NOT NULL GROUP BY 1 ORDER BY ${order}`,
          params,
        )
      ).rows.map((row) => [row.key, row.count]),
    );
  const row = totals.rows[0]!;
  const { figures, negative_net_assets_share } = groupStats(row);
  return {
    companies: row.companies as number,
    with_accounts: row.with_accounts as number,
    by_status: await groups('status', 'count(*) DESC, status COLLATE "C"'),
    by_type: await groups('type', 'count(*) DESC, type COLLATE "C"'),
    incorporations_by_year: await groups(`to_char(incorporated, 'YYYY')`, '1'),
    figures,
    negative_net_assets_share,
  };
}

function groupStats(row: StatsRow): GroupStats {
  const figures = Object.fromEntries(
    RANGE_FIGURES.map((f): [string, FigureStats] => {
      const count = row[`${f}_count`] as number;
      const pct = (row[`${f}_pct`] as number[] | null) ?? [null, null, null, null, null];
      return [
        f,
        {
          count,
          mean: count === 0 ? null : Number(row[`${f}_mean`]),
          p10: pct[0] ?? null,
          p25: pct[1] ?? null,
          median: pct[2] ?? null,
          p75: pct[3] ?? null,
          p90: pct[4] ?? null,
        },
      ];
    }),
  ) as MarketStats['figures'];
  const withNetAssets = figures.net_assets.count;
  return {
    companies: row.companies as number,
    with_accounts: row.with_accounts as number,
    figures,
    negative_net_assets_share: withNetAssets === 0 ? null : (row.negative_net_assets as number) / withNetAssets,
  };
}

/** `(division, section)` rows of every SIC 2007 division, for grouping by section. */
const SECTION_ROWS = (Object.keys(SIC_SECTIONS) as SicSection[])
  .flatMap((section) => sicSectionDivisions(section).map((division) => `('${division}', '${section}')`))
  .join(', ');

/** The groups of a company as a text[] (groupKeys in SQL); empty for the group without a value. */
function groupKeysSql(groupBy: GroupBy, asOf: string, params: unknown[]): string {
  const one = (expression: string) => `array_remove(ARRAY[${expression}]::text[], NULL)`;
  switch (groupBy) {
    case 'status':
      return one(`nullif(status, '')`);
    case 'type':
      return one(`nullif(type, '')`);
    case 'sic_section':
      return `ARRAY(SELECT DISTINCT d.section FROM unnest(sic_prefixes) AS p(prefix)
        JOIN (VALUES ${SECTION_ROWS}) AS d(division, section) ON p.prefix = d.division)`;
    case 'sic_code':
      return `ARRAY(SELECT prefix FROM unnest(sic_prefixes) AS p(prefix) WHERE length(prefix) = 5)`;
    case 'post_town':
      return one('post_town_key');
    case 'incorporation_year':
      return one(`to_char(incorporated, 'YYYY')`);
    case 'size':
      return one('size_band');
    case 'risk_band':
      return one(`CASE WHEN ${whereSql([overdueOn(asOf)], params)} THEN risk_band_if_overdue ELSE risk_band END`);
  }
}

/**
 * Grouped stats in two statements: the GROUP_LIMIT groups with most companies and their stats
 * (one pass, GROUP BY with percentile_cont), then the same over the companies in none of them.
 */
async function groupedMarketStats(
  tx: SqlClient,
  filters: CompanyFilters,
  groupBy: GroupBy,
  asOf: string,
): Promise<GroupedMarketStats> {
  const params: unknown[] = [];
  const where = whereSql(filterConditions(filters, asOf), params);
  const keys = groupKeysSql(groupBy, asOf, params);
  const listed = await tx.query<StatsRow & { key: string | null }>(
    `WITH matched AS MATERIALIZED (
       SELECT g.key, balance_sheet_date, ${RANGE_FIGURES.join(', ')}
       FROM ${TABLE} LEFT JOIN LATERAL unnest(${keys}) AS g(key) ON true
       WHERE ${where}),
     top AS (
       SELECT key FROM matched GROUP BY key
       ORDER BY count(*) DESC, key COLLATE "C" NULLS LAST LIMIT ${GROUP_LIMIT})
     SELECT matched.key, ${STATS_COLUMNS}
     FROM matched JOIN top ON matched.key IS NOT DISTINCT FROM top.key
     GROUP BY matched.key`,
    params,
  );
  const groups = listed.rows.map((row) => ({ key: row.key as string | null, ...groupStats(row) })).sort(compareGroups);
  const otherParams: unknown[] = [];
  const otherWhere = whereSql(filterConditions(filters, asOf), otherParams);
  const otherKeys = groupKeysSql(groupBy, asOf, otherParams);
  const listedKeys = groups.flatMap((g) => (g.key === null ? [] : [g.key]));
  const withoutValueListed = groups.some((g) => g.key === null);
  const rest = await tx.query<StatsRow>(
    `SELECT ${STATS_COLUMNS} FROM ${TABLE}
     WHERE ${otherWhere} AND NOT (${otherKeys} && $${otherParams.push(listedKeys)}::text[])
       ${withoutValueListed ? `AND cardinality(${otherKeys}) > 0` : ''}`,
    otherParams,
  );
  const other = groupStats(rest.rows[0]!);
  return { group_by: groupBy, groups, other: other.companies === 0 ? null : other };
}

async function writeDocuments(
  sql: Sql,
  table: string,
  documents: readonly SearchDocument[],
  mode: 'insert' | 'upsert',
): Promise<void> {
  if (documents.length === 0) return;
  const rows = documents.map((d) => ({
    ...d,
    doc_key: documentKey(d),
    name_words: ` ${normaliseCompanyName(d.name)}`,
    name_length: d.name.length,
    active: isActiveStatus(d.status),
  }));
  await sql.query(
    `INSERT INTO ${table} AS s (${COLUMN_LIST})
     SELECT ${COLUMN_LIST} FROM json_to_recordset($1::json) AS r(${RECORD_TYPE})
     ${mode === 'upsert' ? `ON CONFLICT (doc_key) DO UPDATE SET ${UPDATE_SET}` : ''}`,
    [JSON.stringify(rows)],
  );
}
