/**
 * `ukcd load accounts PATH...`: daily and monthly accounts bulk zips, folders and single filings
 * into the store. Zip members are streamed (never extracted to disk), parsed on every core, and
 * written in batches; each filing's publication date comes from its bulk file's name.
 *
 * Idempotent: filings are keyed by (bulk file, member), and the history is rebuilt from them. A
 * bulk file whose load completed is skipped on the next run (unless forced); one whose load was
 * killed is loaded again in full, which ends in the same state as one clean run. Every filing that
 * cannot be read is recorded with its reason (table parse_failures and a report file) and makes
 * the exit status 1. A bulk zip that names a member twice (or more) is loaded with the last copy of
 * each such name, the earlier copies skipped unparsed; each name is reported (log, summary and the
 * file's journal entry, `repeated_members`), without failing the load.
 *
 * Shared (options.shared, which `ukcd load accounts` always uses): several processes, on one
 * machine or many, given the same files and the same store, split the files between them. Each
 * claims the next file nobody holds, loads it under a lease it renews, and waits at the end for the
 * files others hold; a file whose holder died is taken over when its lease runs out and loaded
 * again in full (the writes are idempotent per filing). docs/shared-loads.md.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseBulkFileName } from '../src/accounts/file-names.ts';
import type { ParseResult } from '../src/accounts/parse-filing.ts';
import type { AlertDetectionSummary } from '../src/alert-detection/detect-alerts.ts';
import { formatDuration, startProgress } from '../src/progress/progress.ts';
import type { CompanyStore } from '../src/ports/companies.ts';
import type { IndexCursor } from '../src/ports/index-cursor.ts';
import type { LoadJournal } from '../src/ports/load-journal.ts';
import type { FilingRecord, ParseFailureRecord } from '../src/domain/filings.ts';
import type { LoadCounts } from '../src/domain/loads.ts';
import type { Lease, LoadClaims, LoadFile } from '../src/ports/shared-work.ts';
import { holdLease, isDeadHere, LeaseLostError, renewalIntervalMs } from '../src/shared-work/hold-lease.ts';
import { filingSources, isNestedFilingZip } from './filing-sources.ts';
import type { RepeatedMember, SourceProblem } from './filing-sources.ts';
import { isUrl } from './download.ts';
import { createParsePool } from './parse-pool.ts';
import type { ParsePool } from './parse-pool.ts';
import { afterLoad } from './skeleton/after-load.ts';
import type { AfterLoadStages } from './skeleton/after-load.ts';
import { failureDetail, startJournalEntry } from './skeleton/journal-entry.ts';
import type { JournalWrites } from './skeleton/journal-entry.ts';
import { createRejectReport } from './skeleton/reject-report.ts';
import type { RejectReport } from './skeleton/reject-report.ts';
import { writeBehind } from './skeleton/write-behind.ts';

/** The ports an accounts load uses; alert detection and the index update are optional stages. */
export interface AccountsLoadDeps {
  filings: Pick<CompanyStore, 'saveFilings'>;
  /** The load journal, where a file loaded before is found, and the clock its times are on. */
  journal: JournalWrites & Pick<LoadJournal, 'findCompletedLoad'> & Pick<IndexCursor, 'now'>;
  /** Detect the alerts of what the load changed, and queue their webhooks, once it is done. */
  alerts?: AfterLoadStages<AccountsLoadSummary>['alerts'];
  /** Bring the search index up to date once it is done. */
  index?: AfterLoadStages<AccountsLoadSummary>['index'];
}

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
  /** Told the summary once the load is done (and its alerts detected), before the index update. */
  onLoaded?: (summary: AccountsLoadSummary) => void;
  /**
   * Fetches an input given as a URL (to a local file, returning its path) once this process has
   * claimed it: shared loads download only the files they load. Without it URLs are refused.
   */
  download?: (url: string) => Promise<string>;
  /** Split the files with other processes through these claims (see the header). */
  shared?: { claims: LoadClaims; lease: Lease };
}

