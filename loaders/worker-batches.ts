/**
 * The batches a reading worker thread sends (register-rows-worker.ts, psc-lines-worker.ts), as an
 * async generator. The worker sends a few batches ahead and one more for each credit this side
 * returns when a batch is taken, so memory stays bounded however fast the worker reads. It ends
 * with `end`, or `error`, which is thrown here with the source's label; a worker that stops
 * without either is an error too.
 */
import type { Worker } from 'node:worker_threads';

export type WorkerBatchMessage<Batch> = Batch | { kind: 'end' } | { kind: 'error'; message: string };

/** `reader`: what the worker is, for the message when it stops unasked ("the CSV reader"). */
export async function* workerBatches<Batch extends { kind: 'batch' }>(
  worker: Worker,
  label: string,
  reader: string,
): AsyncGenerator<Batch> {
  const queue: WorkerBatchMessage<Batch>[] = [];
  let wake: (() => void) | null = null;
  const push = (message: WorkerBatchMessage<Batch>) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (error) => push({ kind: 'error', message: error.message }));
  worker.on('exit', (code) => push({ kind: 'error', message: `${reader} stopped (exit ${code})` }));
  try {
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (message.kind === 'end') return;
      if (message.kind === 'error') throw new Error(`${label}: ${(message as { message: string }).message}`);
      yield message as Batch;
      worker.postMessage({ kind: 'credit' });
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
