/**
 * Starts one of the loaders' worker threads. Running from TypeScript sources, a worker needs tsx
 * registered inside it first (worker-bootstrap.mjs); from a build it loads the plain .js file.
 */
import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';

/** `entry`: the worker's module beside this file, without extension ("parse-worker"). */
export function startWorker(entry: string, data?: unknown): Worker {
  const fromSources = extname(new URL(import.meta.url).pathname) === '.ts';
  if (!fromSources) return new Worker(new URL(`./${entry}.js`, import.meta.url), { workerData: { data } });
  return new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), {
    workerData: { entry: `./${entry}.ts`, data },
  });
}