export interface AccountsLoadSummary {
  inputs: number;
  skipped: string[];
  /** Shared loads: the inputs other processes loaded while this one ran. */
  loadedElsewhere: number;
  /** Shared loads: the inputs this process took over from one that stopped holding them (lease run out, or gone). */
  takenOver: string[];
  filings: number;
  parsed: number;
  failed: number;
  failuresByCode: Record<string, number>;
  failureReport: string | null;
  /** Names a bulk zip (`zip`: its base name) gives several members: the last copy of each was loaded. */
  repeatedMembers: RepeatedMember[];
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
  /** Bytes; null for a URL not yet downloaded. */
  size: number | null;
}

export async function loadAccounts(
  deps: AccountsLoadDeps,
  paths: readonly string[],
  options: AccountsLoadOptions,
): Promise<AccountsLoadSummary> {
  const summary = await loadAccountsFiles(deps, paths, options);
  return afterLoad(summary, { ...deps, onLoaded: options.onLoaded, log: options.log });
}

const logToStderr = (line: string) => process.stderr.write(`${line}\n`);

/** What the files of one run share: its ports and options, the parse workers, the counts and the report. */
interface AccountsRun {
  deps: AccountsLoadDeps;
  options: AccountsLoadOptions;
  log: (line: string) => void;
  pool: ParsePool;
  summary: AccountsLoadSummary;
  progress: ReturnType<typeof startProgress>;
  failures: RejectReport<ParseFailureRecord>;
}

/** This process's hold on a file of a shared load. */
interface Claim {
  lost(): boolean;
  /** Said in the file's journal entry: who holds it, and whom it was taken over from. */
  detail: Record<string, unknown>;
}

function emptySummary(): AccountsLoadSummary {
  return {
    inputs: 0,
    skipped: [],
    loadedElsewhere: 0,
    takenOver: [],
    filings: 0,
    parsed: 0,
    failed: 0,
    failuresByCode: {},
    failureReport: null,
    repeatedMembers: [],
    seconds: 0,
  };
}

async function loadAccountsFiles(
  deps: AccountsLoadDeps,
  paths: readonly string[],
  options: AccountsLoadOptions,
): Promise<AccountsLoadSummary> {
  const log = options.log ?? logToStderr;
  const summary = emptySummary();
  const units = await planUnits(paths, options.published ?? null);
  const run: AccountsRun = {
    deps,
    options,
    log,
    pool: createParsePool(options.workers),
    summary,
    progress: startProgress({ label: 'accounts', unit: 'filings' }),
    failures: failureReport(options.reportDir, log),
  };
  const runStartedAt = options.shared ? await deps.journal.now() : null;
  try {
    const todo: Unit[] = [];
    for (const unit of units) {
      summary.inputs++;
      if (await loadedBefore(run, unit)) continue;
      if (options.shared) todo.push(unit);
      else await loadUnit(run, unit);
    }
    if (options.shared) await loadClaimedUnits(run, options.shared, { todo, runStartedAt: runStartedAt! });
  } finally {
    run.progress.stop();
    await run.pool.close();
    await run.failures.close();
  }
  summary.failureReport = run.failures.path;
  summary.seconds = run.progress.elapsedSeconds;
  return summary;
}

/** The report of the filings that cannot be read: a JSON line each, the first few said in the log. */
function failureReport(reportDir: string, log: (line: string) => void): RejectReport<ParseFailureRecord> {
  return createRejectReport<ParseFailureRecord>({
    reportDir,
    // The pid too: processes sharing DATA_DIR may start a report in the same millisecond.
    fileName: () => `accounts-failures-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.jsonl`,
    line: (failure) => JSON.stringify(failure),
    announce: (failure) =>
      `could not read ${failure.source_zip ? `${failure.source_zip}!` : ''}${failure.source_file}: ${failure.code}: ${failure.message}`,
    log,
  });
}

/** A bulk zip whose load completed is skipped (unless forced), said in the log and the summary. */
async function loadedBefore(run: AccountsRun, unit: Unit): Promise<boolean> {
  if (run.options.force || !unit.sourceZip) return false;
  const done = await run.deps.journal.findCompletedLoad('accounts', unit.source);
  if (!done || (unit.size !== null && done.detail.size !== unit.size)) return false;
  run.summary.skipped.push(unit.source);
  run.log(`${unit.source}: already loaded (load ${done.id}); --force to load it again`);
  return true;
}

