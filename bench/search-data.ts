/**
 * bench/search-data: prepares the PostgreSQL database `ukcd_bench_search` for the search
 * benchmarks — the full-size synthetic register (about 5.6 million companies, the 2024-06-01
 * snapshot of bench/results/register-full, made with `ukcd generate register --companies 7000000
 * --seed 1`; 5790000 before the number sequences ran past 2024) and an accounts history for the
 * companies on it. Idempotent: each stage is skipped when the database already holds its result,
 * so a rerun finishes in seconds.
 *
 *   npm run bench:search-data            # or: npx tsx bench/search-data.ts [--years N]
 *
 * 1. Create the database and migrate it.
 * 2. Load the register zip through the real `ukcd load register --complete` (about 9 minutes).
 * 3. Accounts: the filings of every company on the snapshot that files accounts, with balance
 *    sheet dates in 2021–2024 and published on or before 2024-06-01 — its newest `--years` of
 *    them. They are made straight from the generator's model (`syntheticCompany`, `figureHistory`
 *    on the very schedule, figures and file names of `syntheticFilings`), without rendering and
 *    parsing iXBRL: that would take hours for millions of filings, and parse throughput is
 *    benchmarked on its own in bench/parse. They are saved through the store's `saveFilings`, as
 *    the accounts loader saves them, which also builds `accounts_history`.
 * 4. VACUUM ANALYZE, then print the counts and the database size.
 *
 * Years per company (`--years`, 1 to 3, default 3): measured before choosing, the store saved
 * 8,400 filings/s over the first 100,000 company indices (2 batches in flight on a pool of 3),
 * projecting about 28 minutes for the whole stage, inside its 30-minute budget, so no reduction was
 * needed. The full run took 30m41s (7,458 filings/s on average; it slows to about 5,000/s as the
 * tables grow). The mix: 65% of the companies on the snapshot have 3 filings, 24% have 2, 5% have
 * 1 and 6% none (incorporated too recently to have filed). A finished stage is skipped whatever
 * `--years` says; to rebuild it with other years, drop the database first.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dailyBulkFileName } from '../src/accounts/file-names.ts';
import { createCompanyStore } from '../src/adapters/postgres/company-store.ts';
import { migrate } from '../src/adapters/postgres/migrate.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { formatDuration, startProgress } from '../src/progress/progress.ts';
import type { CompanyWriter } from '../src/ports/companies.ts';
import type { LoadJournal } from '../src/ports/load-journal.ts';
import type { FilingRecord } from '../src/domain/filings.ts';
import type { Sql } from '../src/ports/sql.ts';
import { filesElectronically, syntheticCompany } from '../src/synthetic/companies.ts';
import { figureHistory } from '../src/synthetic/figure-history.ts';
import type { SyntheticCompany } from '../src/synthetic/companies.ts';
import { compactDate, dayNumber, fastDayNumber, fromDayNumber, yearOf } from '../src/synthetic/dates.ts';
import { accountsPublicationDay, runNumber } from '../src/synthetic/filings.ts';
import { firstPeriodIndexFrom, periodEnd } from '../src/synthetic/periods.ts';
import { labelSeed, Random } from '../src/synthetic/random.ts';
import { statusOnDay } from '../src/synthetic/register-life.ts';

const root = resolve(import.meta.dirname, '..');
const DATABASE = 'ukcd_bench_search';
const REGISTER_ZIP = join(root, 'bench/results/register-full/BasicCompanyDataAsOneFile-2024-06-01.zip');
/**
 * How that zip was generated: seed and company indices 0 to COMPANIES - 1 (5,790,000 for the zips
 * made before the number sequences ran past 2024; 7,000,000 gives a register of the same size now).
 */
const SEED = 1;
const COMPANIES = 7_000_000;
const SNAPSHOT = '2024-06-01';
const FROM_YEAR = 2021;
const TO_YEAR = 2024;
const ACCOUNTS_SOURCE = 'bench-synthetic-accounts';
const BATCH = 2_000;
const IN_FLIGHT = 2;
/** The label `syntheticFiling` derives a company's figure stream from (not exported by filings.ts). */
const FIGURES = labelSeed('figures');

