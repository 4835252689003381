/**
 * Zip members straight from the file (or a buffer, for a zip inside a zip), never extracted to
 * disk. yauzl reads the central directory and local headers through a read-ahead reader; each
 * member's compressed bytes are then inflated synchronously, which for the many small members of
 * a bulk zip is several times faster than a stream per member. Sizes and CRC-32 are
 * checked, so a damaged member is an error, not a wrong filing.
 */
import { close, fstat, open } from 'node:fs';
import { promisify } from 'node:util';
import { crc32, createInflateRaw, inflateRawSync } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import yauzl from 'yauzl';
import { WindowedReader } from './windowed-reader.ts';

export interface ZipMember {
  name: string;
  uncompressedSize: number;
  /** As the central directory records it: `read()` checks it; a caller of `streamZipMember` may. */
  crc32: number;
  /** Read the whole member into memory (filings: small, many). */
  read(): Promise<Buffer>;
}

export interface OpenZip {
  entryCount: number;
  /**
   * Calls `each` with every member's name in zip order, from a pass of its own over the central
   * directory: nothing is read or inflated, and `members()` is not disturbed.
   */
  forEachMemberName(each: (name: string) => void): Promise<void>;
  members(): AsyncGenerator<ZipMember>;
  close(): void;
}

const openFd = promisify(open);
const fstatFd = promisify(fstat);

export async function openZipFile(path: string): Promise<OpenZip> {
  const fd = await openFd(path, 'r');
  let reader: WindowedReader;
  try {
    reader = new WindowedReader(fd, (await fstatFd(fd)).size);
  } catch (error) {
    close(fd, () => undefined);
    throw error;
  }
  // Each ZipFile over the reader holds a reference to it, and the last one closed closes it (and
  // the descriptor): a second ZipFile reads the names without a second open of the file.
  const reopen = () =>
    new Promise<ZipFile>((resolve, reject) => {
      yauzl.fromRandomAccessReader(reader, reader.size, { lazyEntries: true, autoClose: false }, (error, opened) => {
        if (error || !opened) reject(error ?? new Error('zip could not be opened'));
        else resolve(opened);
      });
    });
  let zip: ZipFile;
  try {
    zip = await reopen();
  } catch (error) {
    reader.close(() => undefined);
    throw error;
  }
  return wrap(zip, reopen, (start, length) => readThrough(reader, start, length));
}

export async function openZipBuffer(buffer: Buffer): Promise<OpenZip> {
  const reopen = () =>
    new Promise<ZipFile>((resolve, reject) => {
      yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
        if (error || !zip) reject(error ?? new Error('zip could not be opened'));
        else resolve(zip);
      });
    });
  return wrap(await reopen(), reopen, async (start, length) => buffer.subarray(start, start + length));
}

type ReadRange = (start: number, length: number) => Promise<Buffer>;

function wrap(zip: ZipFile, reopen: () => Promise<ZipFile>, readRange: ReadRange): OpenZip {
  return {
    entryCount: zip.entryCount,
    forEachMemberName: (each) => forEachName(reopen, each),
    members: () => iterate(zip, readRange),
    close: () => zip.close(),
  };
}

