/**
 * A yauzl RandomAccessReader over a file descriptor that serves reads from a few large read-ahead
 * windows. A bulk zip holds tens of thousands of small members, and yauzl otherwise issues
 * several small reads per member (central directory record, local header, data), each a round
 * trip through the thread pool that leaves the parsing thread idle. Members are laid out in
 * order, so one read per window serves hundreds of them.
 */
import { close, createReadStream, read } from 'node:fs';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

const WINDOW_BYTES = 4 * 1024 * 1024;
const WINDOWS = 2; // one over the central directory, one over the members being read

interface Window {
  start: number;
  bytes: Buffer;
}

export class WindowedReader extends yauzl.RandomAccessReader {
  private windows: Window[] = [];
  private closed = false;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return createReadStream('', { fd: this.fd, start, end: end - 1, autoClose: false });
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null) => void,
  ): void {
    const window = this.windows.find((w) => position >= w.start && position + length <= w.start + w.bytes.length);
    if (window) {
      window.bytes.copy(buffer, offset, position - window.start, position - window.start + length);
      callback(null);
      return;
    }
    const windowLength = Math.min(Math.max(length, WINDOW_BYTES), this.size - position);
    if (windowLength < length) {
      callback(new Error(`read past the end of the file at ${position}`));
      return;
    }
    const bytes = Buffer.allocUnsafe(windowLength);
    read(this.fd, bytes, 0, windowLength, position, (error, bytesRead) => {
      if (error) return callback(error);
      if (bytesRead < length) return callback(new Error(`unexpected end of file at ${position + bytesRead}`));
      this.windows = [{ start: position, bytes: bytes.subarray(0, bytesRead) }, ...this.windows].slice(0, WINDOWS);
      bytes.copy(buffer, offset, 0, length);
      callback(null);
    });
  }

  override close(callback: (err: Error | null) => void): void {
    this.windows = [];
    // Both yauzl and our own error paths may close; the descriptor must be closed once only.
    if (this.closed) return callback(null);
    this.closed = true;
    close(this.fd, (error) => callback(error ?? null));
  }
}
