// Worker entry when running from TypeScript sources: registers tsx inside the worker thread
// (Node 20 does not apply --import from a worker's execArgv), then loads the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
