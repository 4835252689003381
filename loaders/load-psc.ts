/**
 * `ukcd load psc PATH...|URL`: load a snapshot of the persons-with-significant-control register
 * (the single file or its parts, zipped or not) into the store, streaming, in batches: a worker
 * thread reads, parses and serialises the lines (psc-line-batches.ts) while this thread writes the
 * batches before. A complete snapshot then marks the PSCs and statements it no longer lists as ceased
 * (kept, never deleted), and only when it was read whole: every part, its totals line equal to the
 * records read, no line rejected. Rejected lines are reported with their file, line number and
 * reason and make the exit status 1; a file that is not a PSC snapshot is refused before anything
 * is written.
 *
 * Idempotent (upserts keyed by company and PSC, an older snapshot never overwrites a newer one,
 * an unchanged record keeps its update time) and resumable: a load killed half-way and run again
 * ends as one clean run would, because nothing is marked ceased until every line is in.
 */
import type { AlertDetectionSummary } from '../src/alert-detection/detect-alerts.ts';
import { formatDuration } from '../src/progress/progress.ts';
import type { PscStore } from '../src/ports/ownership.ts';
import type { PscLinesBatch, PscLinesJob } from './psc-lines-worker.ts';
import type { PscSource } from './psc-inputs.ts';
import { describePscInputs, openPscSource, pscSources } from './psc-inputs.ts';
import { firstLine } from './psc-lines.ts';
import { sameTotals, whyPscLoadPartial } from './psc-totals.ts';
import type { PscReadCounts } from './psc-totals.ts';
import { afterLoad } from './skeleton/after-load.ts';
import type { AfterLoadStages } from './skeleton/after-load.ts';
import type { JournalWrites } from './skeleton/journal-entry.ts';
import { runSnapshotLoad } from './skeleton/snapshot-load.ts';
import type { DecodedBatch, SnapshotSource } from './skeleton/snapshot-load.ts';
import { readInWorker } from './skeleton/worker-batches.ts';

export interface PscLoadOptions {
  /** Overrides the date from the file names. */
  snapshotDate?: string;
  /** Treat the inputs as the complete snapshot (or not) whatever their names and contents say. */
  complete?: boolean;
  /** PSCs and statements a complete snapshot is expected to mark ceased: allows more than 2% of those held. */
  allowRemovals?: number;
  /** Where to write the report of rejected lines. */
  reportDir: string;
  batchSize?: number;
  /**
   * Connections writing at once (default 2): each batch is split by company number, so every
   * PSC is still written in file order, and PostgreSQL can use a second core.
   */
  writers?: number;
  log?: (line: string) => void;
  /** How often the counts so far are written to the load journal (default 5 s). */
  progressIntervalMs?: number;
  /** Told the summary once the load is done (and its alerts detected), before the index update. */
  onLoaded?: (summary: PscLoadSummary) => void;
}

export interface PscLoadSummary {
  snapshotDate: string;
  complete: boolean;
  /** Why the load was taken as partial (parts missing, lines rejected, totals not met, …); null when complete. */
  partialBecause: string | null;
  /**
   * The files were named as the whole snapshot (or --complete said so) but what was read says
   * otherwise: its rows are applied, nothing is marked ceased, and the command exits 1.
   */
  refusedAsWhole: boolean;
  /** Non-empty lines read: records, rejected lines and the closing totals line. */
  linesRead: number;
  /** PSCs (of every kind but statements) written. */
  pscsWritten: number;
  statementsWritten: number;
  rejected: number;
  /** PSCs and statements of earlier snapshots this complete one no longer lists, now ceased. */
  markedCeased: number;
  rejectReport: string | null;
  /** The snapshot's closing totals line as published, when one was read. */
  totals: Record<string, unknown> | null;
  seconds: number;
  /** What alert detection found, when the load was asked to run it. */
  alerts?: AlertDetectionSummary;
}

