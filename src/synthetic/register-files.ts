/**
 * Write a synthetic register snapshot as Companies House publishes it: one
 * `BasicCompanyDataAsOneFile-YYYY-MM-DD.zip` holding `BasicCompanyDataAsOneFile-YYYY-MM-DD.csv`,
 * or part files `BasicCompanyData-YYYY-MM-DD-part1_7.zip` ... `part7_7.zip`, each holding one CSV
 * of the same name with its own header line. Lines end in CRLF.
 *
 * Rows stream from the generator through deflate to disk in small chunks, with back-pressure, so
 * memory stays flat for the full register of millions of rows. Each file is written under a
 * temporary name and renamed when complete, so a reader never sees half a file. Zip entry times
 * are the snapshot date in DOS form only, which makes the bytes independent of the time zone.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { formatRegisterCsvLine, REGISTER_CSV_HEADER, REGISTER_CSV_LINE_END, registerRange } from './register.ts';
import type { RegisterRange } from './register.ts';
import { isCalendarDate } from '../domain/calendar-date.ts';

export interface RegisterSnapshotFilesOptions {
  seed: number;
  /** Company indices 0 to `companies` - 1 are considered; only those live on the date are written. */
  companies: number;
  /** ISO date of the snapshot; it names the files. */
  snapshotDate: string;
  outDir: string;
  /** Split into this many part files (default 1: the single "AsOneFile"). */
  parts?: number;
  /** Zip each CSV (default true), as Companies House publishes them; false writes the bare CSVs. */
  zip?: boolean;
  /** Deflate level, 1 (fastest) to 9 (smallest); default 6, zlib's own default. */
  compressionLevel?: number;
}

export interface RegisterSnapshotFiles {
  /** Paths written, in part order. */
  files: string[];
  /** Data rows written, headers not counted. */
  rows: number;
  /** Bytes written to disk. */
  bytes: number;
}

/**
 * The base name (without `.zip` or `.csv`) of a snapshot file: the single file when `parts` is 1,
 * otherwise part `part` (1-based) of `parts`.
 */
export function registerSnapshotFileName(snapshotDate: string, part = 1, parts = 1): string {
  return parts === 1
    ? `BasicCompanyDataAsOneFile-${snapshotDate}`
    : `BasicCompanyData-${snapshotDate}-part${part}_${parts}`;
}

/** CSV is handed on in chunks of about this many bytes. */
const CHUNK_BYTES = 64 * 1024;
// The line end, CRLF, written as bytes rather than appended to every line's string.
const CR = 13;
const LF = 10;
/** No line comes near this long: room left in a chunk before a line is written into it. */
const LONGEST_LINE = 16 * 1024;
/**
 * How far the generator may run ahead of deflate: enough to keep both busy at once (deflate runs
 * on the thread pool), small enough that memory stays flat.
 */
const READ_AHEAD_BYTES = 8 * 1024 * 1024;

/**
 * The CSV bytes of one file, header first, in chunks; `counted` hears each data row. After each
 * chunk it lets the event loop run: deflate works on the thread pool but comes back to this
 * thread for every 16 KB it writes, and a generator that held the thread would starve it.
 */
