/**
 * The companies of one register CSV in batches, read and parsed in a worker thread
 * (register-rows-worker.ts) while the caller writes the previous batches.
 */
import type { RegisterCompany } from '../src/domain/company.ts';
import type { ColumnIndex } from './parse-register-row.ts';
import type { RegisterRowsJob, RegisterRowsMessage } from './register-rows-worker.ts';
import type { CsvSource } from './register-inputs.ts';
import { startWorker } from './start-worker.ts';
import { workerBatches } from './worker-batches.ts';

export interface RegisterRowBatch {
  companies: RegisterCompany[];
  /** Rows that are not a company, with the line they end on and why. */
  rejects: { line: number; reason: string }[];
  /** Rows read for this batch (companies and rejects). */
  rows: number;
  /** Bytes of the CSV read so far. */
  bytes: number;
}

/** Enough batches ahead to keep the writer busy; each is a few megabytes. */
const BATCHES_AHEAD = 2;

export async function* registerRowBatches(
  source: CsvSource,
  columns: ColumnIndex,
  batchSize: number,
): AsyncGenerator<RegisterRowBatch> {
  const job: RegisterRowsJob = {
    file: source.file,
    member: source.member,
    columns: [...columns],
    batchSize,
    credits: BATCHES_AHEAD,
  };
  const worker = startWorker('register-rows-worker', job);
  yield* workerBatches<Extract<RegisterRowsMessage, { kind: 'batch' }>>(worker, source.label, 'the CSV reader');
}
