/**
 * The records of one PSC snapshot file in batches, read and parsed in a worker thread
 * (psc-lines-worker.ts) while the caller writes the batches before.
 */
import type { PscLinesBatch, PscLinesJob } from './psc-lines-worker.ts';
import type { PscSource } from './psc-inputs.ts';
import { startWorker } from './start-worker.ts';
import { workerBatches } from './worker-batches.ts';

/** Enough batches ahead to keep the writer busy; each is a few megabytes. */
const BATCHES_AHEAD = 2;

export async function* pscLineBatches(
  source: PscSource,
  batchSize: number,
  lanes: number,
  format: PscLinesJob['format'],
): AsyncGenerator<PscLinesBatch> {
  const job: PscLinesJob = {
    file: source.file,
    member: source.member,
    batchSize,
    lanes,
    credits: BATCHES_AHEAD,
    format,
  };
  const worker = startWorker('psc-lines-worker', job);
  yield* workerBatches<PscLinesBatch>(worker, source.label, 'the PSC file reader');
}
