/**
 * Promise and async-iterator wrappers over yauzl, which reads zip entries straight from the file
 * (or a buffer, for a zip inside a zip) without extracting anything to disk.
 */
import type { Entry, ZipFile } from 'yauzl';
import yauzl from 'yauzl';

export interface ZipMember {
  name: string;
  uncompressedSize: number;
  /** Read the whole member into memory. */
  read(): Promise<Buffer>;
}

export interface OpenZip {
  entryCount: number;
  members(): AsyncGenerator<ZipMember>;
  close(): void;
}

export function openZipFile(path: string): Promise<OpenZip> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error || !zip) reject(error ?? new Error('zip could not be opened'));
      else resolve(wrap(zip));
    });
  });
}

export function openZipBuffer(buffer: Buffer): Promise<OpenZip> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) reject(error ?? new Error('zip could not be opened'));
      else resolve(wrap(zip));
    });
  });
}

function wrap(zip: ZipFile): OpenZip {
  return {
    entryCount: zip.entryCount,
    members: () => iterate(zip),
    close: () => zip.close(),
  };
}

async function* iterate(zip: ZipFile): AsyncGenerator<ZipMember> {
  for (;;) {
    const entry = await nextEntry(zip);
    if (entry === null) return;
    if (entry.fileName.endsWith('/')) continue; // a folder record, not a member
    yield {
      name: entry.fileName,
      uncompressedSize: entry.uncompressedSize,
      read: () => readEntry(zip, entry),
    };
  }
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

function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(error ?? new Error('entry could not be read'));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}
