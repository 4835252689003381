/**
 * `ukcd load psc PATH...|URL`: load a snapshot of the persons-with-significant-control register
 * (the single file or its parts, zipped or not) into the store, streaming, in batches: a worker
 * thread reads, parses and serialises the lines (psc-line-batches.ts) while this thread writes the
 * batches before. A complete snapshot then marks the PSCs and statements it no longer lists as ceased
 * (kept, never deleted). Rejected lines are reported with their file, line number and reason and
 * make the exit status 1; a file that is not a PSC snapshot is refused before anything is written.
 *
 * Idempotent (upserts keyed by company and PSC, an older snapshot never overwrites a newer one,
 * an unchanged record keeps its update time) and resumable: a load killed half-way and run again
 * ends as one clean run would, because nothing is marked ceased until every line is in.
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { formatDuration, startProgress } from '../src/cli/progress.ts';
import { detectAlerts } from '../src/alert-detection/detect-alerts.ts';
import type { AlertDetectionDeps, AlertDetectionSummary } from '../src/alert-detection/detect-alerts.ts';
import type { PscStore } from '../src/ownership/ports.ts';
import type { CompanyStore } from '../src/ports.ts';
import { reportProgressToJournal } from './skeleton/journal-progress.ts';
import type { PscLane, PscLinesBatch, PscLinesJob } from './psc-lines-worker.ts';
import { readInWorker } from './skeleton/worker-batches.ts';
import type { PscSource } from './psc-inputs.ts';
import { describePscInputs, openPscSource, pscSources } from './psc-inputs.ts';
import { firstLine } from './psc-lines.ts';
import { writeBehind } from './skeleton/write-behind.ts';

export interface PscLoadOptions {
  /** Overrides the date from the file names. */
  snapshotDate?: string;
  /** Treat the inputs as the complete snapshot (or not) whatever their names and contents say. */
  complete?: boolean;
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
  /** Detect the alerts of what the load changed, and queue their webhooks, once it is done. */
  alerts?: AlertDetectionDeps;
}

export interface PscLoadSummary {
  snapshotDate: string;
  complete: boolean;
  /** Why the load was taken as partial (parts missing, …); null when complete. */
  partialBecause: string | null;
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

export interface PscLoadStores {
  /** The load journal. */
  store: Pick<CompanyStore, 'startLoad' | 'finishLoad' | 'reportLoadProgress'>;
  pscs: PscStore;
}

/** The input is not a PSC snapshot (or its date or parts cannot be made out): nothing was written. */
export class PscInputError extends Error {}

export async function loadPsc(
  stores: PscLoadStores,
  paths: readonly string[],
  options: PscLoadOptions,
): Promise<PscLoadSummary> {
  const summary = await loadPscFiles(stores, paths, options);
  // After the load is recorded done: a detection that fails leaves the load loaded, and the next
  // run of detection looks at its changes again.
  if (!options.alerts) return summary;
  return { ...summary, alerts: await detectAlerts(options.alerts, options.log ? { log: options.log } : {}) };
}

async function loadPscFiles(
  { store, pscs }: PscLoadStores,
  paths: readonly string[],
  options: PscLoadOptions,
): Promise<PscLoadSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const inputs = await describePscInputs(paths);
  if (inputs.problems.length > 0) throw new PscInputError(inputs.problems.join('; '));
  if (inputs.files.length === 0) throw new PscInputError('no PSC snapshot files given');
  const snapshotDate = options.snapshotDate ?? inputs.snapshotDate;
  if (!snapshotDate) {
    throw new PscInputError(
      'the file names do not give the snapshot date (persons-with-significant-control-snapshot-YYYY-MM-DD or psc-snapshot-YYYY-MM-DD_NofM); pass --snapshot-date YYYY-MM-DD',
    );
  }
  const sources = await readableSources(inputs.files);
  // Check the start of every file before writing anything: a wrong file must not half-load.
  for (const source of sources) {
    const problem = snapshotStartProblem(await firstLine(await openPscSource(source)));
    if (problem) throw new PscInputError(`${source.label} is not a PSC snapshot: ${problem}`);
  }

