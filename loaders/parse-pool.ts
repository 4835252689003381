/**
 * A pool of worker threads running the accounts parser, so a load uses every core. Filing bytes
 * are transferred, not copied, to the worker.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { ParseResult } from '../src/accounts/parse-filing.ts';
import { startWorker } from './start-worker.ts';

export interface ParsePool {
  parse(name: string, bytes: Buffer): Promise<ParseResult>;
  readonly size: number;
  close(): Promise<void>;
}

export function createParsePool(size = availableParallelism()): ParsePool {
  const pending = new Map<number, { resolve: (r: ParseResult) => void; reject: (e: Error) => void }>();
  const load = new Map<Worker, number>();
  let nextId = 0;

  const workers = Array.from({ length: size }, () => {
    const worker = startWorker('parse-worker');
    load.set(worker, 0);
    worker.on('message', (message: { id: number; result: ParseResult }) => {
      load.set(worker, load.get(worker)! - 1);
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      waiter?.resolve(message.result);
    });
    worker.on('error', (error) => {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    });
    return worker;
  });

  return {
    size,
    parse(name, bytes) {
      // The least busy worker takes the filing.
      let chosen = workers[0]!;
      for (const worker of workers) if (load.get(worker)! < load.get(chosen)!) chosen = worker;
      load.set(chosen, load.get(chosen)! + 1);
      const id = nextId++;
      // Copy into a buffer of our own when the bytes share memory (a slice of a larger buffer).
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Buffer.from(bytes);
      return new Promise<ParseResult>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        chosen.postMessage({ id, name, bytes: own }, [own.buffer as ArrayBuffer]);
      });
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