async function timed(stage: string, work: () => Promise<string>): Promise<void> {
  const started = Date.now();
  const outcome = await work();
  console.log(`${stage}: ${outcome} (${formatDuration((Date.now() - started) / 1000)})`);
}

/** Stage 1: the database, created when missing, with the schema migrated. */
async function openDatabase(serverUrl: string): Promise<string> {
  const admin = createPgSql({ connectionString: serverUrl, max: 1 });
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.exec(`CREATE DATABASE ${DATABASE}`);
  await admin.close();
  const url = serverUrl.replace(/\/[^/]*$/, `/${DATABASE}`);
  const sql = createPgSql({ connectionString: url, max: 1 });
  const applied = await migrate(sql);
  await sql.close();
  return `${exists.rowCount === 0 ? 'created' : 'exists'}, ${applied.length} migration(s) applied`;
}

/** Stage 2: the register snapshot through the real command, unless a complete load is recorded. */
async function loadRegister(sql: Sql, url: string): Promise<string> {
  const done = await sql.query(
    `SELECT 1 FROM load_journal WHERE kind = 'register' AND status = 'done' AND detail->>'snapshotDate' = $1`,
    [SNAPSHOT],
  );
  if (done.rowCount > 0) return 'already loaded';
  const run = spawnSync(
    process.execPath,
    // --no-index: the search benchmarks build the index they measure themselves.
    [join(root, 'bin/ukcd.mjs'), 'load', 'register', REGISTER_ZIP, '--complete', '--no-index'],
    {
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: join(root, 'bench/results/data') },
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) throw new Error(`ukcd load register exited with ${run.status ?? run.signal}`);
  return 'loaded';
}

/**
 * Company numbers reused within the index range: the LLP number space (150,000 numbers) is smaller
 * than the LLP share of 5.79 million indices, so some OC numbers belong to two indices. The register
 * keeps the row of the higher index; walking indices downwards, the first one met is that one.
 */
const seenLlpNumbers = new Set<string>();

/** Whether company `index` is on the snapshot as its number's row. */
function onSnapshot(company: SyntheticCompany, day: number): boolean {
  if (day < fastDayNumber(company.incorporated) || statusOnDay(SEED, company, day).status === null) return false;
  if (company.register !== 'llp') return true;
  if (seenLlpNumbers.has(company.company_number)) return false;
  seenLlpNumbers.add(company.company_number);
  return true;
}

/** The company's newest `years` filings of FROM_YEAR–TO_YEAR published by `day`, as the loader would save them. */
function filingsOf(company: SyntheticCompany, day: number, years: number): FilingRecord[] {
  const first = firstPeriodIndexFrom(company, FROM_YEAR);
  const due: { period: number; published: number }[] = [];
  for (let period = first; yearOf(periodEnd(company, period)) <= TO_YEAR; period++) {
    if (!filesElectronically(company, periodEnd(company, period))) continue;
    const published = accountsPublicationDay(SEED, company, period);
    if (published <= day) due.push({ period, published });
  }
  const kept = due.slice(-years);
  if (kept.length === 0) return [];
  // The same figures `syntheticFilings({ seed, fromYear: FROM_YEAR, … })` would render.
  const history = figureHistory(
    company,
    kept.at(-1)!.period - first + 1,
    Random.derive(SEED, company.index, FIGURES),
    FROM_YEAR,
  );
  return kept.map(({ period, published }) => {
    const year = history[period - first]!;
    const date = fromDayNumber(published);
    return {
      company_number: company.company_number,
      source_zip: dailyBulkFileName(date),
      source_file: `Prod223_${runNumber(date)}_${company.company_number}_${compactDate(year.balanceSheetDate)}.html`,
      published: date,
      balance_sheet_date: year.balanceSheetDate,
      period_start: year.periodStart,
      standard: year.style === 'frs105' ? 'FRS 105' : year.style === 'frs102' ? 'FRS 102' : 'UK GAAP',
      entity_name: company.name,
      current: year.figures,
      prior_balance_sheet_date: year.priorFigures ? year.priorBalanceSheetDate : null,
      prior_period_start: year.priorFigures ? year.priorPeriodStart : null,
      prior: year.priorFigures,
      quality: [],
    };
  });
}

