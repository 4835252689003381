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
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseBulkFileName } from '../src/accounts/file-names.ts';
import type { ParseResult } from '../src/accounts/parse-filing.ts';
import { detectAlerts } from '../src/alert-detection/detect-alerts.ts';
import type { AlertDetectionDeps, AlertDetectionSummary } from '../src/alert-detection/detect-alerts.ts';
import { formatDuration, startProgress } from '../src/cli/progress.ts';
import type { CompanyStore, FilingRecord, ParseFailureRecord } from '../src/ports.ts';
import type { Lease, LoadClaims, LoadFile } from '../src/shared-work/ports.ts';
import { holdLease, isDeadHere, LeaseLostError, renewalIntervalMs } from './hold-lease.ts';
import { filingSources, isNestedFilingZip } from './filing-sources.ts';
import type { RepeatedMember, SourceProblem } from './filing-sources.ts';
import { reportProgressToJournal } from './skeleton/journal-progress.ts';
import { isUrl } from './download.ts';
import { createParsePool } from './parse-pool.ts';
import type { ParsePool } from './parse-pool.ts';
import { writeBehind } from './skeleton/write-behind.ts';

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

const logToStderr = (line: string) => process.stderr.write(`${line}\n`);

async function loadAccountsFiles(
  store: CompanyStore,
  paths: readonly string[],
  options: AccountsLoadOptions,
): Promise<AccountsLoadSummary> {
  const log = options.log ?? logToStderr;
  const summary: AccountsLoadSummary = {
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
        // The pid too: processes sharing DATA_DIR may start a report in the same millisecond.
        `accounts-failures-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.jsonl`,
      );
      report = createWriteStream(summary.failureReport);
    }
    report.write(`${JSON.stringify(failure)}\n`);
    if (summary.failed <= 5)
      log(
        `could not read ${failure.source_zip ? `${failure.source_zip}!` : ''}${failure.source_file}: ${failure.code}: ${failure.message}`,
      );
  };

  const runStartedAt = options.shared ? await store.now() : null;
  try {
    const todo: Unit[] = [];
    for (const unit of units) {
      summary.inputs++;
      if (!options.force && unit.sourceZip) {
        const done = await store.findCompletedLoad('accounts', unit.source);
        if (done && (unit.size === null || done.detail.size === unit.size)) {
          summary.skipped.push(unit.source);
          log(`${unit.source}: already loaded (load ${done.id}); --force to load it again`);
          continue;
        }
      }
      if (options.shared) todo.push(unit);
      else await loadUnit(store, unit, pool, options, summary, progress, recordFailure);
    }
    if (options.shared) {
      const load = (unit: Unit, lease: { lost(): boolean }, takenOverFrom: string | null) =>
        loadUnit(store, unit, pool, options, summary, progress, recordFailure, {
          lost: lease.lost,
          detail: {
            holder: options.shared!.lease.holder,
            ...(takenOverFrom ? { taken_over_from: takenOverFrom } : {}),
          },
        });
      await loadClaimedUnits(store, todo, options.shared, runStartedAt!, options.force === true, summary, log, load);
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

/**
 * The shared loop: claim the next file, load it under its lease, release it; when every file left
 * is held by others, wait (a third of the lease) for them to finish or for a lease to run out.
 */
async function loadClaimedUnits(
  store: CompanyStore,
  todo: readonly Unit[],
  shared: { claims: LoadClaims; lease: Lease },
  runStartedAt: string,
  force: boolean,
  summary: AccountsLoadSummary,
  log: (line: string) => void,
  load: (unit: Unit, lease: { lost(): boolean }, takenOverFrom: string | null) => Promise<void>,
): Promise<void> {
  const { claims, lease } = shared;
  const bySource = new Map(todo.map((unit) => [unit.source, unit]));
  // A bulk zip loaded before counts as done (unless forced); a loose file, as in a single
  // process, is loaded again by each run: only a load of it in this run counts.
  // Largest first: a file is one process's work, so a big monthly archive claimed last would keep
  // the run going on one process while the others wait. (URLs, of unknown size, keep their order.)
  const files: LoadFile[] = [...todo]
    .sort((a, b) => (b.size ?? -1) - (a.size ?? -1))
    .map((unit) => ({
      source: unit.source,
      size: unit.sourceZip ? unit.size : null,
      doneSince: unit.sourceZip && !force ? null : runStartedAt,
    }));
  await claims.register('accounts', [...bySource.keys()]);
  const loadedHere = new Set<string>();
  let waiting = false;
  for (;;) {
    const { claimed, heldElsewhere } = await claims.claimNext('accounts', files, lease);
    if (!claimed) {
      if (heldElsewhere === 0) break;
      // A process of this machine that is gone (killed, or stopped with Ctrl-C before a run
      // started again) is not waited for: its files are claimable at once.
      let expired = 0;
      for (const other of await claims.holders('accounts')) {
        if (!isDeadHere(other)) continue;
        expired += await claims.expire('accounts', other);
        log(`${other} no longer runs on this machine: its files are taken over without waiting for its lease`);
      }
      if (expired > 0) continue;
      if (!waiting)
        log(`waiting for ${heldElsewhere} file(s) other processes are loading (taken over if their lease runs out)`);
      waiting = true;
      // Often enough to end soon after the last file is done; one small query each time.
      await sleep(Math.min(renewalIntervalMs(lease.seconds), 1000));
      continue;
    }
    waiting = false;
    const unit = bySource.get(claimed.piece)!;
    if (claimed.takenOverFrom) {
      summary.takenOver.push(unit.source);
      log(
        `${unit.source}: taken over from ${claimed.takenOverFrom}, which stopped holding it; loading it again in full`,
      );
    }
    const held = holdLease(() => claims.renew('accounts', unit.source, lease), lease.seconds);
    try {
      await load(unit, held, claimed.takenOverFrom);
      loadedHere.add(unit.source);
    } catch (error) {
      if (!(error instanceof LeaseLostError)) throw error;
      log(`${unit.source}: ${error.message}`);
    } finally {
      await held.stop();
      await claims.release('accounts', unit.source, lease.holder);
    }
  }
  summary.loadedElsewhere = todo.length - loadedHere.size;
}

async function loadUnit(
  store: CompanyStore,
  unit: Unit,
  pool: ParsePool,
  options: AccountsLoadOptions,
  summary: AccountsLoadSummary,
  progress: ReturnType<typeof startProgress>,
  recordFailure: (failure: ParseFailureRecord) => Promise<void>,
  claim?: { lost(): boolean; detail: Record<string, unknown> },
): Promise<void> {
  const log = options.log ?? logToStderr;
  let path = unit.path;
  if (isUrl(path)) {
    if (!options.download) throw new Error(`${path}: a URL, and this load was given no way to download it`);
    path = await options.download(path);
  }
  const journal = await store.startLoad('accounts', unit.source, {
    size: unit.size ?? (await stat(path)).size,
    published: unit.published,
    ...claim?.detail,
  });
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
  // Reported as the zip is opened, before its first filing; said once per zip, and kept with the
  // file's journal entry.
  const repeats: RepeatedMember[] = [];
  const onRepeated = (repeat: RepeatedMember) => {
    const named = { ...repeat, zip: unit.source };
    repeats.push(named);
    summary.repeatedMembers.push(named);
    // The skipped copies are among the entries the progress was told to expect.
    progress.advance(repeat.copies - 1);
  };
  /** Says the zip's repeated names, once it is loaded (or stopped), and returns them for its journal entry. */
  const reportRepeats = () => {
    if (repeats.length === 0) return {};
    log(describeRepeats(repeats));
    return { repeated_members: Object.fromEntries(repeats.map((repeat) => [repeat.file, repeat.copies])) };
  };
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
    const sources = filingSources([path], {
      onProblem: (p) => problems.push(p),
      onRepeated,
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
      if (claim?.lost())
        throw new LeaseLostError(
          `another process took this file over (this process's lease ran out); stopped after ${counts.rows_written} filings`,
        );
    }
    await Promise.all(inFlight);
    for (const problem of problems.splice(0)) await onProblem(problem);
    await flush();
    await writes.finish();
    await journalProgress.stop();
    if (claim?.lost())
      throw new LeaseLostError("another process took this file over (this process's lease ran out) before it was done");
    await store.finishLoad(journal, 'done', counts, reportRepeats());
  } catch (error) {
    await Promise.allSettled(inFlight);
    await writes.settle();
    await journalProgress.stop();
    await store.finishLoad(journal, error instanceof LeaseLostError ? 'interrupted' : 'failed', counts, {
      ...reportRepeats(),
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
