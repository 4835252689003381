/**
 * Write a synthetic PSC snapshot as Companies House publishes it: one
 * `persons-with-significant-control-snapshot-YYYY-MM-DD.zip` holding
 * `persons-with-significant-control-snapshot-YYYY-MM-DD.txt`, or parts
 * `psc-snapshot-YYYY-MM-DD_1of7.zip` … `_7of7.zip`, each holding the `.txt` of the same name.
 * Newline-delimited JSON; the totals line ends the last file.
 *
 * Lines stream from the generator through deflate to disk in chunks, with back-pressure, and
 * each file is written under a temporary name and renamed when whole, as the register snapshot
 * is (register-files.ts, whose zip writer this uses).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { emptyCounts, pscRangeLines, pscSnapshotDay, pscSummaryLine } from './psc-snapshot.ts';
import type { IndexRange, PscSnapshotCounts, PscSnapshotOptions } from './psc-snapshot.ts';
import { writePartFile } from './register-files.ts';

export interface PscSnapshotFilesOptions extends PscSnapshotOptions {
  outDir: string;
  /** Split into this many part files (default 1: the single file). */
  parts?: number;
  /** Zip each file (default true), as Companies House publishes them; false writes the bare .txt. */
  zip?: boolean;
  /** Deflate level, 1 (fastest) to 9 (smallest); default 6. */
  compressionLevel?: number;
}

export interface PscSnapshotFiles {
  /** Paths written, in part order. */
  files: string[];
  /** Lines written, the totals line included. */
  lines: number;
  counts: PscSnapshotCounts;
  bytes: number;
}

/** The base name (without `.zip` or `.txt`) of the single file, or of part `part` of `parts`. */
export function pscSnapshotFileName(snapshotDate: string, part = 1, parts = 1): string {
  return parts === 1
    ? `persons-with-significant-control-snapshot-${snapshotDate}`
    : `psc-snapshot-${snapshotDate}_${part}of${parts}`;
}

const CHUNK_BYTES = 64 * 1024;
const LF = 10;
/** Room kept in a chunk for the next line; no PSC line comes near it. */
const LONGEST_LINE = 16 * 1024;
const READ_AHEAD_BYTES = 8 * 1024 * 1024;

/** `lines` as bytes, a line end after each, in chunks; lets the event loop run between chunks. */
async function* lineChunks(lines: Iterable<string>, counted: () => void): AsyncGenerator<Buffer> {
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES + LONGEST_LINE);
  let used = 0;
  for (const line of lines) {
    const written = chunk.write(line, used, 'utf8');
    if (written >= chunk.length - used - 1) throw new Error(`a PSC line is too long: ${line.slice(0, 80)}…`);
    used += written;
    chunk[used++] = LF;
    counted();
    if (used >= CHUNK_BYTES) {
      yield chunk.subarray(0, used);
      chunk = Buffer.allocUnsafe(CHUNK_BYTES + LONGEST_LINE);
      used = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (used > 0) yield chunk.subarray(0, used);
}

/** The lines of one part file: its companies' records, and the totals line when it is the last part. */
function* partLines(
  options: PscSnapshotOptions,
  part: IndexRange & { last: boolean },
  counts: PscSnapshotCounts,
): Generator<string> {
  yield* pscRangeLines(options, part, counts);
  if (part.last) yield pscSummaryLine(options.snapshotDate, counts);
}

/**
 * Write the PSC snapshot of companies 0 to `companies` - 1 on `snapshotDate` into `outDir`, named
 * as Companies House names it. Parts split the companies into equal runs of indices.
 */
export async function writePscSnapshot(options: PscSnapshotFilesOptions): Promise<PscSnapshotFiles> {
  const parts = options.parts ?? 1;
  if (!Number.isInteger(parts) || parts < 1 || parts > 99) throw new Error(`parts must be 1 to 99, got ${parts}`);
  const level = options.compressionLevel ?? 6;
  if (!Number.isInteger(level) || level < 1 || level > 9)
    throw new Error(`compressionLevel must be 1 to 9, got ${level}`);
  const zip = options.zip ?? true;
  const { companies, snapshotDate, outDir } = options;
  pscSnapshotDay(options);
  await mkdir(outDir, { recursive: true });
  const counts = emptyCounts();
  const result: PscSnapshotFiles = { files: [], lines: 0, counts, bytes: 0 };
  const counted = () => result.lines++;
  for (let part = 1; part <= parts; part++) {
    const name = pscSnapshotFileName(snapshotDate, part, parts);
    const path = join(outDir, `${name}.${zip ? 'zip' : 'txt'}`);
    const from = Math.floor(((part - 1) * companies) / parts);
    const to = Math.floor((part * companies) / parts);
    const source = Readable.from(lineChunks(partLines(options, { from, to, last: part === parts }, counts), counted), {
      objectMode: false,
      highWaterMark: READ_AHEAD_BYTES,
    });
    result.bytes += await writePartFile(path, source, { zip, entry: `${name}.txt`, snapshotDate, level });
    result.files.push(path);
  }
  return result;
}
