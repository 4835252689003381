/**
 * Lines of a newline-delimited file, with their numbers, from a stream of bytes: split on the
 * bytes (a line's UTF-8 is decoded once, whole, never across a chunk's edge), a trailing CR
 * dropped, empty lines skipped but counted, a UTF-8 byte-order mark before the first line dropped
 * (as the register loader drops it). Faster than node:readline, which decodes and
 * re-scans every chunk, and it says how many bytes are behind each line for the progress estimate.
 * A line past `maxBytes` (a file that is not newline-delimited at all) is not held whole: its
 * start comes out marked `tooLong`, so memory stays flat whatever the input.
 */
export interface NumberedLine {
  /** 1-based, counting empty lines too, as an editor would show it. */
  number: number;
  /** The line, or only its first `maxBytes` when `tooLong`. */
  text: string;
  tooLong: boolean;
  /** Bytes of the stream read up to this line's chunk. */
  bytes: number;
}

/** A PSC record is about a kilobyte; no real one comes near this. */
const MAX_LINE_BYTES = 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

export async function* numberedLines(
  stream: AsyncIterable<Buffer>,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<NumberedLine> {
  let number = 0;
  let bytes = 0;
  // The line so far, when it began in an earlier chunk (copied: a stream may reuse its chunks).
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  const hold = (piece: Buffer, copy: boolean) => {
    const room = maxBytes - pendingBytes;
    if (piece.length > room) tooLong = true;
    const kept = piece.length > room ? piece.subarray(0, Math.max(room, 0)) : piece;
    if (kept.length === 0) return;
    pending.push(copy ? Buffer.from(kept) : kept);
    pendingBytes += kept.length;
  };
  const finish = (): NumberedLine | null => {
    number++;
    const whole = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    const line = { number, text: decode(whole, number === 1), tooLong, bytes };
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    return line.text === '' && !line.tooLong ? null : line;
  };
  for await (const chunk of stream) {
    bytes += chunk.length;
    let start = 0;
    for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
      hold(chunk.subarray(start, end), false);
      start = end + 1;
      const line = finish();
      if (line) yield line;
    }
    if (start < chunk.length) hold(chunk.subarray(start), true);
  }
  if (pendingBytes > 0 || tooLong) {
    const line = finish();
    if (line) yield line;
  }
}

/** A UTF-8 byte-order mark, which some tools write before the first line: not part of it. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function decode(piece: Buffer, first: boolean): string {
  const start = first && piece.subarray(0, 3).equals(BOM) ? 3 : 0;
  const end = piece.length > start && piece[piece.length - 1] === CR ? piece.length - 1 : piece.length;
  return piece.toString('utf8', start, end);
}

/** The first non-empty line of a stream, or null for an empty one; the stream is then let go. */
export async function firstLine(stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<NumberedLine | null> {
  try {
    for await (const line of numberedLines(stream)) return line;
    return null;
  } finally {
    stream.destroy();
  }
}
