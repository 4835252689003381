/**
 * A worker thread that reads one PSC snapshot file (a file, or the member of a zip), splits it
 * into lines and parses each (src/ownership/psc-line.ts), so that the loader's main thread only
 * writes the records. It sends batches as it fills them, and no more than the credits the main
 * thread has given it, so a slow database holds the reading back instead of filling the memory.
 *
 *   workerData.data: PscLinesJob
 *   -> { kind: 'batch', records, rejects, lines, bytes, totals } ... { kind: 'end' } | { kind: 'error', message }
 *   <- { kind: 'credit' } after each batch is taken
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PscRecord } from '../src/ownership/psc.ts';
import { parsePscLine } from '../src/ownership/psc-line.ts';
import { openPscSource } from './psc-inputs.ts';
import { numberedLines } from './psc-lines.ts';

export interface PscLinesJob {
  file: string;
  /** The JSON file's name inside the zip `file`; null when `file` is that file itself. */
  member: string | null;
  batchSize: number;
  /** Batches sent ahead of the main thread before waiting for a credit. */
  credits: number;
}

export interface PscLinesBatch {
  kind: 'batch';
  records: PscRecord[];
  /** Lines that are not a record, with their number and why. */
  rejects: { line: number; reason: string }[];
  /** Non-empty lines read for this batch: records, rejects and the closing totals line. */
  lines: number;
  /** Bytes of the file read so far. */
  bytes: number;
  /** The closing totals line's `data`, when this batch read it. */
  totals: Record<string, unknown> | null;
}

export type PscLinesMessage = PscLinesBatch | { kind: 'end' } | { kind: 'error'; message: string };

if (!parentPort) throw new Error('psc-lines-worker must run as a worker thread');
const port = parentPort;
const job = (workerData as { data: PscLinesJob }).data;

let credits = job.credits;
let waiting: (() => void) | null = null;
port.on('message', (message: { kind: 'credit' }) => {
  if (message.kind !== 'credit') return;
  credits++;
  waiting?.();
  waiting = null;
});

try {
  const stream = await openPscSource(job);
  let batch: PscLinesBatch = { kind: 'batch', records: [], rejects: [], lines: 0, bytes: 0, totals: null };
  const flush = async (bytes: number) => {
    while (credits === 0) await new Promise<void>((resolve) => (waiting = resolve));
    credits--;
    port.postMessage({ ...batch, bytes } satisfies PscLinesBatch);
    batch = { kind: 'batch', records: [], rejects: [], lines: 0, bytes: 0, totals: null };
  };
  let bytes = 0;
  for await (const line of numberedLines(stream)) {
    bytes = line.bytes;
    batch.lines++;
    if (line.tooLong) {
      batch.rejects.push({
        line: line.number,
        reason: 'the line is longer than any PSC record (not one record a line?)',
      });
      continue;
    }
    const parsed = parsePscLine(line.text);
    if (parsed.type === 'psc') batch.records.push(parsed.record);
    else if (parsed.type === 'rejected') batch.rejects.push({ line: line.number, reason: parsed.reason });
    else batch.totals = parsed.data;
    if (batch.records.length >= job.batchSize) await flush(bytes);
  }
  if (batch.lines > 0) await flush(bytes);
  port.postMessage({ kind: 'end' } satisfies PscLinesMessage);
} catch (error) {
  port.postMessage({
    kind: 'error',
    message: error instanceof Error ? error.message : String(error),
  } satisfies PscLinesMessage);
}
