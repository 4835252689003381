/**
 * A worker thread that reads one register CSV (a file, or a member of a zip) and turns its rows
 * into companies, so that the loader's main thread only writes them: reading the CSV was more than
 * half the main thread's time. It sends batches as it fills them, and no more than the credits
 * the main thread has given it, so a slow database holds the reading back instead of filling the
 * memory.
 *
 *   workerData.data: RegisterRowsJob
 *   -> { kind: 'batch', companies, rejects, rows, bytes } ... { kind: 'end' } | { kind: 'error', message }
 *   <- { kind: 'credit' } after each batch is taken
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parse } from 'csv-parse';
import type { RegisterCompany } from '../src/domain/company.ts';
import { parseRegisterRow } from './parse-register-row.ts';
import { openCsvSource, REGISTER_CSV_DIALECT } from './register-inputs.ts';
import { CheckedLines } from './skeleton/checked-lines.ts';
import { creditedSender } from './skeleton/worker-batches.ts';

export interface RegisterRowsJob {
  file: string;
  /** The CSV's name inside the zip `file`; null when `file` is the CSV itself. */
  member: string | null;
  /** The header's columns, as readRegisterHeader indexed them. */
  columns: [string, number][];
  batchSize: number;
  /** Batches sent ahead of the main thread before waiting for a credit. */
  credits: number;
}

/** The companies of a batch of rows, with the rows that are not one (the line they end on, and why). */
export interface RegisterRowsBatch {
  kind: 'batch';
  companies: RegisterCompany[];
  rejects: { line: number; reason: string }[];
  /** Rows read for this batch (companies and rejects). */
  rows: number;
  /** Bytes of the CSV read so far. */
  bytes: number;
}

if (!parentPort) throw new Error('register-rows-worker must run as a worker thread');
const port = parentPort;
const job = (workerData as { data: RegisterRowsJob }).data;

const sender = creditedSender<RegisterRowsBatch>(port, job.credits);

/**
 * No register row comes near this long (the longest are about 2 KB): a longer line is a damaged
 * file, dropped and reported, so memory stays bounded whatever the file holds.
 */
const MAX_LINE_BYTES = 1024 * 1024;

const CUT =
  'the file ends part-way through this row (no line end after it): it was cut short; fetch the whole file and load it again';

try {
  const stream = await openCsvSource(job);
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const lines = new CheckedLines(MAX_LINE_BYTES);
  const parser = stream.pipe(lines).pipe(
    // A record of several lines is capped too (twice a line: csv-parse counts characters).
    parse({
      ...REGISTER_CSV_DIALECT,
      skip_empty_lines: true,
      info: true,
      from_line: 2,
      max_record_size: 2 * MAX_LINE_BYTES,
    }),
  );
  stream.on('error', (error) => parser.destroy(error));
  lines.on('error', (error) => parser.destroy(error));
  const columns = new Map(job.columns);
  const columnCount = Math.max(...columns.values()) + 1;
  let companies: RegisterCompany[] = [];
  let rejects: { line: number; reason: string }[] = [];
  let rows = 0;
  const flush = async () => {
    await sender.send({ kind: 'batch', companies, rejects, rows, bytes });
    companies = [];
    rejects = [];
    rows = 0;
  };
  const takeDropped = () => {
    for (const { line, reason } of lines.takeDropped()) {
      rows++;
      rejects.push({ line, reason });
    }
  };
  // Each record is taken once the next is read: the last one, when the file ends without a line
  // end after it, may be a row cut short.
  const take = (record: string[], line: number, last: boolean) => {
    rows++;
    if (last && !lines.endedWithLineEnd && record.length < columnCount) return void rejects.push({ line, reason: CUT });
    const result = parseRegisterRow(record, columns);
    if (result.ok) companies.push(result.company);
    else rejects.push({ line, reason: result.reason });
  };
  let pending: { record: string[]; line: number } | null = null;
  let failed = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      takeDropped();
      if (pending) take(pending.record, pending.line, false);
      pending = { record, line: info.lines };
      if (companies.length >= job.batchSize) await flush();
    }
  } catch (error) {
    // csv-parse cannot go on after an error (a quote never closed in a file cut short, a record
    // over the cap): the record is rejected with its line, and the rest of the part is not read.
    failed = true;
    if (pending) take(pending.record, pending.line, false);
    pending = null;
    const line = (error as { lines?: number }).lines;
    rows++;
    rejects.push({
      line: typeof line === 'number' ? line : 0,
      reason: `${error instanceof Error ? error.message : String(error)}; the rest of the file was not read (a damaged or cut file?)`,
    });
  }
  if (pending) take(pending.record, pending.line, !failed);
  takeDropped();
  if (rows > 0) await flush();
  sender.end();
} catch (error) {
  sender.fail(error);
}
