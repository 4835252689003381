/**
 * The company store on Postgres (pg or PGlite through the Sql port): the ports CompanyStore
 * (register and accounts), LoadJournal, IndexCursor and Health, on one connection. Batches travel as one JSON
 * parameter expanded by json_to_recordset: one round trip per batch, and the same SQL on both.
 * (json, not jsonb: the text is read straight into typed columns, without building jsonb first.)
 */
import type { Address, RegisterCompany } from '../../domain/company.ts';
import type {
  AccountsEntry,
  CompanyWithAccounts,
  FilingRecord,
  ParseFailureRecord,
  RecentFiling,
} from '../../domain/filings.ts';
import type { StoredPsc } from '../../domain/psc.ts';
import { earliestOverdueFrom, readIdentityVerification } from '../../domain/officers.ts';
import type { InsolvencyCase } from '../../domain/insolvency.ts';
import type { CompanyStore } from '../../ports/companies.ts';
import type { Health } from '../../ports/health.ts';
import type { IndexCursor } from '../../ports/index-cursor.ts';
import type { LoadJournal } from '../../ports/load-journal.ts';
import type { FinishedLoad, LoadCounts, LoadKind, LoadStatus, RunningLoad } from '../../domain/loads.ts';
import { INDEXING_LOCK_SPACE, openTransactionsWatermark } from './open-transactions.ts';
import type { Sql, SqlClient } from '../../ports/sql.ts';
import type { AccountsPeriod } from '../../domain/accounts-period.ts';
import { FIGURE_KEYS } from '../../domain/figures.ts';
import type { FigureSet } from '../../domain/figures.ts';
import type { IndexedRegisterFacts, IndexSource } from '../../domain/search-document.ts';
import { CONTROLLER_KIND_CLASSES, PARENT_KIND_CLASSES } from '../../domain/psc-summary.ts';
import type { PscSummary } from '../../domain/psc-summary.ts';
import { PSCS_OF_COMPANY, storedPsc } from './stored-psc.ts';

export const COMPANY_COLUMNS = `company_number text, name text, status text, type text, incorporated date, dissolved date,
  country_of_origin text, accounts_ref_day smallint, accounts_ref_month smallint, accounts_category text,
  accounts_last_made_up_to date, accounts_next_due date, confirmation_last_made_up_to date, confirmation_next_due date,
  charges_total integer, charges_outstanding integer, charges_part_satisfied integer, charges_satisfied integer,
  sic_codes text[], care_of text, po_box text, line_1 text, line_2 text, post_town text, county text, country text,
  postcode text, previous_names jsonb`;

/**
 * What the register says about a company. A monthly snapshot lists every live company again, most
 * of them unchanged: only a company whose facts changed gets a new updated_at, so the search
 * update after the load re-indexes those, not all 5.6 million.
 */
export const REGISTER_FACTS = COMPANY_COLUMNS.split(',')
  .map((definition) => definition.trim().split(/\s+/)[0]!)
  .filter((column) => column !== 'company_number');

const UPSERT_COMPANIES = `
INSERT INTO companies AS c (company_number, name, status, type, incorporated, dissolved, country_of_origin,
  accounts_ref_day, accounts_ref_month, accounts_category, accounts_last_made_up_to, accounts_next_due,
  confirmation_last_made_up_to, confirmation_next_due, charges_total, charges_outstanding, charges_part_satisfied,
  charges_satisfied, sic_codes, care_of, po_box, line_1, line_2, post_town, county, country, postcode,
  previous_names, snapshot_date, removed_from_register, updated_at)
SELECT r.company_number, r.name, r.status, r.type, r.incorporated, r.dissolved, r.country_of_origin,
  r.accounts_ref_day, r.accounts_ref_month, r.accounts_category, r.accounts_last_made_up_to, r.accounts_next_due,
  r.confirmation_last_made_up_to, r.confirmation_next_due, r.charges_total, r.charges_outstanding,
  r.charges_part_satisfied, r.charges_satisfied, r.sic_codes,
  r.care_of, r.po_box, r.line_1, r.line_2, r.post_town, r.county, r.country, r.postcode, r.previous_names,
  $2::date, NULL, now()
FROM json_to_recordset($1::json) AS r(${COMPANY_COLUMNS})
ON CONFLICT (company_number) DO UPDATE SET
  name = EXCLUDED.name, status = EXCLUDED.status, type = EXCLUDED.type, incorporated = EXCLUDED.incorporated,
  dissolved = EXCLUDED.dissolved, country_of_origin = EXCLUDED.country_of_origin,
  accounts_ref_day = EXCLUDED.accounts_ref_day, accounts_ref_month = EXCLUDED.accounts_ref_month,
  accounts_category = EXCLUDED.accounts_category, accounts_last_made_up_to = EXCLUDED.accounts_last_made_up_to,
  accounts_next_due = EXCLUDED.accounts_next_due, confirmation_last_made_up_to = EXCLUDED.confirmation_last_made_up_to,
  confirmation_next_due = EXCLUDED.confirmation_next_due, charges_total = EXCLUDED.charges_total,
  charges_outstanding = EXCLUDED.charges_outstanding, charges_part_satisfied = EXCLUDED.charges_part_satisfied,
  charges_satisfied = EXCLUDED.charges_satisfied, sic_codes = EXCLUDED.sic_codes, care_of = EXCLUDED.care_of,
  po_box = EXCLUDED.po_box, line_1 = EXCLUDED.line_1, line_2 = EXCLUDED.line_2, post_town = EXCLUDED.post_town,
  county = EXCLUDED.county, country = EXCLUDED.country, postcode = EXCLUDED.postcode,
  previous_names = EXCLUDED.previous_names, snapshot_date = EXCLUDED.snapshot_date,
  removed_from_register = NULL,
  updated_at = CASE WHEN (${REGISTER_FACTS.map((column) => `c.${column}`).join(', ')}, c.removed_from_register)
    IS DISTINCT FROM (${REGISTER_FACTS.map((column) => `EXCLUDED.${column}`).join(', ')}, NULL::date)
    THEN now() ELSE c.updated_at END
WHERE c.snapshot_date <= EXCLUDED.snapshot_date`;