/** The ports a PSC load uses; alert detection and the index update are optional stages. */
export interface PscLoadDeps {
  pscs: PscStore;
  journal: JournalWrites;
  /** Detect the alerts of what the load changed, and queue their webhooks, once it is done. */
  alerts?: AfterLoadStages<PscLoadSummary>['alerts'];
  /** Bring the search index up to date once it is done. */
  index?: AfterLoadStages<PscLoadSummary>['index'];
}

/** The input is not a PSC snapshot (or its date or parts cannot be made out): nothing was written. */
export class PscInputError extends Error {}

export async function loadPsc(
  deps: PscLoadDeps,
  paths: readonly string[],
  options: PscLoadOptions,
): Promise<PscLoadSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const source = await pscSource(deps, paths, options);
  const outcome = await runSnapshotLoad(source, deps, { ...options, log });
  const summary: PscLoadSummary = {
    snapshotDate: source.snapshotDate,
    complete: outcome.decision.complete,
    partialBecause: outcome.decision.partialBecause,
    refusedAsWhole: outcome.refusedAsWhole,
    linesRead: outcome.read,
    pscsWritten: outcome.written - source.statementsWritten(),
    statementsWritten: source.statementsWritten(),
    rejected: outcome.rejected,
    markedCeased: source.markedCeased(),
    rejectReport: outcome.rejectReport,
    totals: source.totals(),
    seconds: outcome.seconds,
  };
  return afterLoad(summary, { ...deps, onLoaded: options.onLoaded, log: options.log });
}

type PscBatch = PscLinesBatch & DecodedBatch;

interface PscSnapshotSource extends SnapshotSource<PscBatch> {
  statementsWritten(): number;
  markedCeased(): number;
  totals(): Record<string, unknown> | null;
}

/**
 * The PSC snapshot as a source of the snapshot skeleton: its files, the start of each checked
 * before anything is written, decoded and serialised in a worker thread, each batch in lanes by
 * company number written on as many connections (default 2: every PSC is still written in file
 * order, and PostgreSQL can use a second core). Complete when its files name the whole of it, its
 * closing totals line counts exactly the records read across every part and no line was rejected
 * (psc-totals.ts); only then are the PSCs it no longer lists marked ceased.
 */
