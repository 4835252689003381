/**
 * Write filings into daily accounts bulk zips named as Companies House names them
 * (`Accounts_Bulk_Data-YYYY-MM-DD.zip`), one zip per publication date.
 *
 * Filings must arrive ordered by publication date, as `syntheticFilings` yields them: each zip is
 * finished before the next is started, and only a small window of filings waits for compression,
 * so memory stays flat however many filings pass through. Each zip is written under a temporary
 * name and renamed when complete, so a reader never sees half a zip. Entry timestamps are the
 * publication date in DOS form only, which makes the bytes independent of the machine's time zone.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { dailyBulkFileName } from '../accounts/file-names.ts';
import type { SyntheticFiling } from './filings.ts';

export interface BulkZipResult {
  /** Paths of the zips written, in publication order. */
  zips: string[];
  filings: number;
  /** Bytes of zip written to disk. */
  bytes: number;
}

/** Filings handed to the zip but not yet being compressed; bounds the memory held. */
const WINDOW = 32;

class DailyZip {
  private readonly zip = new yazl.ZipFile();
  private readonly partial: string;
  private readonly written: Promise<number>;
  private added = 0;
  private started = 0;
  private wake: (() => void) | null = null;
  private failure: Error | null = null;

  constructor(
    readonly path: string,
    private readonly mtime: Date,
  ) {
    this.partial = `${path}.partial`;
    const out = createWriteStream(this.partial);
    let bytes = 0;
    this.written = new Promise<number>((resolve, reject) => {
      const fail = (error: Error) => {
        this.failure = error;
        this.wake?.();
        reject(error);
      };
      this.zip.on('error', fail);
      out.on('error', fail);
      out.on('close', () => resolve(bytes));
    });
    // A rejection is reported by close(); until then it must not count as unhandled.
    this.written.catch(() => undefined);
    this.zip.outputStream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    this.zip.outputStream.pipe(out);
  }

  async add(name: string, bytes: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.added++;
    this.zip.addReadStreamLazy(name, { mtime: this.mtime, forceDosTimestamp: true, compress: true }, (give) => {
      this.started++;
      give(null, Readable.from([bytes]));
      this.wake?.();
    });
    while (this.added - this.started > WINDOW && !this.failure) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    if (this.failure) throw this.failure;
  }

  /** Finish the zip and move it to its real name; resolves to its size. */
  async close(): Promise<number> {
    this.zip.end();
    const bytes = await this.written;
    await rename(this.partial, this.path);
    return bytes;
  }
}

/** Noon on the publication date, in local time, so the DOS timestamp reads that date everywhere. */
function publicationTime(published: string): Date {
  return new Date(Number(published.slice(0, 4)), Number(published.slice(5, 7)) - 1, Number(published.slice(8, 10)), 12);
}

/**
 * Group `filings` (ordered by publication date) into daily bulk zips in `outDir`. Throws if a
 * filing arrives for a date whose zip is already finished.
 */
export async function writeBulkZips(filings: Iterable<SyntheticFiling>, outDir: string): Promise<BulkZipResult> {
  await mkdir(outDir, { recursive: true });
  const result: BulkZipResult = { zips: [], filings: 0, bytes: 0 };
  const finish = async (day: { zip: DailyZip }) => {
    result.bytes += await day.zip.close();
    result.zips.push(day.zip.path);
  };
  let current: { date: string; zip: DailyZip } | null = null;
  for (const filing of filings) {
    if (current === null || current.date !== filing.published) {
      if (current !== null) {
        if (filing.published < current.date) {
          throw new Error(
            `filings must arrive in publication order: ${filing.fileName} (published ${filing.published}) came after the zip for ${current.date}`,
          );
        }
        await finish(current);
      }
      const path = join(outDir, dailyBulkFileName(filing.published));
      current = { date: filing.published, zip: new DailyZip(path, publicationTime(filing.published)) };
    }
    await current.zip.add(filing.fileName, filing.bytes);
    result.filings++;
  }
  if (current !== null) await finish(current);
  return result;
}