/**
 * The shared loop: claim the next file, load it under its lease, release it; when every file left
 * is held by others, wait (a third of the lease) for them to finish or for a lease to run out.
 */
async function loadClaimedUnits(
  run: AccountsRun,
  shared: { claims: LoadClaims; lease: Lease },
  work: { todo: readonly Unit[]; runStartedAt: string },
): Promise<void> {
  const { claims, lease } = shared;
  const { todo } = work;
  const bySource = new Map(todo.map((unit) => [unit.source, unit]));
  const files = claimableFiles(todo, work.runStartedAt, run.options.force === true);
  await claims.register('accounts', [...bySource.keys()]);
  const loadedHere = new Set<string>();
  let waiting = false;
  for (;;) {
    const { claimed, heldElsewhere } = await claims.claimNext('accounts', files, lease);
    if (!claimed) {
      if (heldElsewhere === 0) break;
      if (await expireTheDead(run, claims)) continue;
      if (!waiting)
        run.log(
          `waiting for ${heldElsewhere} file(s) other processes are loading (taken over if their lease runs out)`,
        );
      waiting = true;
      // Often enough to end soon after the last file is done; one small query each time.
      await sleep(Math.min(renewalIntervalMs(lease.seconds), 1000));
      continue;
    }
    waiting = false;
    const unit = bySource.get(claimed.piece)!;
    if (await loadClaimedUnit(run, shared, { unit, takenOverFrom: claimed.takenOverFrom })) loadedHere.add(unit.source);
  }
  run.summary.loadedElsewhere = todo.length - loadedHere.size;
}

/**
 * The files to claim. A bulk zip loaded before counts as done (unless forced); a loose file, as in
 * a single process, is loaded again by each run: only a load of it in this run counts.
 * Largest first: a file is one process's work, so a big monthly archive claimed last would keep
 * the run going on one process while the others wait. (URLs, of unknown size, keep their order.)
 */
function claimableFiles(todo: readonly Unit[], runStartedAt: string, force: boolean): LoadFile[] {
  return [...todo]
    .sort((a, b) => (b.size ?? -1) - (a.size ?? -1))
    .map((unit) => ({
      source: unit.source,
      size: unit.sourceZip ? unit.size : null,
      doneSince: unit.sourceZip && !force ? null : runStartedAt,
    }));
}

/**
 * A process of this machine that is gone (killed, or stopped with Ctrl-C before a run started
 * again) is not waited for: its files are claimable at once. True when some were freed.
 */
async function expireTheDead(run: AccountsRun, claims: LoadClaims): Promise<boolean> {
  let expired = 0;
  for (const other of await claims.holders('accounts')) {
    if (!isDeadHere(other)) continue;
    expired += await claims.expire('accounts', other);
    run.log(`${other} no longer runs on this machine: its files are taken over without waiting for its lease`);
  }
  return expired > 0;
}

/** Loads a claimed file under its lease, then releases it. False when the lease was lost on the way. */
async function loadClaimedUnit(
  run: AccountsRun,
  { claims, lease }: { claims: LoadClaims; lease: Lease },
  { unit, takenOverFrom }: { unit: Unit; takenOverFrom: string | null },
): Promise<boolean> {
  if (takenOverFrom) {
    run.summary.takenOver.push(unit.source);
    run.log(`${unit.source}: taken over from ${takenOverFrom}, which stopped holding it; loading it again in full`);
  }
  const held = holdLease(() => claims.renew('accounts', unit.source, lease), lease.seconds);
  try {
    await loadUnit(run, unit, {
      lost: held.lost,
      detail: { holder: lease.holder, ...(takenOverFrom ? { taken_over_from: takenOverFrom } : {}) },
    });
    return true;
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    run.log(`${unit.source}: ${error.message}`);
    return false;
  } finally {
    await held.stop();
    await claims.release('accounts', unit.source, lease.holder);
  }
}

