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
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import type { RegisterCompany } from '../src/domain/company.ts';
import type { CompanyWriter } from '../src/ports/companies.ts';
import type { LoadJournal } from '../src/ports/load-journal.ts';
import { detectAlerts } from '../src/alert-detection/detect-alerts.ts';
import type { AlertDetectionDeps, AlertDetectionSummary } from '../src/alert-detection/detect-alerts.ts';
import { formatDuration, startProgress } from '../src/progress/progress.ts';
import { reportProgressToJournal } from './journal-progress.ts';
import { readRegisterHeader } from './parse-register-row.ts';
import { csvSources, describeRegisterInputs, openCsvSource, REGISTER_CSV_DIALECT } from './register-inputs.ts';
import { registerRowBatches } from './register-row-batches.ts';
import { writeBehind } from './write-behind.ts';

export interface RegisterLoadOptions {
  /** Overrides the date from the file names. */
  snapshotDate?: string;
  /** Treat the inputs as the complete register (or not) whatever their names say. */
  complete?: boolean;
  /** Where to write the report of rejected rows. */
  reportDir: string;
  batchSize?: number;
  log?: (line: string) => void;
  /** How often the counts so far are written to the load journal (default 5 s). */
  progressIntervalMs?: number;
  /** Detect the alerts of what the load changed, and queue their webhooks, once it is done. */
  alerts?: AlertDetectionDeps;
}

export interface RegisterLoadSummary {
  snapshotDate: string;
  complete: boolean;
  rowsRead: number;
  rowsWritten: number;
  rejected: number;
  markedDissolved: number;
  rejectReport: string | null;
  seconds: number;
  /** What alert detection found, when the load was asked to run it. */
  alerts?: AlertDetectionSummary;
}

export class RegisterInputError extends Error {}

export async function loadRegister(
  store: CompanyWriter & LoadJournal,
  paths: readonly string[],
  options: RegisterLoadOptions,
): Promise<RegisterLoadSummary> {
  const summary = await loadRegisterFiles(store, paths, options);
  // After the load is recorded done: a detection that fails leaves the load loaded, and the next
  // run of detection looks at its changes again.
  if (!options.alerts) return summary;
  return { ...summary, alerts: await detectAlerts(options.alerts, options.log ? { log: options.log } : {}) };
}

async function loadRegisterFiles(
  store: CompanyWriter & LoadJournal,
  paths: readonly string[],
  options: RegisterLoadOptions,
): Promise<RegisterLoadSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
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
  const sources = (await Promise.all(inputs.files.map(csvSources))).flat();

  // Check every header before writing anything: a wrong file must not half-load.
  const headers = [];
  for (const source of sources) {
    const header = await readFirstRecord(await openCsvSource(source));
    const check = readRegisterHeader(header ?? []);
    if (!check.ok) throw new RegisterInputError(`${source.label}: ${check.reason}`);
    headers.push(check.columns);
  }

  const journal = await store.startLoad('register', inputs.files.join(', '), { snapshotDate, complete });
  const progress = startProgress({ label: 'register', unit: 'rows' });
  const batchSize = options.batchSize ?? 5000;
  let rowsRead = 0;
  let rowsWritten = 0;
  let rejected = 0;
  let rejectReport: string | null = null;
  let rejects: ReturnType<typeof createWriteStream> | null = null;
  const journalProgress = reportProgressToJournal(
    store,
    journal,
    () => ({ rows_read: rowsRead, rows_written: rowsWritten, rows_rejected: rejected }),
    options.progressIntervalMs,
  );
  const reject = async (label: string, line: number, reason: string) => {
    rejected++;
    if (rejects === null) {
      await mkdir(options.reportDir, { recursive: true });
      rejectReport = join(options.reportDir, `register-${snapshotDate}-rejected.txt`);
      rejects = createWriteStream(rejectReport);
    }
    rejects.write(`${label} line ${line}: ${reason}\n`);
    if (rejected <= 5) log(`rejected ${label} line ${line}: ${reason}`);
  };

  const writes = writeBehind();
  const flush = (batch: RegisterCompany[]) =>
    writes.start(() =>
      store.upsertCompanies(batch, snapshotDate).then(() => {
        rowsWritten += batch.length;
      }),
    );

  try {
    const totalBytes = sources.reduce((sum, source) => sum + source.size, 0);
    let bytesDone = 0;
    let bytesRead = 0;
    for (const [i, source] of sources.entries()) {
      bytesDone += bytesRead;
      bytesRead = 0;
      for await (const batch of registerRowBatches(source, headers[i]!, batchSize)) {
        for (const { line, reason } of batch.rejects) await reject(source.label, line, reason);
        rowsRead += batch.rows;
        bytesRead = batch.bytes;
        await flush(batch.companies);
        progress.advance(batch.rows);
        // Rows to come, estimated from the bytes read so far: a CSV does not say how many it holds.
        progress.setExpected(Math.round((rowsRead * totalBytes) / Math.max(bytesDone + bytesRead, 1)));
      }
    }
    await writes.finish();
    const markedDissolved = complete ? await store.markRemovedFromRegister(snapshotDate) : 0;
    progress.stop();
    const counts = { rows_read: rowsRead, rows_written: rowsWritten, rows_rejected: rejected };
    await journalProgress.stop();
    await store.finishLoad(journal, 'done', counts, { markedDissolved });
    return {
      snapshotDate,
      complete,
      rowsRead,
      rowsWritten,
      rejected,
      markedDissolved,
      rejectReport,
      seconds: progress.elapsedSeconds,
    };
  } catch (error) {
    progress.stop();
    await writes.settle();
    await journalProgress.stop();
    await store.finishLoad(
      journal,
      'failed',
      { rows_read: rowsRead, rows_written: rowsWritten, rows_rejected: rejected },
      {
        error: error instanceof Error ? error.message : String(error),
      },
    );
    throw error;
  } finally {
    const report = rejects as ReturnType<typeof createWriteStream> | null;
    if (report) await new Promise<void>((done) => report.end(done));
  }
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
    `register snapshot ${summary.snapshotDate}${summary.complete ? ' (complete)' : ' (partial: no company marked dissolved)'}: ` +
    `${summary.rowsWritten} of ${summary.rowsRead} rows loaded in ${formatDuration(summary.seconds)}` +
    (summary.markedDissolved > 0 ? `, ${summary.markedDissolved} companies no longer listed marked dissolved` : '') +
    (summary.rejected > 0 ? `; ${summary.rejected} rows rejected, see ${summary.rejectReport}` : '')
  );
}
