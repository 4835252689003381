/**
 * Decoding in a worker thread, both sides of its credit loop. The worker reads and decodes one
 * input part and sends its batches a few ahead, then one more for each credit this side returns
 * when a batch is taken, so memory stays bounded however fast the worker reads while this thread
 * writes the batches before (register-rows-worker.ts, psc-lines-worker.ts).
 *
 * This side (readInWorker) is an async generator of the batches. It ends with `end`, or `error`,
 * which is thrown here with the part's label; a worker that stops without either is an error too.
 * The worker's side (creditedSender) sends a batch once it holds a credit.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import { startWorker } from '../start-worker.ts';

type WorkerBatchMessage<Batch> = Batch | { kind: 'end' } | { kind: 'error'; message: string };

/** Enough batches ahead to keep the writer busy; each is a few megabytes. */
const BATCHES_AHEAD = 2;

export interface WorkerRead<Job> {
  /** The worker's module in loaders/, without extension ("register-rows-worker"). */
  worker: string;
  /** What the worker is told to read; it is given `credits` too. */
  job: Job;
  /** The part read, for the message of a failure ("file.zip!member.csv"). */
  label: string;
  /** What the worker is, for the message when it stops unasked ("the CSV reader"). */
  reader: string;
}

/** The batches of one part, decoded in a worker thread started for it and ended with it. */
export async function* readInWorker<Batch extends { kind: 'batch' }, Job extends object>(
  read: WorkerRead<Job>,
): AsyncGenerator<Batch> {
  const worker = startWorker(read.worker, { ...read.job, credits: BATCHES_AHEAD });
  yield* workerBatches<Batch>(worker, read.label, read.reader);
}

async function* workerBatches<Batch extends { kind: 'batch' }>(
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

export interface CreditedSender<Batch> {
  /** Sends the batch once a credit is held (waiting for the main thread to take one before). */
  send(batch: Batch): Promise<void>;
  /** The part is read whole. */
  end(): void;
  /** Reading failed: the main thread throws this, with the part's label. */
  fail(error: unknown): void;
}

/** The worker's side: `credits` batches may be sent before the first credit comes back. */
export function creditedSender<Batch>(port: MessagePort, credits: number): CreditedSender<Batch> {
  let waiting: (() => void) | null = null;
  port.on('message', (message: { kind: 'credit' }) => {
    if (message.kind !== 'credit') return;
    credits++;
    waiting?.();
    waiting = null;
  });
  return {
    async send(batch) {
      while (credits === 0) await new Promise<void>((resolve) => (waiting = resolve));
      credits--;
      port.postMessage(batch);
    },
    end: () => port.postMessage({ kind: 'end' }),
    fail: (error) =>
      port.postMessage({ kind: 'error', message: error instanceof Error ? error.message : String(error) }),
  };
}