  // Into an empty table nothing can be missing from the snapshot: no marking afterwards, which
  // reads the whole table (a minute or more at full size).
  const firstLoad = await pscs.isEmpty();
  const journal = await store.startLoad('psc', inputs.files.join(', '), {
    snapshotDate,
    complete: options.complete ?? inputs.complete,
  });
  const progress = startProgress({ label: 'psc', unit: 'lines' });
  const batchSize = options.batchSize ?? 5000;
  let linesRead = 0;
  let pscsWritten = 0;
  let statementsWritten = 0;
  let rejected = 0;
  let totals: Record<string, unknown> | null = null;
  let rejectReport: string | null = null;
  let rejects: WriteStream | null = null;
  const counts = () => ({
    rows_read: linesRead,
    rows_written: pscsWritten + statementsWritten,
    rows_rejected: rejected,
  });
  const journalProgress = reportProgressToJournal(store, journal, counts, options.progressIntervalMs);
  const reject = async (label: string, line: number, reason: string) => {
    rejected++;
    if (rejects === null) {
      await mkdir(options.reportDir, { recursive: true });
      rejectReport = join(options.reportDir, `psc-${snapshotDate}-rejected.txt`);
      rejects = createWriteStream(rejectReport);
    }
    rejects.write(`${label} line ${line}: ${reason}\n`);
    if (rejected <= 5) log(`rejected ${label} line ${line}: ${reason}`);
  };

  // One write behind per connection; lane i of every batch goes to writer i.
  const writers = Array.from({ length: Math.max(1, options.writers ?? 2) }, () => writeBehind());
  const flush = (lanes: readonly (PscLane | null)[]) =>
    Promise.all(
      lanes.map((lane, i) =>
        lane === null
          ? undefined
          : writers[i]!.start(() =>
              pscs.upsertSerialisedPscs(lane.rows, snapshotDate).then(() => {
                statementsWritten += lane.statements;
                pscsWritten += lane.records - lane.statements;
              }),
            ),
      ),
    );

  try {
    const totalBytes = sources.reduce((sum, source) => sum + source.size, 0);
    let bytesDone = 0;
    for (const source of sources) {
      let bytesRead = 0;
      const job: Omit<PscLinesJob, 'credits'> = {
        file: source.file,
        member: source.member,
        batchSize,
        lanes: writers.length,
        format: pscs.batchFormat,
      };
      const read = { worker: 'psc-lines-worker', job, label: source.label, reader: 'the PSC file reader' };
      for await (const batch of readInWorker<PscLinesBatch, typeof job>(read)) {
        for (const { line, reason } of batch.rejects) await reject(source.label, line, reason);
        if (batch.totals) totals = batch.totals;
        linesRead += batch.lines;
        bytesRead = batch.bytes;
        await flush(batch.lanes);
        progress.advance(batch.lines);
        // Lines to come, estimated from the bytes read so far: the file does not say how many it holds.
        progress.setExpected(Math.round((linesRead * totalBytes) / Math.max(bytesDone + bytesRead, 1)));
        // A turn of the event loop a batch: on PGlite a write and the batches queued behind it
        // resolve without one, which would keep the progress line and the journal's reports waiting.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      bytesDone += bytesRead;
    }
    await Promise.all(writers.map((writes) => writes.finish()));
    const partialBecause = whyPartial(options.complete, inputs.incomplete, totals);
    const complete = partialBecause === null;
    const markedCeased = complete && !firstLoad ? await pscs.markMissingCeased(snapshotDate) : 0;
    progress.stop();
    await journalProgress.stop();
    await store.finishLoad(journal, 'done', counts(), { complete, markedCeased, ...(totals ? { totals } : {}) });
    return {
      snapshotDate,
      complete,
      partialBecause,
      linesRead,
      pscsWritten,
      statementsWritten,
      rejected,
      markedCeased,
      rejectReport,
      totals,
      seconds: progress.elapsedSeconds,
    };
  } catch (error) {
    progress.stop();
    await Promise.all(writers.map((writes) => writes.settle()));
    await journalProgress.stop();
    await store.finishLoad(journal, 'failed', counts(), {
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    const report = rejects as WriteStream | null;
    if (report) await new Promise<void>((done) => report.end(done));
  }
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

/**
 * A snapshot counts as complete (and so marks what it no longer lists as ceased) when its files
 * name the whole of it and it ends in its closing totals line: without that line a file may have
 * been cut short, and taking it as complete would cease every PSC after the cut. `--complete` or
 * `--partial` decide instead.
 */
function whyPartial(
  forced: boolean | undefined,
  incomplete: string | null,
  totals: Record<string, unknown> | null,
): string | null {
  if (forced !== undefined) return forced ? null : 'loaded as partial (--partial)';
  if (incomplete) return incomplete;
  if (totals === null) return 'no closing totals line was read: the snapshot may be cut short';
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
    (summary.rejected > 0 ? `; rejected lines: ${summary.rejectReport}` : '')
  );
}
