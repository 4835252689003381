/**
 * `ukcd load accounts PATH...`: daily and monthly accounts bulk zips, folders and single filings
 * into the store. Zip members are streamed (never extracted to disk), parsed on every core, and
 * written in batches; each filing's publication date comes from its bulk file's name.
 *
 * Idempotent: filings are keyed by (bulk file, member), and the history is rebuilt from them. A
 * bulk file whose load completed is skipped on the next run (unless forced); one whose load was
 * killed is loaded again in full, which ends in the same state as one clean run. Every filing that
 * cannot be read is recorded with its reason (table parse_failures and a report file) and makes
 * the exit status 1.
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseBulkFileName } from '../src/accounts/file-names.ts';
import type { ParseResult } from '../src/accounts/parse-filing.ts';
import { detectAlerts } from '../src/alert-detection/detect-alerts.ts';
import type { AlertDetectionDeps, AlertDetectionSummary } from '../src/alert-detection/detect-alerts.ts';
import { formatDuration, startProgress } from '../src/cli/progress.ts';
import type { CompanyStore, FilingRecord, ParseFailureRecord } from '../src/ports.ts';
import { filingSources, isNestedFilingZip } from './filing-sources.ts';
import type { SourceProblem } from './filing-sources.ts';
import { reportProgressToJournal } from './journal-progress.ts';
import { createParsePool } from './parse-pool.ts';
import type { ParsePool } from './parse-pool.ts';
import { writeBehind } from './write-behind.ts';

export interface AccountsLoadOptions {
  reportDir: string;
  /** Worker threads; default one per core. */
  workers?: number;
  /** Reload bulk files whose load already completed. */
  force?: boolean;
  /** Publication date for loose files and zips whose name does not give one. */
  published?: string;
  batchSize?: number;
  log?: (line: string) => void;
  /** For tests of resumability: stop (as if killed) after this many filings are written. */
  stopAfterFilings?: number;
  /** How often the counts so far are written to the load journal (default 5 s). */
  progressIntervalMs?: number;
  /** Detect the alerts of what the load changed, and queue their webhooks, once it is done. */
  alerts?: AlertDetectionDeps;
}

export interface AccountsLoadSummary {
  inputs: number;
  skipped: string[];
  filings: number;
  parsed: number;
  failed: number;
  failuresByCode: Record<string, number>;
  failureReport: string | null;
  seconds: number;
  /** What alert detection found, when the load was asked to run it. */
  alerts?: AlertDetectionSummary;
}

interface Unit {
  /** What the journal calls it: a bulk zip's base name, or the path of a loose file or folder. */
  source: string;
  path: string;
  sourceZip: string;
  published: string | null;
  size: number;
}

export async function loadAccounts(
  store: CompanyStore,
  paths: readonly string[],
  options: AccountsLoadOptions,
): Promise<AccountsLoadSummary> {
  const summary = await loadAccountsFiles(store, paths, options);
  // After the files are recorded loaded: a detection that fails leaves them loaded, and the next
  // run of detection looks at their changes again.
  if (!options.alerts) return summary;
  return { ...summary, alerts: await detectAlerts(options.alerts, options.log ? { log: options.log } : {}) };
}

async function loadAccountsFiles(
  store: CompanyStore,
  paths: readonly string[],
  options: AccountsLoadOptions,
): Promise<AccountsLoadSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const summary: AccountsLoadSummary = {
    inputs: 0,
    skipped: [],
    filings: 0,
    parsed: 0,
    failed: 0,
    failuresByCode: {},
    failureReport: null,
    seconds: 0,
  };
  const units = await planUnits(paths, options.published ?? null);
  const pool = createParsePool(options.workers);
  const progress = startProgress({ label: 'accounts', unit: 'filings' });
  let report: WriteStream | null = null;
  const recordFailure = async (failure: ParseFailureRecord) => {
    summary.failed++;
    summary.failuresByCode[failure.code] = (summary.failuresByCode[failure.code] ?? 0) + 1;
    if (report === null) {
      await mkdir(options.reportDir, { recursive: true });
      summary.failureReport = join(
        options.reportDir,
        `accounts-failures-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`,
      );
      report = createWriteStream(summary.failureReport);
    }
    report.write(`${JSON.stringify(failure)}\n`);
    if (summary.failed <= 5)
      log(
        `could not read ${failure.source_zip ? `${failure.source_zip}!` : ''}${failure.source_file}: ${failure.code}: ${failure.message}`,
      );
  };

  try {
    for (const unit of units) {
      summary.inputs++;
      if (!options.force && unit.sourceZip) {
        const done = await store.findCompletedLoad('accounts', unit.source);
        if (done && done.detail.size === unit.size) {
          summary.skipped.push(unit.source);
          log(`${unit.source}: already loaded (load ${done.id}); --force to load it again`);
          continue;
        }
      }
      await loadUnit(store, unit, pool, options, summary, progress, recordFailure);
    }
  } finally {
    progress.stop();
    await pool.close();
    const open = report as WriteStream | null;
    if (open) await new Promise<void>((done) => open.end(done));
  }
  summary.seconds = progress.elapsedSeconds;
  return summary;
}