// Callbacks, not a promise per record as `members()` has: about half the cost per record.
async function forEachName(reopen: () => Promise<ZipFile>, each: (name: string) => void): Promise<void> {
  const zip = await reopen();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        if (!isFolderRecord(entry)) each(entry.fileName);
        // The next record in a microtask of its own: one served from the reader's window arrives
        // synchronously, and a chain of synchronous callbacks would exhaust the stack.
        queueMicrotask(() => zip.readEntry());
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function* iterate(zip: ZipFile, readRange: ReadRange): AsyncGenerator<ZipMember> {
  for (;;) {
    const entry = await nextEntry(zip);
    if (entry === null) return;
    if (isFolderRecord(entry)) continue;
    yield {
      name: entry.fileName,
      uncompressedSize: entry.uncompressedSize,
      crc32: entry.crc32,
      read: () => readEntry(zip, entry, readRange),
    };
  }
}

/** A folder's own record, not a member. */
function isFolderRecord(entry: Entry): boolean {
  return entry.fileName.endsWith('/');
}

function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

async function readEntry(zip: ZipFile, entry: Entry, readRange: ReadRange): Promise<Buffer> {
  if (entry.isEncrypted()) throw new Error(`${entry.fileName} is encrypted`);
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  const raw = await readRange(fileDataStart, entry.compressedSize);
  if (raw.length !== entry.compressedSize) throw new Error(`${entry.fileName} is cut short`);
  let bytes: Buffer;
  if (entry.compressionMethod === 0) bytes = raw;
  else if (entry.compressionMethod === 8) bytes = inflateRawSync(raw);
  else throw new Error(`${entry.fileName} uses unsupported compression method ${entry.compressionMethod}`);
  if (bytes.length !== entry.uncompressedSize) {
    throw new Error(`${entry.fileName} inflates to ${bytes.length} bytes, not the ${entry.uncompressedSize} recorded`);
  }
  if (crc32(bytes) >>> 0 !== entry.crc32 >>> 0) throw new Error(`${entry.fileName} fails its CRC-32 check`);
  return bytes;
}

function readThrough(reader: WindowedReader, start: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  return new Promise((resolve, reject) => {
    reader.read(buffer, 0, length, start, (error) => (error ? reject(error) : resolve(buffer)));
  });
}

/**
 * Stream one member of a zip on disk (a register CSV of gigabytes). yauzl owns the file here:
 * the windowed reader above serves many small members, not one long stream.
 */
export async function streamZipMember(path: string, name: string): Promise<Readable> {
  return (await openMemberStream(path, name, { decompress: true })).stream;
}

/**
 * Checks one member of a zip on disk whole, streamed (a register CSV or PSC file is gigabytes):
 * it inflates to the size the central directory records, with the CRC-32 it records (yauzl
 * checks only the size). Resolves to its size; rejects saying what is wrong with it. The member
 * is inflated here in 1 MiB pieces rather than yauzl's 16 KiB: half the CPU of the check.
 */
export async function checkStreamedMember(
  path: string,
  member: Pick<ZipMember, 'name' | 'uncompressedSize' | 'crc32'>,
): Promise<number> {
  const { stream, compressed } = await openMemberStream(path, member.name, { decompress: false });
  const inflated = compressed ? stream.pipe(createInflateRaw({ chunkSize: CHECK_CHUNK_BYTES })) : stream;
  // A failure of the file's stream reaches the reader through the inflater too.
  if (inflated !== stream) stream.once('error', (error) => inflated.destroy(error));
  let crc = 0;
  let bytes = 0;
  for await (const chunk of inflated as AsyncIterable<Buffer>) {
    crc = crc32(chunk, crc);
    bytes += chunk.length;
    if (bytes > member.uncompressedSize) break;
  }
  inflated.destroy();
  stream.destroy();
  if (bytes !== member.uncompressedSize) {
    const size = bytes > member.uncompressedSize ? `more than ${member.uncompressedSize}` : String(bytes);
    throw new Error(`${member.name} inflates to ${size} bytes, not the ${member.uncompressedSize} recorded`);
  }
  if (crc >>> 0 !== member.crc32 >>> 0) throw new Error(`${member.name} fails its CRC-32 check`);
  return bytes;
}

const CHECK_CHUNK_BYTES = 1 << 20;

/**
 * One member of a zip on disk as a stream: inflated, or (`decompress: false`) its bytes as stored,
 * deflated or not, saying which.
 */
function openMemberStream(
  path: string,
  name: string,
  options: { decompress: boolean },
): Promise<{ stream: Readable; compressed: boolean }> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('zip could not be opened'));
      let found = false;
      zip.on('error', reject);
      zip.on('entry', (entry: Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        found = true;
        const compressed = entry.compressionMethod === 8;
        if (!options.decompress && !compressed && entry.compressionMethod !== 0) {
          zip.close();
          return reject(new Error(`${name} is compressed with method ${entry.compressionMethod}, not deflate`));
        }
        // yauzl takes `decompress` only for deflated members; a stored one is read as it is.
        const raw = !options.decompress && compressed ? { decompress: false } : {};
        zip.openReadStream(entry, raw, (streamError, stream) => {
          if (streamError || !stream) {
            zip.close();
            return reject(streamError ?? new Error(`${name} could not be read`));
          }
          stream.once('close', () => zip.close());
          resolve({ stream, compressed: compressed && !options.decompress });
        });
      });
      zip.on('end', () => {
        if (!found) {
          zip.close();
          reject(new Error(`${name} is not in ${path}`));
        }
      });
      zip.readEntry();
    });
  });
}