const FILING_COLUMNS = `company_number text, source_zip text, source_file text, published date,
  balance_sheet_date date, period_start date, standard text, entity_name text, current_figures jsonb,
  prior_balance_sheet_date date, prior_period_start date, prior_figures jsonb, quality jsonb`;

const UPSERT_FILINGS = `
INSERT INTO filings AS f (company_number, source_zip, source_file, published, balance_sheet_date, period_start,
  standard, entity_name, current_figures, prior_balance_sheet_date, prior_period_start, prior_figures, quality)
SELECT r.company_number, r.source_zip, r.source_file, r.published, r.balance_sheet_date, r.period_start,
  r.standard, r.entity_name, r.current_figures, r.prior_balance_sheet_date, r.prior_period_start,
  r.prior_figures, r.quality
FROM json_to_recordset($1::json) AS r(${FILING_COLUMNS})
ON CONFLICT (source_zip, source_file) DO UPDATE SET
  company_number = EXCLUDED.company_number, published = EXCLUDED.published,
  balance_sheet_date = EXCLUDED.balance_sheet_date, period_start = EXCLUDED.period_start,
  standard = EXCLUDED.standard, entity_name = EXCLUDED.entity_name, current_figures = EXCLUDED.current_figures,
  prior_balance_sheet_date = EXCLUDED.prior_balance_sheet_date, prior_period_start = EXCLUDED.prior_period_start,
  prior_figures = EXCLUDED.prior_figures, quality = EXCLUDED.quality, loaded_at = now()`;

/** True when a figures column has not one figure filed (every key null). */
const NO_FIGURES = (column: string) => `jsonb_strip_nulls(${column}) = '{}'::jsonb`;

/**
 * Rebuild the history of the given companies from all their filings. Per balance sheet date: a
 * column with figures beats one without any (a filing that tags no figure at its balance sheet
 * date, only its comparative column, has an all-null current column: the next year's prior
 * column, or an earlier original, gives that date its figures); then a filing's own current
 * column beats a later filing's prior column; among several, the latest published (an amendment)
 * wins, then the latest loaded. Order-independent, so loading bulk files in any order, or twice,
 * gives the same history.
 */
const REBUILD_HISTORY = [
  `DELETE FROM accounts_history WHERE company_number = ANY($1::text[])`,
  `INSERT INTO accounts_history (company_number, balance_sheet_date, period_start, published, standard, figures,
     quality, from_prior_period, filing_id, source_zip, source_file)
   SELECT DISTINCT ON (company_number, balance_sheet_date)
     company_number, balance_sheet_date, period_start, published, standard, figures, quality, from_prior_period, filing_id,
     source_zip, source_file
   FROM (
     SELECT company_number, balance_sheet_date, period_start, published, standard, current_figures AS figures,
       jsonb_path_query_array(quality, '$[*] ? (@.period == "current")') AS quality, false AS from_prior_period,
       id AS filing_id, source_zip, source_file
     FROM filings WHERE company_number = ANY($1::text[])
     UNION ALL
     SELECT company_number, prior_balance_sheet_date, prior_period_start, published, standard, prior_figures,
       jsonb_path_query_array(quality, '$[*] ? (@.period == "prior")'), true, id, source_zip, source_file
     FROM filings WHERE company_number = ANY($1::text[]) AND prior_figures IS NOT NULL AND prior_balance_sheet_date IS NOT NULL
   ) AS candidates
   ORDER BY company_number, balance_sheet_date, ${NO_FIGURES('figures')}, from_prior_period, published DESC NULLS LAST,
     filing_id DESC`,
];