async function pscSource(
  deps: PscLoadDeps,
  paths: readonly string[],
  options: PscLoadOptions,
): Promise<PscSnapshotSource> {
  const inputs = await describePscInputs(paths);
  if (inputs.problems.length > 0) throw new PscInputError(inputs.problems.join('; '));
  if (inputs.files.length === 0) throw new PscInputError('no PSC snapshot files given');
  const snapshotDate = options.snapshotDate ?? inputs.snapshotDate;
  if (!snapshotDate) {
    throw new PscInputError(
      'the file names do not give the snapshot date (persons-with-significant-control-snapshot-YYYY-MM-DD or psc-snapshot-YYYY-MM-DD_NofM); pass --snapshot-date YYYY-MM-DD',
    );
  }
  const parts = await readableSources(inputs.files);
  // Check the start of every file before writing anything: a wrong file must not half-load.
  for (const part of parts) {
    const problem = snapshotStartProblem(await firstLine(await openPscSource(part)));
    if (problem) throw new PscInputError(`${part.label} is not a PSC snapshot: ${problem}`);
  }
  // Into an empty table nothing can be missing from the snapshot: no marking afterwards, which
  // reads the whole table (a minute or more at full size).
  const firstLoad = await deps.pscs.isEmpty();
  const lanes = Math.max(1, options.writers ?? 2);
  const batchSize = options.batchSize ?? 5000;
  // What was read, for the decision whether the snapshot was read whole (psc-totals.ts).
  const read: PscReadCounts = { records: 0, rejected: 0, totals: null, conflictingTotals: null };
  let statementsWritten = 0;
  let markedCeased = 0;
  return {
    kind: 'psc',
    unit: 'lines',
    snapshotDate,
    files: inputs.files,
    detail: { snapshotDate, complete: options.complete ?? inputs.complete },
    parts,
    lanes,
    async *batches(part) {
      const job: Omit<PscLinesJob, 'credits'> = {
        file: part.file,
        member: part.member,
        batchSize,
        lanes,
        format: deps.pscs.batchFormat,
      };
      const reading = { worker: 'psc-lines-worker', job, label: part.label, reader: 'the PSC file reader' };
      for await (const batch of readInWorker<PscLinesBatch, typeof job>(reading)) {
        if (batch.totals) {
          if (read.totals !== null && !sameTotals(read.totals, batch.totals)) read.conflictingTotals = batch.totals;
          read.totals = batch.totals;
        }
        for (const lane of batch.lanes) read.records += lane?.records ?? 0;
        read.rejected += batch.rejects.length;
        yield { ...batch, read: batch.lines };
      }
    },
    writes: (batch) =>
      batch.lanes.map((lane) =>
        lane === null
          ? null
          : () =>
              deps.pscs.upsertSerialisedPscs(lane.rows, snapshotDate).then(() => {
                statementsWritten += lane.statements;
                return lane.records;
              }),
      ),
    claimedWhole: options.complete ?? inputs.complete,
    decide() {
      const partialBecause = whyPscLoadPartial({ forced: options.complete, incomplete: inputs.incomplete, read });
      return { complete: partialBecause === null, partialBecause };
    },
    removals: async () => ({
      ...(firstLoad ? { count: 0, held: 0, lastListed: null } : await deps.pscs.countMissing(snapshotDate)),
      what: 'PSCs and statements',
    }),
    async conclude({ complete, partialBecause }) {
      markedCeased = complete && !firstLoad ? await deps.pscs.markMissingCeased(snapshotDate) : 0;
      return {
        complete,
        markedCeased,
        ...(partialBecause ? { partialBecause } : {}),
        recordsRead: read.records,
        ...(read.totals ? { totals: read.totals } : {}),
      };
    },
    statementsWritten: () => statementsWritten,
    markedCeased: () => markedCeased,
    totals: () => read.totals,
  };
}

async function readableSources(files: readonly string[]): Promise<PscSource[]> {
  const sources: PscSource[] = [];
  for (const file of files) {
    try {
      sources.push(...(await pscSources(file)));
    } catch (error) {
      throw new PscInputError(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return sources;
}

/**
 * Why the start of a file shows it is not a PSC snapshot, or null when it may be one: every line
 * of a snapshot is a JSON object with a `data` object (a record or the closing totals line). Only
 * the shape is checked here; a first record that is malformed in its details is the parser's to
 * reject, with its line number, like any other.
 */
export function snapshotStartProblem(line: { text: string; tooLong: boolean } | null): string | null {
  if (line === null) return 'it is empty';
  if (line.tooLong) return 'its first line is longer than any PSC record';
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch {
    return 'its first line is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'its first line is not a JSON object';
  const data = (value as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return 'its first line has no "data" object, as every line of a PSC snapshot has';
  }
  return null;
}

export function describePscSummary(summary: PscLoadSummary): string {
  const rate = summary.seconds > 0 ? Math.round(summary.linesRead / summary.seconds) : summary.linesRead;
  const n = (value: number) => value.toLocaleString('en-GB');
  return (
    `PSC snapshot ${summary.snapshotDate}` +
    (summary.complete ? ' (complete)' : ` (partial: ${summary.partialBecause}; nothing marked ceased)`) +
    `: ${n(summary.linesRead)} lines read, ${n(summary.pscsWritten)} PSCs and ${n(summary.statementsWritten)} statements written` +
    `, ${n(summary.rejected)} rejected` +
    (summary.complete ? `, ${n(summary.markedCeased)} no longer listed marked ceased` : '') +
    ` in ${formatDuration(summary.seconds)} (${n(rate)} lines/s)` +
    (summary.rejected > 0 ? `; rejected lines: ${summary.rejectReport}` : '') +
    (summary.refusedAsWhole
      ? '; named as the whole snapshot but not read whole: check the files against the totals line and load them again'
      : '')
  );
}