async function* csvChunks(range: RegisterRange, counted: () => void): AsyncGenerator<Buffer> {
  // Lines are written straight into the chunk's buffer rather than joined into one long string,
  // which the garbage collector would have to copy and sweep.
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES + LONGEST_LINE);
  let used = chunk.write(REGISTER_CSV_HEADER + REGISTER_CSV_LINE_END, 0, 'utf8');
  for (const record of registerRange(range)) {
    const written = chunk.write(formatRegisterCsvLine(record), used, 'utf8');
    // Buffer.write cuts a string that does not fit; filling the space left means it may have.
    if (written >= chunk.length - used - 2) throw new Error(`a register line of ${record.company_number} is too long`);
    used += written;
    chunk[used++] = CR;
    chunk[used++] = LF;
    counted();
    if (used >= CHUNK_BYTES) {
      yield chunk.subarray(0, used);
      chunk = Buffer.allocUnsafe(CHUNK_BYTES + LONGEST_LINE);
      used = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  yield chunk.subarray(0, used);
}

/** Noon on the snapshot date, in local time, so the DOS timestamp reads that date everywhere. */
function snapshotTime(snapshotDate: string): Date {
  return new Date(
    Number(snapshotDate.slice(0, 4)),
    Number(snapshotDate.slice(5, 7)) - 1,
    Number(snapshotDate.slice(8, 10)),
    12,
  );
}

/** The one entry of a zip: its name, its timestamp and how hard it is deflated (1 to 9). */
interface ZipEntry {
  entryName: string;
  mtime: Date;
  compressionLevel: number;
}

/** Deflate `source` into a zip at `path` holding one entry, `entryName`; resolves to the zip's size. */
async function writeZip(
  path: string,
  source: Readable,
  { entryName, mtime, compressionLevel }: ZipEntry,
): Promise<number> {
  const zip = new yazl.ZipFile();
  let bytes = 0;
  const out = createWriteStream(path);
  const failed = new Promise<never>((_, reject) => {
    // yazl pipes the source without listening for its errors; a generator that throws must still
    // fail the write rather than leave it hanging.
    source.once('error', reject);
    zip.on('error', reject);
  });
  zip.addReadStream(source, entryName, { mtime, forceDosTimestamp: true, compressionLevel });
  zip.end();
  zip.outputStream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  try {
    await Promise.race([pipeline(zip.outputStream, out), failed]);
  } catch (error) {
    source.destroy();
    out.destroy();
    throw error;
  }
  return bytes;
}

/**
 * Writes one part file of a snapshot as `path`: into `path.partial` (zipped as `entry` when
 * `zip`), renamed once whole, so a file under its final name is never cut short; a part that
 * fails leaves nothing behind. Returns the bytes written.
 */
export async function writePartFile(
  path: string,
  source: Readable,
  { zip, entry, snapshotDate, level }: { zip: boolean; entry: string; snapshotDate: string; level: number },
): Promise<number> {
  const partial = `${path}.partial`;
  try {
    let bytes: number;
    if (zip) {
      bytes = await writeZip(partial, source, {
        entryName: entry,
        mtime: snapshotTime(snapshotDate),
        compressionLevel: level,
      });
    } else {
      const out = createWriteStream(partial);
      await pipeline(source, out);
      bytes = out.bytesWritten;
    }
    await rename(partial, path);
    return bytes;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

function checkOptions(options: RegisterSnapshotFilesOptions): { parts: number; level: number } {
  const parts = options.parts ?? 1;
  if (!Number.isInteger(parts) || parts < 1 || parts > 99) throw new Error(`parts must be 1 to 99, got ${parts}`);
  const level = options.compressionLevel ?? 6;
  if (!Number.isInteger(level) || level < 1 || level > 9) {
    throw new Error(`compressionLevel must be 1 to 9, got ${level}`);
  }
  if (!Number.isInteger(options.companies) || options.companies < 0) {
    throw new Error(`companies must be a whole number, got ${options.companies}`);
  }
  if (!isCalendarDate(options.snapshotDate)) {
    throw new Error(`snapshotDate must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(options.snapshotDate)}`);
  }
  return { parts, level };
}

/**
 * Write the register snapshot of companies 0 to `companies` - 1 on `snapshotDate` into `outDir`,
 * named as Companies House names it. Part files split the companies into equal runs of indices,
 * so their row counts are about equal.
 */
export async function writeRegisterSnapshot(options: RegisterSnapshotFilesOptions): Promise<RegisterSnapshotFiles> {
  const { parts, level } = checkOptions(options);
  const zip = options.zip ?? true;
  const { seed, companies, snapshotDate, outDir } = options;
  await mkdir(outDir, { recursive: true });
  const result: RegisterSnapshotFiles = { files: [], rows: 0, bytes: 0 };
  const counted = () => result.rows++;
  for (let part = 1; part <= parts; part++) {
    const name = registerSnapshotFileName(snapshotDate, part, parts);
    const path = join(outDir, `${name}.${zip ? 'zip' : 'csv'}`);
    const from = Math.floor(((part - 1) * companies) / parts);
    const to = Math.floor((part * companies) / parts);
    const source = Readable.from(csvChunks({ seed, from, to, snapshotDate }, counted), {
      objectMode: false,
      highWaterMark: READ_AHEAD_BYTES,
    });
    result.bytes += await writePartFile(path, source, { zip, entry: `${name}.csv`, snapshotDate, level });
    result.files.push(path);
  }
  return result;
}