/**
 * Loads do not wait for their commits to reach disk. A crash may lose the last batches, which is
 * safe only because every load is idempotent and resumable: running it again restores them.
 */
const LOAD_COMMIT = `SET LOCAL synchronous_commit = off`;

const UPSERT_FAILURES = `
INSERT INTO parse_failures (source_zip, source_file, code, message)
SELECT r.source_zip, r.source_file, r.code, r.message
FROM json_to_recordset($1::json) AS r(source_zip text, source_file text, code text, message text)
ON CONFLICT (source_zip, source_file) DO UPDATE SET code = EXCLUDED.code, message = EXCLUDED.message, recorded_at = now()`;

/**
 * The row json_to_recordset reads: the register fields with the address flattened. Written out
 * field by field: built by spreading (`{ ...rest, ...address }`) the objects took a third of a
 * register load's time to serialise, a literal of one fixed shape a tenth of that. The type
 * makes a register field added later a compile error here until it is written.
 */
export function companyJson(
  company: RegisterCompany,
): Record<Exclude<keyof CompanyRow, 'snapshot_date' | 'removed_from_register'>, unknown> {
  const { address } = company;
  return {
    company_number: company.company_number,
    name: company.name,
    status: company.status,
    type: company.type,
    incorporated: company.incorporated,
    dissolved: company.dissolved,
    country_of_origin: company.country_of_origin,
    accounts_ref_day: company.accounts_ref_day,
    accounts_ref_month: company.accounts_ref_month,
    accounts_category: company.accounts_category,
    accounts_last_made_up_to: company.accounts_last_made_up_to,
    accounts_next_due: company.accounts_next_due,
    confirmation_last_made_up_to: company.confirmation_last_made_up_to,
    confirmation_next_due: company.confirmation_next_due,
    charges_total: company.charges_total,
    charges_outstanding: company.charges_outstanding,
    charges_part_satisfied: company.charges_part_satisfied,
    charges_satisfied: company.charges_satisfied,
    sic_codes: company.sic_codes,
    care_of: address.care_of,
    po_box: address.po_box,
    line_1: address.line_1,
    line_2: address.line_2,
    post_town: address.post_town,
    county: address.county,
    country: address.country,
    postcode: address.postcode,
    previous_names: company.previous_names,
  };
}

function filingJson(filing: FilingRecord): Record<string, unknown> {
  const { current, prior, ...rest } = filing;
  return { ...rest, current_figures: current, prior_figures: prior };
}

/** A companies row: the register fields with the address flattened into columns. */
interface CompanyRow extends Omit<RegisterCompany, 'address'>, Address {
  removed_from_register: string | null;
  snapshot_date: string;
}

/** The ports the Postgres company store implements: callers ask for the one they need. */
export type PostgresCompanyStore = CompanyStore & LoadJournal & IndexCursor & Health;

