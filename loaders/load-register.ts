/**
 * `ukcd load register PATH...|URL`: load a register snapshot (the single file or its parts, zipped
 * or not) into the store, streaming, in batches: a worker thread reads and parses the CSV while
 * this thread writes the batches before (register-row-batches.ts). A complete snapshot then marks
 * the companies it no longer lists as dissolved. Rejected rows are reported with their line and reason and make
 * the exit status 1; a file that is not a register CSV is refused before anything is written.
 *
 * Idempotent (upserts keyed by company number, an older snapshot never overwrites a newer one)
 * and resumable: a load killed half-way and run again ends as one clean run would, because
 * companies are only marked dissolved after every row is in.
 */
import { basename } from 'node:path';
import { parse } from 'csv-parse';
import type { AlertDetectionSummary } from '../src/alert-detection/detect-alerts.ts';
import { formatDuration } from '../src/progress/progress.ts';
import type { CompanyStore } from '../src/ports/companies.ts';
import { readRegisterHeader } from './parse-register-row.ts';
import type { ColumnIndex } from './parse-register-row.ts';
import { csvSources, describeRegisterInputs, openCsvSource, REGISTER_CSV_DIALECT } from './register-inputs.ts';
import type { CsvSource } from './register-inputs.ts';
import type { RegisterRowsBatch, RegisterRowsJob } from './register-rows-worker.ts';
import { afterLoad } from './skeleton/after-load.ts';
import type { AfterLoadStages } from './skeleton/after-load.ts';
import type { JournalWrites } from './skeleton/journal-entry.ts';
import { SnapshotInputError } from './skeleton/snapshot-inputs.ts';
import { runSnapshotLoad } from './skeleton/snapshot-load.ts';
import type { DecodedBatch, SnapshotSource } from './skeleton/snapshot-load.ts';
import { readInWorker } from './skeleton/worker-batches.ts';

/** The ports a register load uses; alert detection and the index update are optional stages. */
export interface RegisterLoadDeps {
  companies: Pick<CompanyStore, 'upsertCompanies' | 'markRemovedFromRegister' | 'countNotListed'>;
  journal: JournalWrites;
  /** Detect the alerts of what the load changed, and queue their webhooks, once it is done. */
  alerts?: AfterLoadStages<RegisterLoadSummary>['alerts'];
  /** Bring the search index up to date once it is done. */
  index?: AfterLoadStages<RegisterLoadSummary>['index'];
}

export interface RegisterLoadOptions {
  /** Overrides the date from the file names. */
  snapshotDate?: string;
  /** Treat the inputs as the complete register (or not) whatever their names say. */
  complete?: boolean;
  /** Companies a complete snapshot is expected to mark removed: allows more than 2% of those held (and only that many). */
  allowRemovals?: number;
  /** Where to write the report of rejected rows. */
  reportDir: string;
  batchSize?: number;
  log?: (line: string) => void;
  /** How often the counts so far are written to the load journal (default 5 s). */
  progressIntervalMs?: number;
  /** Told the summary once the load is done (and its alerts detected), before the index update. */
  onLoaded?: (summary: RegisterLoadSummary) => void;
}

export interface RegisterLoadSummary {
  snapshotDate: string;
  /** Read whole and checked: the companies it no longer lists were marked removed. */
  complete: boolean;
  /** Why the load was taken as partial, in words an operator acts on; null when complete. */
  partialBecause: string | null;
  /** The files named (or were told to be) the whole register: a refusal of that is an error. */
  namedComplete: boolean;
  rowsRead: number;
  rowsWritten: number;
  rejected: number;
  markedDissolved: number;
  rejectReport: string | null;
  seconds: number;
  /** The input files' names. */
  files: string[];
  /** What alert detection found, when the load was asked to run it. */
  alerts?: AlertDetectionSummary;
}

export class RegisterInputError extends SnapshotInputError {}

export async function loadRegister(
  deps: RegisterLoadDeps,
  paths: readonly string[],
  options: RegisterLoadOptions,
): Promise<RegisterLoadSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const source = await registerSource(deps, paths, options);
  const outcome = await runSnapshotLoad(source, deps, { ...options, log });
  const summary: RegisterLoadSummary = {
    snapshotDate: source.snapshotDate,
    complete: outcome.decision.complete,
    partialBecause: outcome.decision.partialBecause,
    namedComplete: outcome.claimedWhole,
    rowsRead: outcome.read,
    rowsWritten: outcome.written,
    rejected: outcome.rejected,
    markedDissolved: source.markedDissolved(),
    rejectReport: outcome.rejectReport,
    seconds: outcome.seconds,
    files: source.files.map((file) => basename(file)),
  };
  return afterLoad(summary, {
    ...deps,
    onLoaded: options.onLoaded,
    log: options.log,
    registerSnapshotDate: summary.snapshotDate,
  });
}

