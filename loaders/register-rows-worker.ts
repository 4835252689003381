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

try {
  const stream = await openCsvSource(job);
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const parser = stream.pipe(parse({ ...REGISTER_CSV_DIALECT, skip_empty_lines: true, info: true, from_line: 2 }));
  const columns = new Map(job.columns);
  let companies: RegisterCompany[] = [];
  let rejects: { line: number; reason: string }[] = [];
  let rows = 0;
  const flush = async () => {
    await sender.send({ kind: 'batch', companies, rejects, rows, bytes });
    companies = [];
    rejects = [];
    rows = 0;
  };
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    rows++;
    const result = parseRegisterRow(record, columns);
    if (result.ok) companies.push(result.company);
    else rejects.push({ line: info.lines, reason: result.reason });
    if (companies.length >= job.batchSize) await flush();
  }
  if (rows > 0) await flush();
  sender.end();
} catch (error) {
  sender.fail(error);
}
