/**
 * The records of one PSC snapshot file in batches, read and parsed in a worker thread
 * (psc-lines-worker.ts) while the caller writes the batches before.
 */
import type { PscLinesBatch, PscLinesJob, PscLinesMessage } from './psc-lines-worker.ts';
import type { PscSource } from './psc-inputs.ts';
import { startWorker } from './start-worker.ts';

/** Enough batches ahead to keep the writer busy; each is a few megabytes. */
const BATCHES_AHEAD = 2;

export async function* pscLineBatches(
  source: PscSource,
  batchSize: number,
  lanes: number,
): AsyncGenerator<PscLinesBatch> {
  const job: PscLinesJob = { file: source.file, member: source.member, batchSize, lanes, credits: BATCHES_AHEAD };
  const worker = startWorker('psc-lines-worker', job);
  const queue: PscLinesMessage[] = [];
  let wake: (() => void) | null = null;
  const push = (message: PscLinesMessage) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (error) => push({ kind: 'error', message: error.message }));
  worker.on('exit', (code) => push({ kind: 'error', message: `the PSC file reader stopped (exit ${code})` }));
  try {
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (message.kind === 'end') return;
      if (message.kind === 'error') throw new Error(`${source.label}: ${message.message}`);
      yield message;
      worker.postMessage({ kind: 'credit' });
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