async function loadUnit(
  store: CompanyStore,
  unit: Unit,
  pool: ParsePool,
  options: AccountsLoadOptions,
  summary: AccountsLoadSummary,
  progress: ReturnType<typeof startProgress>,
  recordFailure: (failure: ParseFailureRecord) => Promise<void>,
): Promise<void> {
  const journal = await store.startLoad('accounts', unit.source, { size: unit.size, published: unit.published });
  const batchSize = options.batchSize ?? 500;
  const counts = { rows_read: 0, rows_written: 0, rows_rejected: 0 };
  const journalProgress = reportProgressToJournal(store, journal, () => counts, options.progressIntervalMs);
  let filings: FilingRecord[] = [];
  let failures: ParseFailureRecord[] = [];
  const writes = writeBehind();
  const flush = () => {
    const [batchFilings, batchFailures] = [filings, failures];
    filings = [];
    failures = [];
    return writes.start(() =>
      store.saveFilings(batchFilings, batchFailures).then(() => {
        counts.rows_written += batchFilings.length;
      }),
    );
  };
  const reject = async (sourceFile: string, code: string, message: string) => {
    counts.rows_read++;
    counts.rows_rejected++;
    summary.filings++;
    const failure = { source_zip: unit.sourceZip, source_file: sourceFile, code, message };
    failures.push(failure);
    await recordFailure(failure);
  };
  const onProblem = (problem: SourceProblem) =>
    reject(problem.zip ? problem.file : basename(problem.file), problem.error.code, problem.error.message);
  const onResult = async (result: ParseResult, name: string) => {
    if (result.ok) {
      counts.rows_read++;
      summary.filings++;
      summary.parsed++;
      filings.push(toRecord(result.filing, unit));
    } else {
      await reject(name, result.failure.error.code, result.failure.error.message);
    }
    progress.advance();
    if (filings.length + failures.length >= batchSize) await flush();
  };

  // Keep every worker busy without reading the whole zip ahead of them.
  const inFlight = new Set<Promise<void>>();
  const limit = pool.size * 8;
  const problems: SourceProblem[] = [];
  try {
    const sources = filingSources([unit.path], {
      onProblem: (p) => problems.push(p),
      onExpected: (n) => progress.expect(n),
    });
    for await (const source of sources) {
      for (const problem of problems.splice(0)) await onProblem(problem);
      const task: Promise<void> = pool.parse(source.name, source.bytes).then((result) => onResult(result, source.name));
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      if (inFlight.size >= limit) await Promise.race(inFlight);
      if (options.stopAfterFilings !== undefined && counts.rows_written >= options.stopAfterFilings) {
        throw new Error(`stopped after ${counts.rows_written} filings, as asked`);
      }
    }
    await Promise.all(inFlight);
    for (const problem of problems.splice(0)) await onProblem(problem);
    await flush();
    await writes.finish();
    await journalProgress.stop();
    await store.finishLoad(journal, 'done', counts);
  } catch (error) {
    await Promise.allSettled(inFlight);
    await writes.settle();
    await journalProgress.stop();
    await store.finishLoad(journal, 'failed', counts, {
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

function toRecord(filing: Extract<ParseResult, { ok: true }>['filing'], unit: Unit): FilingRecord {
  return {
    company_number: filing.company_number,
    source_zip: unit.sourceZip,
    source_file: filing.file,
    published: unit.published,
    balance_sheet_date: filing.balance_sheet_date,
    period_start: filing.period_start,
    standard: filing.standard,
    entity_name: filing.entity_name,
    current: filing.current,
    prior_balance_sheet_date: filing.prior_balance_sheet_date,
    prior_period_start: filing.prior_period_start,
    prior: filing.prior,
    quality: filing.quality,
  };
}

/** One unit per bulk zip (so each is journalled and skipped on its own), one per other path. */
async function planUnits(paths: readonly string[], published: string | null): Promise<Unit[]> {
  const units: Unit[] = [];
  for (const path of paths) {
    let size = 0;
    let isDirectory = false;
    try {
      const info = await stat(path);
      size = info.size;
      isDirectory = info.isDirectory();
    } catch {
      // filingSources reports the missing path as a failure of its own.
    }
    if (isDirectory) {
      for (const entry of (await readdir(path)).sort())
        units.push(...(await planUnits([join(path, entry)], published)));
      continue;
    }
    const bulk = parseBulkFileName(path);
    // The same test filingSources reads the zip by: a nested filing zip is one loose filing.
    const isBulkZip = /\.zip$/i.test(path) && !isNestedFilingZip(basename(path));
    units.push({
      source: isBulkZip ? basename(path) : path,
      path,
      sourceZip: isBulkZip ? basename(path) : '',
      published: bulk?.published ?? published,
      size,
    });
  }
  return units;
}

export function describeAccountsSummary(summary: AccountsLoadSummary): string {
  const rate = summary.filings / Math.max(summary.seconds, 1e-3);
  const codes = Object.entries(summary.failuresByCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  return (
    `accounts: ${summary.parsed} of ${summary.filings} filings loaded from ${summary.inputs - summary.skipped.length} inputs ` +
    `in ${formatDuration(summary.seconds)} (${rate.toFixed(0)}/s)` +
    (summary.skipped.length > 0 ? `; ${summary.skipped.length} already loaded, skipped` : '') +
    (summary.failed > 0 ? `; ${summary.failed} could not be read (${codes}), see ${summary.failureReport}` : '')
  );
}