/** Stage 3: synthetic accounts for the snapshot's companies, unless a completed run is recorded. */
async function loadAccounts(sql: Sql, store: CompanyWriter & LoadJournal, years: number): Promise<string> {
  if (await store.findCompletedLoad('accounts', ACCOUNTS_SOURCE)) return 'already loaded';
  // A run that did not finish starts again from scratch, so that the result never depends on it.
  await sql.exec('TRUNCATE filings, accounts_history');
  const journal = await store.startLoad('accounts', ACCOUNTS_SOURCE, { seed: SEED, snapshot: SNAPSHOT, years });
  const day = dayNumber(SNAPSHOT);
  const progress = startProgress({ label: 'accounts', unit: 'companies', stream: process.stdout });
  progress.expect(COMPANIES);
  // Up to IN_FLIGHT batches are saved while the next is generated; the first failure stops the run.
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  const rethrow = () => {
    if (failure) throw failure.error;
  };
  let batch: FilingRecord[] = [];
  let filings = 0;
  let companies = 0;
  let filers = 0;
  const flush = async () => {
    while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    rethrow();
    const saving: Promise<void> = store
      .saveFilings(batch, [])
      .catch((error: unknown) => void (failure ??= { error }))
      .finally(() => inFlight.delete(saving));
    inFlight.add(saving);
    filings += batch.length;
    batch = [];
  };
  try {
    for (let index = COMPANIES - 1; index >= 0; index--) {
      const company = syntheticCompany(SEED, index);
      if (onSnapshot(company, day)) {
        companies++;
        const made = filingsOf(company, day, years);
        if (made.length > 0) filers++;
        batch.push(...made);
        if (batch.length >= BATCH) await flush();
      }
      progress.advance();
      // Let the pool's queries move on while the generator works.
      if (index % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (progress.done === 100_000) {
        console.log(
          `first 100,000 indices: ${filings} filings sent, ${(filings / progress.elapsedSeconds).toFixed(0)}/s`,
        );
      }
    }
    if (batch.length > 0) await flush();
    await Promise.all(inFlight);
    rethrow();
  } catch (error) {
    await Promise.allSettled(inFlight);
    await store.finishLoad(journal, 'failed', { rows_read: companies, rows_written: filings, rows_rejected: 0 });
    throw error;
  }
  progress.stop();
  await store.finishLoad(journal, 'done', { rows_read: companies, rows_written: filings, rows_rejected: 0 });
  const rate = (filings / progress.elapsedSeconds).toFixed(0);
  return `${filings} filings of ${filers} of the ${companies} companies on the snapshot, ${rate} filings/s`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { years: { type: 'string', default: '3' } } });
  const years = Number(values.years);
  if (!Number.isInteger(years) || years < 1 || years > 3) throw new Error('--years must be 1, 2 or 3');
  const server = spawnSync('bash', [join(root, 'scripts/postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  const url = server.replace(/\/[^/]*$/, `/${DATABASE}`);
  const started = Date.now();
  await timed('database', () => openDatabase(server));
  const sql = createPgSql({ connectionString: url, max: IN_FLIGHT + 1 });
  const store = createCompanyStore(sql);
  try {
    await timed('register', () => loadRegister(sql, url));
    await timed('accounts', () => loadAccounts(sql, store, years));
    await timed('vacuum analyze', async () => {
      await sql.exec('VACUUM ANALYZE');
      return 'done';
    });
    const size = await sql.query<{ size: string }>(
      'SELECT pg_size_pretty(pg_database_size(current_database())) AS size',
    );
    console.log(`counts: ${JSON.stringify(await store.counts())}; database ${size.rows[0]!.size}`);
    console.log(`total ${formatDuration((Date.now() - started) / 1000)}; DATABASE_URL=${url}`);
  } finally {
    await sql.close();
  }
}

await main();
