/**
 * A worker thread that reads one PSC snapshot file (a file, or the member of a zip), splits it
 * into lines, parses each (src/ownership/psc-line.ts) and serialises each batch as the store's
 * upsert reads it (serialisePscs), so that the loader's main thread only sends it: handing records
 * over as objects, and serialising them there, cost the main thread more than the writing did and
 * left the database idle between batches. It sends batches as it fills them, and no more than
 * the credits the main thread has given it, so a slow database holds the reading back instead of
 * filling the memory.
 *
 * Each batch comes in `lanes` parts, a record's part chosen by its company number, so that the
 * loader can write them on as many connections at once while every PSC's copies are still
 * written in file order, on one connection (and two writes never wait on each other's rows).
 *
 *   workerData.data: PscLinesJob
 *   -> { kind: 'batch', lanes: [{ rows, records, statements } | null, …], rejects, lines, bytes, totals } ...
 *      { kind: 'end' } | { kind: 'error', message }
 *   <- { kind: 'credit' } after each batch is taken
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serialisePscs } from '../src/ownership/psc-batch.ts';
import type { PscBatchFormat } from '../src/ownership/psc-batch.ts';
import type { PscRecord } from '../src/domain/psc.ts';
import { parsePscLine } from '../src/ownership/psc-line.ts';
import { openPscSource } from './psc-inputs.ts';
import { numberedLines } from './psc-lines.ts';
import { creditedSender } from './skeleton/worker-batches.ts';

export interface PscLinesJob {
  file: string;
  /** The JSON file's name inside the zip `file`; null when `file` is that file itself. */
  member: string | null;
  batchSize: number;
  /** Parts each batch is split into, by company number (1 or more). */
  lanes: number;
  /** Batches sent ahead of the main thread before waiting for a credit. */
  credits: number;
  /** The store's batchFormat. */
  format: PscBatchFormat;
}

/** One part of a batch: its records as serialisePscs serialises them, how many, how many statements. */
export interface PscLane {
  rows: string;
  records: number;
  statements: number;
}

export interface PscLinesBatch {
  kind: 'batch';
  /** The batch's records split by company number, `job.lanes` parts; null for a part with none. */
  lanes: (PscLane | null)[];
  /** Lines that are not a record, with their number and why. */
  rejects: { line: number; reason: string }[];
  /** Non-empty lines read for this batch: records, rejects and the closing totals line. */
  lines: number;
  /** Bytes of the file read so far. */
  bytes: number;
  /** The closing totals line's `data`, when this batch read it. */
  totals: Record<string, unknown> | null;
}

if (!parentPort) throw new Error('psc-lines-worker must run as a worker thread');
const port = parentPort;
const job = (workerData as { data: PscLinesJob }).data;

const sender = creditedSender<PscLinesBatch>(port, job.credits);

const TOO_LONG = 'the line is longer than any PSC record (not one record a line?)';

try {
  const stream = await openPscSource(job);
  let records: PscRecord[] = [];
  let rejects: PscLinesBatch['rejects'] = [];
  let lines = 0;
  let totals: PscLinesBatch['totals'] = null;
  const flush = async (bytes: number) => {
    // Serialised before waiting for a credit: the batch is ready the moment it is wanted.
    const batch: PscLinesBatch = {
      kind: 'batch',
      lanes: splitIntoLanes(records, job.lanes, job.format),
      rejects,
      lines,
      bytes,
      totals,
    };
    records = [];
    rejects = [];
    lines = 0;
    totals = null;
    await sender.send(batch);
  };
  let bytes = 0;
  for await (const line of numberedLines(stream)) {
    bytes = line.bytes;
    lines++;
    if (line.tooLong) {
      rejects.push({ line: line.number, reason: TOO_LONG });
      continue;
    }
    const parsed = parsePscLine(line.text);
    if (parsed.type === 'psc') records.push(parsed.record);
    else if (parsed.type === 'rejected') rejects.push({ line: line.number, reason: parsed.reason });
    else totals = parsed.data;
    if (records.length >= job.batchSize) await flush(bytes);
  }
  if (lines > 0) await flush(bytes);
  sender.end();
} catch (error) {
  sender.fail(error);
}

/** The records in `lanes` parts by the last character of the company number, serialised. */
function splitIntoLanes(records: readonly PscRecord[], lanes: number, format: PscBatchFormat): (PscLane | null)[] {
  const parts: PscRecord[][] = Array.from({ length: lanes }, () => []);
  for (const record of records) {
    const number = record.company_number;
    parts[number.charCodeAt(number.length - 1) % lanes]!.push(record);
  }
  return parts.map((part) => {
    if (part.length === 0) return null;
    let statements = 0;
    for (const record of part) if (record.kind_class === 'statement') statements++;
    return { rows: serialisePscs(part, format), records: part.length, statements };
  });
}
