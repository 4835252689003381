/**
 * The bytes of an input part checked before a parser reads them: only whole lines are passed on,
 * each no longer than `maxLineBytes`, and the text must be UTF-8 (a byte-order mark is UTF-8 and
 * passes). A line over the cap is dropped (its line end kept, so the parser's line numbers stay
 * right) and reported with its number: memory stays bounded and the rest of the part loads.
 * Bytes that are not UTF-8 stop the part at the start of their line, reported with its number
 * and what to do: decoding them anyway would store U+FFFD in place of the letters.
 *
 * Lines are counted by their line feeds, as csv-parse counts `info.lines`.
 */
import { isUtf8 } from 'node:buffer';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

const LF = 0x0a;

/** A line the parser never sees, and why. */
export interface DroppedLine {
  line: number;
  reason: string;
  /** The rest of the part was not read after it. */
  stopped: boolean;
}

export class CheckedLines extends Transform {
  /** Dropped lines not yet taken (`takeDropped()`). */
  private dropped: DroppedLine[] = [];
  /** The start of the line being read, waiting for its line end. */
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** Lines whose line end has been read. */
  private lines = 0;
  /** In a line over the cap: its bytes are dropped up to its line end. */
  private skipping = false;
  private stopped = false;
  /** Whether the part ended with a line end (or was empty). */
  endedWithLineEnd = true;

  constructor(private readonly maxLineBytes: number) {
    super();
  }

  /** The lines dropped since the last call. */
  takeDropped(): DroppedLine[] {
    const taken = this.dropped;
    this.dropped = [];
    return taken;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.stopped) this.readLines(chunk);
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.stopped && (this.skipping || this.carryBytes > 0)) {
      this.endedWithLineEnd = false;
      if (!this.skipping) this.pass(Buffer.concat(this.carry), this.lines + 1);
    }
    done();
  }

  private readLines(chunk: Buffer): void {
    let start = 0;
    if (this.skipping || this.carryBytes > 0) {
      // The end of the line carried from the chunks before.
      const end = chunk.indexOf(LF);
      if (end < 0) return this.hold(chunk);
      this.lines++;
      if (this.skipping || this.carryBytes + end + 1 > this.maxLineBytes) {
        if (!this.skipping) this.tooLong(this.lines);
        this.skipping = false;
        this.push(Buffer.of(LF));
      } else if (!this.pass(Buffer.concat([...this.carry, chunk.subarray(0, end + 1)]), this.lines)) return;
      this.carry = [];
      this.carryBytes = 0;
      start = end + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      // The whole lines of the chunk in one run, without a copy, unless the run could hold a
      // line over the cap (a chunk is usually far shorter than the cap).
      if (last + 1 - start <= this.maxLineBytes) {
        const run = chunk.subarray(start, last + 1);
        const first = this.lines + 1;
        this.lines += countLineFeeds(run);
        if (!this.pass(run, first)) return;
      } else {
        for (let at = start; at <= last;) {
          const end = chunk.indexOf(LF, at);
          this.lines++;
          if (end + 1 - at > this.maxLineBytes) {
            this.tooLong(this.lines);
            this.push(Buffer.of(LF));
          } else if (!this.pass(chunk.subarray(at, end + 1), this.lines)) return;
          at = end + 1;
        }
      }
      start = last + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
  }

  /** Keeps the start of a line until its end comes, or drops it once it is over the cap. */
  private hold(bytes: Buffer): void {
    if (this.skipping) return;
    if (this.carryBytes + bytes.length > this.maxLineBytes) {
      this.tooLong(this.lines + 1);
      this.carry = [];
      this.carryBytes = 0;
      this.skipping = true;
      return;
    }
    this.carry.push(Buffer.from(bytes));
    this.carryBytes += bytes.length;
  }

  private tooLong(line: number): void {
    this.dropped.push({
      line,
      reason: `the line is longer than ${this.maxLineBytes} bytes, longer than any record: it was not read (a damaged file?)`,
      stopped: false,
    });
  }

  /**
   * Passes on whole lines (the first of them line `firstLine`) if they are UTF-8; else passes the
   * lines before the first that is not, stops, and says false.
   */
  private pass(lines: Buffer, firstLine: number): boolean {
    if (isUtf8(lines)) {
      this.push(lines);
      return true;
    }
    let line = firstLine;
    let at = 0;
    for (;;) {
      const end = lines.indexOf(LF, at);
      if (!isUtf8(lines.subarray(at, end < 0 ? lines.length : end + 1))) break;
      line++;
      at = end + 1;
    }
    if (at > 0) this.push(lines.subarray(0, at));
    this.stopped = true;
    this.dropped.push({
      line,
      reason:
        'the text is not UTF-8 (a Latin-1 or Windows-1252 file?): this line and the rest of the file were not read; ' +
        'convert the file to UTF-8 (for example `iconv -f latin1 -t utf-8`) and load it again',
      stopped: true,
    });
    return false;
  }
}

function countLineFeeds(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(LF); at >= 0; at = bytes.indexOf(LF, at + 1)) count++;
  return count;
}