type RegisterBatch = RegisterRowsBatch & DecodedBatch;

/**
 * The register as a source of the snapshot skeleton: its CSV parts, each header checked before
 * anything is written, decoded in a worker thread; complete as the file names say (or as told),
 * and then the companies it no longer lists are marked dissolved.
 */
async function registerSource(
  deps: RegisterLoadDeps,
  paths: readonly string[],
  options: RegisterLoadOptions,
): Promise<SnapshotSource<RegisterBatch> & { markedDissolved(): number }> {
  const inputs = await describeRegisterInputs(paths);
  if (inputs.problems.length > 0) throw new RegisterInputError(inputs.problems.join('; '));
  if (inputs.files.length === 0) throw new RegisterInputError('no register files given');
  const snapshotDate = options.snapshotDate ?? inputs.snapshotDate;
  if (!snapshotDate) {
    throw new RegisterInputError(
      'the file names do not give the snapshot date (BasicCompanyData…-YYYY-MM-DD); pass --snapshot-date YYYY-MM-DD',
    );
  }
  const complete = options.complete ?? inputs.complete;
  const parts = (await Promise.all(inputs.files.map(csvSources))).flat();
  const headers = await checkedHeaders(parts);
  const batchSize = options.batchSize ?? 5000;
  let markedDissolved = 0;
  return {
    kind: 'register',
    unit: 'rows',
    snapshotDate,
    files: inputs.files,
    claimedWhole: complete,
    detail: { snapshotDate, complete },
    parts,
    lanes: 1,
    async *batches(part) {
      const job: Omit<RegisterRowsJob, 'credits'> = {
        file: part.file,
        member: part.member,
        columns: [...headers.get(part)!],
        batchSize,
      };
      const read = { worker: 'register-rows-worker', job, label: part.label, reader: 'the CSV reader' };
      for await (const batch of readInWorker<RegisterRowsBatch, typeof job>(read)) yield { ...batch, read: batch.rows };
    },
    writes: (batch) => [
      () => deps.companies.upsertCompanies(batch.companies, snapshotDate).then(() => batch.companies.length),
    ],
    decide: () => ({ complete, partialBecause: complete ? null : whyNotWhole(options.complete, inputs.missing) }),
    removals: async () => ({ ...(await deps.companies.countNotListed(snapshotDate)), what: 'companies' }),
    async conclude(decision) {
      markedDissolved = decision.complete ? await deps.companies.markRemovedFromRegister(snapshotDate) : 0;
      return { markedDissolved };
    },
    markedDissolved: () => markedDissolved,
  };
}

function whyNotWhole(forced: boolean | undefined, missing: string | null): string {
  if (forced === false) return 'loaded as partial (--partial)';
  return (
    missing ?? 'the file names do not name the whole register (BasicCompanyDataAsOneFile-… or every part …-partN_M)'
  );
}

/** Every part's header, checked before anything is written: a wrong file must not half-load. */
async function checkedHeaders(parts: readonly CsvSource[]): Promise<Map<CsvSource, ColumnIndex>> {
  const headers = new Map<CsvSource, ColumnIndex>();
  for (const part of parts) {
    const header = await readFirstRecord(await openCsvSource(part));
    const check = readRegisterHeader(header ?? []);
    if (!check.ok) throw new RegisterInputError(`${part.label}: ${check.reason}`);
    headers.set(part, check.columns);
  }
  return headers;
}

async function readFirstRecord(stream: NodeJS.ReadableStream): Promise<string[] | null> {
  const parser = stream.pipe(parse({ ...REGISTER_CSV_DIALECT, to_line: 1 }));
  try {
    for await (const record of parser as AsyncIterable<string[]>) return record;
    return null;
  } catch {
    return null;
  } finally {
    (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
}

export function describeRegisterSummary(summary: RegisterLoadSummary): string {
  return (
    `register snapshot ${summary.snapshotDate}` +
    (summary.complete ? ' (complete)' : ` (partial: ${summary.partialBecause}; no company marked removed)`) +
    `: ${summary.rowsWritten} of ${summary.rowsRead} rows loaded in ${formatDuration(summary.seconds)}` +
    (summary.markedDissolved > 0 ? `, ${summary.markedDissolved} companies no longer listed marked dissolved` : '') +
    (summary.rejected > 0 ? `; ${summary.rejected} rows rejected, see ${summary.rejectReport}` : '')
  );
}

/** Said when files named as the whole register were not taken as it: the load exits non-zero. */
export function describeRefusedAsComplete(summary: RegisterLoadSummary): string | null {
  if (summary.complete || !summary.namedComplete) return null;
  return (
    `${summary.files.join(', ')} ${summary.files.length === 1 ? 'is' : 'are'} named as the whole register but ` +
    `${summary.files.length === 1 ? 'was' : 'were'} not read whole: no company was marked removed (see above)`
  );
}
