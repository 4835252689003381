/**
 * Turn a filing's bytes into text, whatever encoding the filer's software used: UTF-8 with or
 * without a BOM, UTF-16 in either byte order, or a single-byte charset declared in the XML
 * declaration or an HTML meta tag. Undecodable UTF-8 falls back to windows-1252, because the
 * numbers and tags are ASCII either way and only names would suffer.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

interface DecodePlan {
  encoding: string;
  /** Bytes of BOM to skip. */
  skip: number;
  /** Set when the plan was a guess the caller should report. */
  warning: string | null;
}

const SNIFF_BYTES = 2048;

/** Decide how to decode `bytes` from their first few kilobytes. */
function planDecoding(bytes: Uint8Array): DecodePlan {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3, warning: null };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2, warning: null };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2, warning: null };
  // UTF-16 without a BOM: markup starts with ASCII ('<' or white space), each next to a zero byte.
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) {
    return { encoding: 'utf-16le', skip: 0, warning: null };
  }
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0) {
    return { encoding: 'utf-16be', skip: 0, warning: null };
  }

  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SNIFF_BYTES)).toString('latin1');
  const declared =
    /<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/i.exec(head)?.[1] ??
    /<meta[^>]*charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(head)?.[1];
  if (!declared) return { encoding: 'utf-8', skip: 0, warning: null };
  const label = declared.toLowerCase();
  if (label === 'utf-16' || label === 'utf-16le' || label === 'utf-16be') {
    // Declared UTF-16 but the bytes are ASCII-compatible: the declaration is wrong.
    return {
      encoding: 'utf-8',
      skip: 0,
      warning: `declared encoding "${declared}" does not match the bytes; read as UTF-8`,
    };
  }
  try {
    new TextDecoder(label);
    return { encoding: label, skip: 0, warning: null };
  } catch {
    return {
      encoding: 'windows-1252',
      skip: 0,
      warning: `unknown declared encoding "${declared}"; read as windows-1252`,
    };
  }
}

/**
 * Decode `bytes` in slices, handing each piece of text to `sink`, so a very large filing is never
 * held as one string. Returns the warning to report, if any.
 */
export function decodeInSlices(bytes: Uint8Array, sink: (text: string) => void, sliceSize = 1 << 20): string | null {
  const plan = planDecoding(bytes);
  const isUtf8 = plan.encoding === 'utf-8' || plan.encoding === 'utf8';
  if (isUtf8 && !isValidUtf8(bytes, plan.skip)) {
    decodeWith('windows-1252', bytes, plan.skip, sink, sliceSize);
    return plan.warning ?? 'bytes are not valid UTF-8; read as windows-1252';
  }
  decodeWith(plan.encoding, bytes, plan.skip, sink, sliceSize);
  return plan.warning;
}

/**
 * Decode `bytes` into one string, exactly as `decodeInSlices` would in pieces. For the fast
 * scanner, which searches the whole text at once; large files are decoded in slices instead.
 */
export function decodeWhole(bytes: Uint8Array): { text: string; warning: string | null } {
  const plan = planDecoding(bytes);
  if ((plan.encoding === 'utf-8' || plan.encoding === 'utf8') && isAscii(bytes.subarray(plan.skip))) {
    // ASCII reads the same in UTF-8 and Latin-1, and Latin-1 is a plain copy.
    const body = bytes.subarray(plan.skip);
    return { text: Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1'), warning: plan.warning };
  }
  const parts: string[] = [];
  const warning = decodeInSlices(bytes, (text) => parts.push(text), Math.max(1, bytes.length));
  return { text: parts.length === 1 ? parts[0]! : parts.join(''), warning };
}

function decodeWith(
  encoding: string,
  bytes: Uint8Array,
  start: number,
  sink: (text: string) => void,
  sliceSize: number,
): void {
  const decoder = decoderFor(encoding);
  for (let offset = start; offset < bytes.length; offset += sliceSize) {
    const end = Math.min(bytes.length, offset + sliceSize);
    const text = decoder.decode(bytes.subarray(offset, end), { stream: end < bytes.length });
    if (text) sink(text);
  }
  const rest = decoder.decode();
  if (rest) sink(rest);
}

const decoders = new Map<string, TextDecoder>();

/** Decoders are reused across filings: each decode ends with a flush, so no state carries over. */
function decoderFor(encoding: string): TextDecoder {
  let decoder = decoders.get(encoding);
  if (!decoder) {
    decoder = new TextDecoder(encoding, { ignoreBOM: true });
    decoders.set(encoding, decoder);
  }
  return decoder;
}

function isValidUtf8(bytes: Uint8Array, start: number): boolean {
  // Validates without allocating the decoded string.
  return isUtf8(bytes.subarray(start));
}