export function createCompanyStore(sql: Sql): PostgresCompanyStore {
  return {
    async upsertCompanies(companies, snapshotDate) {
      if (companies.length === 0) return;
      // One INSERT … ON CONFLICT cannot touch a row twice, so a number repeated within a batch
      // keeps its last row, as it would across batches.
      const byNumber = new Map(companies.map((company) => [company.company_number, company]));
      await sql.transaction(async (tx) => {
        await tx.query(LOAD_COMMIT);
        await tx.query(UPSERT_COMPANIES, [JSON.stringify([...byNumber.values()].map(companyJson)), snapshotDate]);
      });
    },

    async markRemovedFromRegister(snapshotDate) {
      const result = await sql.query(
        `UPDATE companies SET status = 'Dissolved', removed_from_register = $1::date, updated_at = now()
         WHERE snapshot_date < $1::date AND removed_from_register IS NULL`,
        [snapshotDate],
      );
      return result.rowCount;
    },

    async countNotListed(snapshotDate) {
      const result = await sql.query<{ count: number; held: number; last_listed: string | null }>(
        `SELECT (count(*) FILTER (WHERE snapshot_date < $1::date))::int AS count, count(*)::int AS held,
                (max(snapshot_date) FILTER (WHERE snapshot_date < $1::date))::text AS last_listed
         FROM companies WHERE removed_from_register IS NULL`,
        [snapshotDate],
      );
      const { count, held, last_listed } = result.rows[0]!;
      return { count, held, lastListed: last_listed };
    },

    async saveFilings(filings, failures) {
      await retryingConflicts(() => saveFilingsOnce(sql, filings, failures));
    },

    async getCompany(companyNumber) {
      return (await selectCompanies(sql, 'c.company_number = $1', [companyNumber]))[0] ?? null;
    },

    getCompanies: (companyNumbers) =>
      companyNumbers.length === 0
        ? Promise.resolve([])
        : selectCompanies(sql, 'c.company_number = ANY($1::text[])', [companyNumbers], true),

    async companyWithPscs(companyNumber, includeCeased) {
      const result = await sql.query<CompanyWithHistoryRow & { pscs: StoredPsc[] | null }>(COMPANY_WITH_PSCS, [
        companyNumber,
        includeCeased,
      ]);
      const row = result.rows[0];
      if (!row) return null;
      const { pscs, ...company } = row;
      return { ...companyWithAccountsFromRow(company), pscs: (pscs ?? []).map(storedPsc) };
    },

    async recentFilings(since, limit, after) {
      const params: unknown[] = [since, limit + 1];
      // From just after the key in the order below (search after, never an offset: stable while
      // loads write), one more than asked to know whether another page follows.
      const from = after
        ? (() => {
            const [published, number, balanceSheetDate, file, zip] = after.map((value) => `$${params.push(value)}`);
            const sameDay = `f.company_number > ${number} OR (f.company_number = ${number} AND (
                 f.balance_sheet_date < ${balanceSheetDate}::date OR (f.balance_sheet_date = ${balanceSheetDate}::date
                   AND (f.source_file, f.source_zip) > (${file}, ${zip}))))`;
            return `AND (f.published < ${published}::date OR (f.published = ${published}::date AND (${sameDay})))`;
          })()
        : '';
      const [page, total] = await Promise.all([
        sql.query<RecentFiling & { source_file: string; source_zip: string }>(
          `SELECT f.company_number, coalesce(c.name, f.entity_name) AS name, f.published, f.balance_sheet_date,
             (f.current_figures->>'net_assets')::float8 AS net_assets, (f.current_figures->>'cash')::float8 AS cash,
             (f.current_figures->>'turnover')::float8 AS turnover, f.source_file, f.source_zip
           FROM filings f LEFT JOIN companies c ON c.company_number = f.company_number
           WHERE f.published >= $1::date ${from}
           ORDER BY f.published DESC, f.company_number, f.balance_sheet_date DESC, f.source_file, f.source_zip
           LIMIT $2`,
          params,
        ),
        sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM filings WHERE published >= $1::date`, [since]),
      ]);
      const rows = page.rows.slice(0, limit);
      const last = rows.at(-1);
      return {
        total: total.rows[0]!.total,
        filings: rows.map(({ source_file: _file, source_zip: _zip, ...filing }) => filing),
        next:
          page.rows.length > limit && last
            ? [last.published, last.company_number, last.balance_sheet_date, last.source_file, last.source_zip]
            : null,
      };
    },

    async counts() {
      const result = await sql.query<{ companies: number; filings: number; history: number; failures: number }>(
        `SELECT (SELECT count(*) FROM companies)::int AS companies, (SELECT count(*) FROM filings)::int AS filings,
           (SELECT count(*) FROM accounts_history)::int AS history, (SELECT count(*) FROM parse_failures)::int AS failures`,
      );
      return result.rows[0]!;
    },

    async *companiesForIndex(batchSize, changedSince) {
      if (changedSince !== undefined) {
        for await (const numbers of changedCompanyNumbers(sql, changedSince, batchSize)) {
          const batch = await indexSources(sql, { numbers }, batchSize);
          if (batch.length > 0) yield batch;
        }
        return;
      }
      // The full scan pages by key.
      let after = '';
      for (;;) {
        const batch = await indexSources(sql, { after }, batchSize);
        if (batch.length === 0) return;
        yield batch;
        after = batch.at(-1)!.company.company_number;
      }
    },

    async now() {
      const result = await sql.query<{ now: string }>(`SELECT now()::text AS now`);
      return result.rows[0]!.now;
    },

    indexWatermark: () => openTransactionsWatermark(sql),

    async searchIndexedThrough(target) {
      const result = await sql.query<{ through: string }>(
        `SELECT indexed_through::text AS through FROM search_index_runs WHERE target = $1`,
        [target],
      );
      return result.rows[0]?.through ?? null;
    },

    async recordSearchIndexedThrough(target, through) {
      await sql.query(
        `INSERT INTO search_index_runs (target, indexed_through) VALUES ($1, $2::timestamptz)
         ON CONFLICT (target) DO UPDATE SET indexed_through = EXCLUDED.indexed_through, recorded_at = now()`,
        [target, through],
      );
    },

    async indexingExclusively(target, work, onWait) {
      // PGlite is one process on one connection: nothing else can index, and a transaction held
      // open here would block the indexer's own reads.
      if (sql.dialect === 'pglite') return work();
      // A transaction-scoped lock on a connection of its own, so it goes with the connection if
      // this process dies mid-build.
      return sql.transaction(async (tx) => {
        const key = [INDEXING_LOCK_SPACE, target];
        const free = await tx.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked',
          key,
        );
        if (!free.rows[0]?.locked) {
          onWait?.();
          await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', key);
        }
        return work();
      });
    },

    async startLoad(kind: LoadKind, source, detail) {
      // A load of the same source still marked running was killed: say so rather than pretend.
      await sql.query(
        `UPDATE load_journal SET status = 'interrupted', finished_at = now() WHERE kind = $1 AND source = $2 AND status = 'running'`,
        [kind, source],
      );
      const result = await sql.query<{ id: number }>(
        `INSERT INTO load_journal (kind, source, status, detail) VALUES ($1, $2, 'running', $3::jsonb) RETURNING id`,
        [kind, source, JSON.stringify(detail)],
      );
      return result.rows[0]!.id;
    },

    async finishLoad(id, status: LoadStatus, counts: LoadCounts, detail) {
      await sql.query(
        `UPDATE load_journal SET status = $2, finished_at = now(), rows_read = $3, rows_written = $4, rows_rejected = $5,
           detail = detail || $6::jsonb WHERE id = $1`,
        [id, status, counts.rows_read, counts.rows_written, counts.rows_rejected, JSON.stringify(detail ?? {})],
      );
    },

    async ping() {
      await sql.query('SELECT 1');
    },

    async loadedThrough(kind) {
      const result = await sql.query<{ through: string | null }>(
        `SELECT max(detail->>$2) AS through FROM load_journal WHERE kind = $1 AND status = 'done'`,
        [kind, kind === 'accounts' ? 'published' : 'snapshotDate'],
      );
      return result.rows[0]?.through ?? null;
    },

    async reportLoadProgress(id, counts: LoadCounts) {
      // Only while running: a report that arrives after finishLoad must not overwrite its counts.
      await sql.query(
        `UPDATE load_journal SET rows_read = $2, rows_written = $3, rows_rejected = $4 WHERE id = $1 AND status = 'running'`,
        [id, counts.rows_read, counts.rows_written, counts.rows_rejected],
      );
    },

    async loadProgress() {
      const running = await sql.query<RunningLoad>(
        `SELECT id, kind, source, ${utcIso('started_at')} AS started_at,
           rows_read, rows_written, rows_rejected
         FROM load_journal WHERE status = 'running' ORDER BY started_at, id`,
      );
      const lastFinished = await sql.query<FinishedLoad>(
        `SELECT DISTINCT ON (kind, status) kind, status, ${utcIso('finished_at')} AS finished_at,
           rows_read, rows_written, rows_rejected, detail->>'partialBecause' AS partial_because
         FROM load_journal WHERE status <> 'running' AND finished_at IS NOT NULL
         ORDER BY kind, status, finished_at DESC, id DESC`,
      );
      return { running: running.rows, lastFinished: lastFinished.rows };
    },

    async findCompletedLoad(kind, source) {
      const result = await sql.query<{ id: number; detail: Record<string, unknown> }>(
        `SELECT id, detail FROM load_journal WHERE kind = $1 AND source = $2 AND status = 'done' ORDER BY id DESC LIMIT 1`,
        [kind, source],
      );
      return result.rows[0] ?? null;
    },
  };
}

/**
 * Two processes loading different bulk files (a shared load, docs/shared-loads.md) may rebuild the
 * history of the same company at once: each transaction's rebuild reads the filings committed when
 * it starts, so one of them meets the other's rows (a unique violation on accounts_history) or
 * waits on them in a deadlock, and Postgres refuses it. Done again, it reads both filings and
 * builds the history one clean load would. A single process never meets either.
 */
async function retryingConflicts(work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= CONFLICT_ATTEMPTS || (code !== '23505' && code !== '40P01' && code !== '40001')) throw error;
      await new Promise((done) => setTimeout(done, Math.random() * 50 * attempt));
    }
  }
}

const CONFLICT_ATTEMPTS = 10;

async function saveFilingsOnce(
  sql: Sql,
  filings: readonly FilingRecord[],
  failures: readonly ParseFailureRecord[],
): Promise<void> {
  // One upsert cannot touch a row twice: a member a zip holds twice (a name may repeat in a zip)
  // is kept once, the later, as two batches would have left it.
  filings = lastOfEachFile(filings);
  failures = lastOfEachFile(failures);
  await sql.transaction(async (tx: SqlClient) => {
    await tx.query(LOAD_COMMIT);
    if (filings.length > 0) {
      // Accounts read through the Document API the day they were filed give way to the same
      // accounts in a bulk file: one filing per company and balance sheet date from the two.
      await tx.query(
        `DELETE FROM filings f USING json_to_recordset($1::json) AS r(company_number text, balance_sheet_date date, source_zip text)
         WHERE r.source_zip <> 'document-api' AND f.source_zip = 'document-api'
           AND f.company_number = r.company_number AND f.balance_sheet_date = r.balance_sheet_date`,
        [
          JSON.stringify(
            filings.map(({ company_number, balance_sheet_date, source_zip }) => ({
              company_number,
              balance_sheet_date,
              source_zip,
            })),
          ),
        ],
      );
      await tx.query(UPSERT_FILINGS, [JSON.stringify(filings.map(filingJson))]);
      const numbers = [...new Set(filings.map((filing) => filing.company_number))];
      for (const statement of REBUILD_HISTORY) await tx.query(statement, [numbers]);
      // A filing that parses now is no longer a failure.
      await tx.query(
        `DELETE FROM parse_failures p USING json_to_recordset($1::json) AS r(source_zip text, source_file text)
         WHERE p.source_zip = r.source_zip AND p.source_file = r.source_file`,
        [JSON.stringify(filings.map(({ source_zip, source_file }) => ({ source_zip, source_file })))],
      );
    }
    if (failures.length > 0) await tx.query(UPSERT_FAILURES, [JSON.stringify(failures)]);
  });
}

/** The records with one per (source_zip, source_file): the last of each. */
function lastOfEachFile<T extends { source_zip: string; source_file: string }>(records: readonly T[]): T[] {
  return [...new Map(records.map((record) => [`${record.source_zip}\n${record.source_file}`, record])).values()];
}

/** A timestamptz column as an ISO date-time in UTC, whatever the session's time zone. */
function utcIso(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The company `c` as one json column `company`, and its whole history, newest first, as another,
 * `accounts` (json, not jsonb: built only to be sent). One json column instead of the table's 31
 * lets the driver parse the row once, natively, instead of field by field (a lookup's reads cost
 * the service about a third less).
 */
const COMPANY_WITH_HISTORY = `to_json(c) AS company, (
       SELECT json_agg(json_build_object(
         'balance_sheet_date', h.balance_sheet_date, 'period_start', h.period_start, 'published', h.published,
         'standard', h.standard, 'figures', h.figures, 'quality', h.quality, 'from_prior_period', h.from_prior_period,
         'source', json_build_object('zip', NULLIF(h.source_zip, ''), 'file', h.source_file))
         ORDER BY h.balance_sheet_date DESC)
       FROM accounts_history h WHERE h.company_number = c.company_number) AS accounts`;

/**
 * A lookup's reads in one statement: the company, its history and its PSCs. As three statements
 * (the other two run in parallel) the service spent more on sending, waking PostgreSQL and
 * building driver rows than on the answer.
 */
const COMPANY_WITH_PSCS = `SELECT ${COMPANY_WITH_HISTORY}, ${PSCS_OF_COMPANY}
FROM companies c WHERE c.company_number = $1::text`;

/** A row of `SELECT ${COMPANY_WITH_HISTORY} FROM companies c`. */
interface CompanyWithHistoryRow {
  company: CompanyRow;
  accounts: AccountsEntry[] | null;
  insolvency_cases?: InsolvencyCase[] | null;
}

function companyWithAccountsFromRow(row: CompanyWithHistoryRow): CompanyWithAccounts {
  const company = { company: companyFromRow(row.company), accounts: row.accounts ?? [] };
  return row.insolvency_cases === undefined ? company : { ...company, insolvency_cases: row.insolvency_cases ?? [] };
}

/** The company's insolvency cases from the stream (null: none published). */
const INSOLVENCY_CASES = `(SELECT i.cases FROM company_insolvency i WHERE i.company_number = c.company_number)
  AS insolvency_cases`;

/**
 * Companies with their whole history aggregated: one round trip. With `insolvency`, their
 * insolvency cases too (what alerts and watch snapshots compare; lookups do not read them).
 */
async function selectCompanies(
  sql: Sql,
  where: string,
  params: unknown[],
  insolvency = false,
): Promise<CompanyWithAccounts[]> {
  const result = await sql.query<CompanyWithHistoryRow>(
    `SELECT ${COMPANY_WITH_HISTORY}${insolvency ? `, ${INSOLVENCY_CASES}` : ''} FROM companies c WHERE ${where}`,
    params,
  );
  return result.rows.map(companyWithAccountsFromRow);
}

function companyFromRow(row: CompanyRow): CompanyWithAccounts['company'] {
  // The columns not shown are left out by destructuring, not `delete`: a deleted property turns
  // the object into a slow dictionary, which every later read and JSON.stringify paid for (a
  // batch of 100 companies mapped and serialised in 3 ms instead of 4; bench/lookup-batch).
  const {
    care_of,
    po_box,
    line_1,
    line_2,
    post_town,
    county,
    country,
    postcode,
    updated_at: _updated,
    // The follower's bookkeeping (which stream event the row holds), not the company's record.
    stream_published_at: _streamPublished,
    stream_timepoint: _streamTimepoint,
    ...company
  } = row as CompanyRow & { updated_at?: unknown; stream_published_at?: unknown; stream_timepoint?: unknown };
  return { ...company, address: { care_of, po_box, line_1, line_2, post_town, county, country, postcode } };
}

// The companies a register, accounts or PSC load, an officers change or a stored PDF estimate touched since a time, found through the
// updated_at and loaded_at indexes, in number order.
const CHANGED_COMPANIES = `SELECT company_number FROM companies WHERE updated_at > $1::timestamptz
  UNION SELECT company_number FROM filings WHERE loaded_at > $1::timestamptz
  UNION SELECT company_number FROM psc WHERE updated_at > $1::timestamptz
  UNION SELECT company_number FROM officers WHERE updated_at > $1::timestamptz
  UNION SELECT company_number FROM pdf_estimates WHERE updated_at > $1::timestamptz
  ORDER BY 1`;

/**
 * The changed company numbers, batchSize a batch. On PostgreSQL streamed through a cursor: after a
 * first full PSC load nearly every company has changed, and holding six million numbers (and first
 * their rows) cost the indexer a gigabyte. PGlite reads them at once (its data is small).
 * Alert detection (alert-detection-store.ts) reads the same changes.
 */
export async function* changedCompanyNumbers(
  sql: Sql,
  changedSince: string,
  batchSize: number,
): AsyncGenerator<string[]> {
  if (sql.scan) {
    // A fetch of batchSize rows is a batch: all of them but the last.
    for await (const rows of sql.scan<{ company_number: string }>(CHANGED_COMPANIES, batchSize, [changedSince]))
      yield rows.map((row) => row.company_number);
    return;
  }
  const changed = (await sql.query<{ company_number: string }>(CHANGED_COMPANIES, [changedSince])).rows.map(
    (row) => row.company_number,
  );
  for (let offset = 0; offset < changed.length; offset += batchSize) yield changed.slice(offset, offset + batchSize);
}

/**
 * What the indexer needs of a batch of companies: these numbers, or the batchSize companies after
 * a key. Three reads joined here: the companies; their history (cheaper joined here than
 * aggregated per company in SQL); their PSC records, summed up per company by one GROUP BY.
 */
/**
 * The index sources of the given companies, or of the next `batchSize` after a number (up to and
 * including `through` when given: a range of a shared full build, index-builds.ts).
 */
export async function indexSources(
  sql: Sql,
  which: { numbers: string[] } | { after: string; through?: string | null },
  batchSize: number,
): Promise<IndexSource[]> {
  const numbers = 'numbers' in which ? which.numbers : null;
  const companies = await sql.query<IndexedRegisterFacts>(
    `SELECT company_number, name, status, type, post_town, incorporated, sic_codes, accounts_next_due,
       accounts_last_made_up_to, charges_outstanding
     FROM companies
     WHERE ${numbers ? 'company_number = ANY($1::text[])' : 'company_number > $1 AND ($3::text IS NULL OR company_number <= $3)'}
     ORDER BY company_number LIMIT $2`,
    'numbers' in which ? [which.numbers, batchSize] : [which.after, batchSize, which.through ?? null],
  );
  if (companies.rows.length === 0) return [];
  const first = companies.rows[0]!.company_number;
  const last = companies.rows.at(-1)!.company_number;
  // A key range for the full scan; the numbers themselves when they are scattered changes.
  const history = await sql.query<AccountsPeriod & { company_number: string }>(
    `SELECT company_number, balance_sheet_date, period_start, published, figures FROM accounts_history
     WHERE ${numbers ? 'company_number = ANY($1::text[])' : 'company_number BETWEEN $1 AND $2'}
       AND NOT ${NO_FIGURES('figures')}
     ORDER BY company_number, balance_sheet_date DESC`,
    numbers ? [companies.rows.map((c) => c.company_number)] : [first, last],
  );
  const accountsOf = new Map<string, AccountsPeriod[]>();
  for (const { company_number, ...period } of history.rows) {
    const list = accountsOf.get(company_number);
    if (list) list.push(period);
    else accountsOf.set(company_number, [period]);
  }
  const pscs = await sql.query<PscSummary & { company_number: string }>(
    `SELECT company_number,
       count(*) FILTER (WHERE NOT ceased AND kind_class = ANY($1::text[]))::int AS controllers,
       coalesce(jsonb_agg(jsonb_build_object('country', country, 'overseas', overseas,
         'uk_registered', registered_company_number IS NOT NULL) ORDER BY psc_id)
         FILTER (WHERE NOT ceased AND kind_class = ANY($2::text[])), '[]') AS parents
     FROM psc
     WHERE ${numbers ? 'company_number = ANY($3::text[])' : 'company_number BETWEEN $3 AND $4'}
     GROUP BY company_number`,
    [
      CONTROLLER_KIND_CLASSES,
      PARENT_KIND_CLASSES,
      ...(numbers ? [companies.rows.map((c) => c.company_number)] : [first, last]),
    ],
  );
  const pscsOf = new Map(pscs.rows.map(({ company_number, ...summary }) => [company_number, summary]));
  const identity = await identityOverdueFrom(
    sql,
    companies.rows.map((c) => c.company_number),
  );
  // The estimates read from scanned PDFs, newest read first (searchDocuments merges them in).
  const estimates = await sql.query<AccountsPeriod & { company_number: string }>(
    `SELECT company_number, to_char(balance_sheet_date, 'YYYY-MM-DD') AS balance_sheet_date,
       to_char(period_start, 'YYYY-MM-DD') AS period_start, NULL AS published, current AS figures
     FROM pdf_estimates
     WHERE ${numbers ? 'company_number = ANY($1::text[])' : 'company_number BETWEEN $1 AND $2'}
     ORDER BY company_number, read_at DESC, document_id`,
    numbers ? [companies.rows.map((c) => c.company_number)] : [first, last],
  );
  const estimatesOf = new Map<string, AccountsPeriod[]>();
  for (const { company_number, ...period } of estimates.rows) {
    const figures = Object.fromEntries(FIGURE_KEYS.map((key) => [key, period.figures[key] ?? null])) as FigureSet;
    const list = estimatesOf.get(company_number);
    if (list) list.push({ ...period, figures });
    else estimatesOf.set(company_number, [{ ...period, figures }]);
  }
  return companies.rows.map((company) => {
    const held = estimatesOf.get(company.company_number);
    return {
      company,
      accounts: accountsOf.get(company.company_number) ?? [],
      pscs: pscsOf.get(company.company_number) ?? null,
      identity_overdue_from: identity.get(company.company_number) ?? null,
      ...(held ? { estimates: held } : {}),
    };
  });
}

/**
 * Each company's identity_overdue_from (earliestOverdueFrom), from the verification blocks of its
 * current officers (the stored block) and current PSCs (the block as filed in `data`, under either
 * name). Only records that carry a due date are read; the rule itself is the domain's.
 */
async function identityOverdueFrom(sql: Sql, numbers: readonly string[]): Promise<Map<string, string>> {
  const blocks = await sql.query<{ company_number: string; blocks: Record<string, unknown>[] }>(
    `SELECT company_number, jsonb_agg(block) AS blocks FROM (
       SELECT company_number, jsonb_build_object('identity_verification_details', identity_verification) AS block
       FROM officers
       WHERE company_number = ANY($1::text[]) AND NOT deleted AND resigned_on IS NULL
         AND identity_verification ? 'appointment_verification_statement_due_on'
       UNION ALL
       SELECT company_number,
         jsonb_build_object('identity_verification_details',
           coalesce(data -> 'identity_verification_details', data -> 'verification_details'))
       FROM psc
       WHERE company_number = ANY($1::text[]) AND NOT ceased
         AND (data -> 'identity_verification_details' ? 'appointment_verification_statement_due_on'
           OR data -> 'verification_details' ? 'appointment_verification_statement_due_on')
     ) b GROUP BY company_number`,
    [numbers],
  );
  const found = new Map<string, string>();
  for (const row of blocks.rows) {
    const from = earliestOverdueFrom(row.blocks.map(readIdentityVerification));
    if (from !== null) found.set(row.company_number, from);
  }
  return found;
}