/** One file (a bulk zip, a loose filing or a folder) loaded under its own journal entry. */
async function loadUnit(run: AccountsRun, unit: Unit, claim?: Claim): Promise<void> {
  const path = await localPath(run.options, unit);
  const load = new UnitLoad(run, unit);
  const journal = await startJournalEntry(run.deps.journal, {
    kind: 'accounts',
    source: unit.source,
    detail: { size: unit.size ?? (await stat(path)).size, published: unit.published, ...claim?.detail },
    counts: () => load.counts,
    progressIntervalMs: run.options.progressIntervalMs,
  });
  try {
    await load.read(path, claim);
    await journal.stopReporting();
    if (claim?.lost())
      throw new LeaseLostError("another process took this file over (this process's lease ran out) before it was done");
    await journal.finish('done', load.reportRepeats());
  } catch (error) {
    await load.settle();
    await journal.finish(
      error instanceof LeaseLostError ? 'interrupted' : 'failed',
      failureDetail(error, load.reportRepeats()),
    );
    throw error;
  }
}

/** The unit's path, downloaded first when it is a URL (a shared load downloads only what it claims). */
async function localPath(options: AccountsLoadOptions, unit: Unit): Promise<string> {
  if (!isUrl(unit.path)) return unit.path;
  if (!options.download) throw new Error(`${unit.path}: a URL, and this load was given no way to download it`);
  return options.download(unit.path);
}

/**
 * The load of one file under way: its counts, the filings and failures waiting for the next
 * batch, its writes (one behind the parsing), the parses in flight and the names its zip repeats.
 */
class UnitLoad {
  readonly counts: LoadCounts = { rows_read: 0, rows_written: 0, rows_rejected: 0 };
  private filings: FilingRecord[] = [];
  private failures: ParseFailureRecord[] = [];
  private readonly writes = writeBehind();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly repeats: RepeatedMember[] = [];

  constructor(
    private readonly run: AccountsRun,
    private readonly unit: Unit,
  ) {}

  /** Parses the file's filings on the pool, keeping every worker busy without reading the whole zip ahead. */
  async read(path: string, claim?: Claim): Promise<void> {
    const limit = this.run.pool.size * 8;
    const problems: SourceProblem[] = [];
    const sources = filingSources([path], {
      onProblem: (problem) => problems.push(problem),
      onRepeated: (repeat) => this.repeated(repeat),
      onExpected: (n) => this.run.progress.expect(n),
    });
    for await (const source of sources) {
      for (const problem of problems.splice(0)) await this.problem(problem);
      const task: Promise<void> = this.run.pool
        .parse(source.name, source.bytes)
        .then((result) => this.parsed(result, source.name));
      this.inFlight.add(task);
      void task.finally(() => this.inFlight.delete(task));
      if (this.inFlight.size >= limit) await Promise.race(this.inFlight);
      this.checkStillWanted(claim);
    }
    await Promise.all(this.inFlight);
    for (const problem of problems.splice(0)) await this.problem(problem);
    await this.flush();
    await this.writes.finish();
  }

  /** Stops the read when a test asks for it (as if killed) or another process took the file over. */
  private checkStillWanted(claim?: Claim): void {
    const { stopAfterFilings } = this.run.options;
    if (stopAfterFilings !== undefined && this.counts.rows_written >= stopAfterFilings) {
      throw new Error(`stopped after ${this.counts.rows_written} filings, as asked`);
    }
    if (claim?.lost())
      throw new LeaseLostError(
        `another process took this file over (this process's lease ran out); stopped after ${this.counts.rows_written} filings`,
      );
  }

  /** For a load that is failing: waits for the parses and the write under way, ignoring their failures. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.inFlight);
    await this.writes.settle();
  }

  private async parsed(result: ParseResult, name: string): Promise<void> {
    if (result.ok) {
      this.counts.rows_read++;
      this.run.summary.filings++;
      this.run.summary.parsed++;
      this.filings.push(toRecord(result.filing, this.unit));
    } else {
      await this.reject(name, result.failure.error.code, result.failure.error.message);
    }
    this.run.progress.advance();
    if (this.filings.length + this.failures.length >= (this.run.options.batchSize ?? 500)) await this.flush();
  }

  private problem(problem: SourceProblem): Promise<void> {
    return this.reject(problem.zip ? problem.file : basename(problem.file), problem.error.code, problem.error.message);
  }

  private async reject(sourceFile: string, code: string, message: string): Promise<void> {
    this.counts.rows_read++;
    this.counts.rows_rejected++;
    const { summary } = this.run;
    summary.filings++;
    summary.failed++;
    summary.failuresByCode[code] = (summary.failuresByCode[code] ?? 0) + 1;
    const failure = { source_zip: this.unit.sourceZip, source_file: sourceFile, code, message };
    this.failures.push(failure);
    await this.run.failures.reject(failure);
  }

  /** Reported as the zip is opened, before its first filing; said once per zip, and kept with its journal entry. */
  private repeated(repeat: RepeatedMember): void {
    const named = { ...repeat, zip: this.unit.source };
    this.repeats.push(named);
    this.run.summary.repeatedMembers.push(named);
    // The skipped copies are among the entries the progress was told to expect.
    this.run.progress.advance(repeat.copies - 1);
  }

