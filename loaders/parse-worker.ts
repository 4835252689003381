/**
 * A worker thread that parses filings: receives { id, name, bytes }, answers { id, result }.
 */
import { parentPort } from 'node:worker_threads';
import { parseFiling } from '../src/accounts/parse-filing.ts';

if (!parentPort) throw new Error('parse-worker must run as a worker thread');
const port = parentPort;
port.on('message', (message: { id: number; name: string; bytes: Uint8Array }) => {
  port.postMessage({ id: message.id, result: parseFiling(message.bytes, message.name) });
});
