// Worker entry when running from TypeScript sources: registers tsx inside the worker thread
// (Node 20 does not apply --import from a worker's execArgv), then loads the worker named in
// workerData.entry (see start-worker.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(new URL(workerData.entry, import.meta.url).href);