  /** Says the zip's repeated names, once it is loaded (or stopped), and returns them for its journal entry. */
  reportRepeats(): Record<string, unknown> {
    if (this.repeats.length === 0) return {};
    this.run.log(describeRepeats(this.repeats));
    return { repeated_members: Object.fromEntries(this.repeats.map((repeat) => [repeat.file, repeat.copies])) };
  }

  private flush(): Promise<void> {
    const [filings, failures] = [this.filings, this.failures];
    this.filings = [];
    this.failures = [];
    return this.writes.start(() =>
      this.run.deps.filings.saveFilings(filings, failures).then(() => {
        this.counts.rows_written += filings.length;
      }),
    );
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
    if (isUrl(path)) {
      // Named as the downloaded file will be, so that the journal says the same either way.
      const name = basename(new URL(path).pathname);
      const isBulkZip = /\.zip$/i.test(name) && !isNestedFilingZip(name);
      units.push({
        source: isBulkZip ? name : path,
        path,
        sourceZip: isBulkZip ? name : '',
        published: parseBulkFileName(name)?.published ?? published,
        size: null,
      });
      continue;
    }
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
    `accounts: ${summary.parsed} of ${summary.filings} filings loaded from ${summary.inputs - summary.skipped.length - summary.loadedElsewhere} inputs ` +
    `in ${formatDuration(summary.seconds)} (${rate.toFixed(0)}/s)` +
    (summary.skipped.length > 0 ? `; ${summary.skipped.length} already loaded, skipped` : '') +
    (summary.loadedElsewhere > 0 ? `; ${summary.loadedElsewhere} loaded by other processes` : '') +
    (summary.takenOver.length > 0 ? `; ${summary.takenOver.length} taken over from a process that died` : '') +
    (summary.failed > 0 ? `; ${summary.failed} could not be read (${codes}), see ${summary.failureReport}` : '') +
    (summary.repeatedMembers.length > 0 ? `; ${describeRepeatedMembers(summary.repeatedMembers)}` : '')
  );
}

/** Names listed for one zip; the rest are counted (all are in its journal entry). */
const REPEATS_LISTED = 10;
/** Zips whose repeats the summary lists; beyond it, totals (each zip had its own log line). */
const REPEAT_ZIPS_LISTED = 3;

/** "2 members named more than once in Z.zip: A (2 copies), B (3 copies) (the last copy of each kept)". */
function describeRepeats(repeats: readonly RepeatedMember[]): string {
  const listed = repeats.slice(0, REPEATS_LISTED).map((repeat) => `${repeat.file} (${repeat.copies} copies)`);
  if (repeats.length > REPEATS_LISTED) listed.push(`${repeats.length - REPEATS_LISTED} more in the load journal`);
  return `${countOf(repeats.length, 'member')} named more than once in ${repeats[0]!.zip}: ${listed.join(', ')} (the last copy of each kept)`;
}

/** The repeated members of a whole load, per zip (or in total, past a few zips). */
export function describeRepeatedMembers(repeats: readonly RepeatedMember[]): string {
  const byZip = new Map<string, RepeatedMember[]>();
  for (const repeat of repeats) {
    const ofZip = byZip.get(repeat.zip);
    if (ofZip) ofZip.push(repeat);
    else byZip.set(repeat.zip, [repeat]);
  }
  if (byZip.size <= REPEAT_ZIPS_LISTED) return [...byZip.values()].map(describeRepeats).join('; ');
  return `${countOf(repeats.length, 'member')} named more than once in ${byZip.size} bulk zips (the last copy of each kept; listed in each zip's journal entry)`;
}

function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
