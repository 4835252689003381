/**
 * Every filing under a list of paths: single files, folders (recursively), accounts bulk zips,
 * and the zips Companies House nests inside bulk zips (a CIC's accounts plus its CIC34 report).
 * Anything that cannot be read is handed to `onProblem` with the reason, and a bulk zip's repeated
 * member names to `onRepeated`; nothing is skipped silently.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DEFAULT_MAX_BYTES } from '../src/accounts/parse-filing.ts';
import type { OpenZip } from './zip-reader.ts';
import { openZipBuffer, openZipFile } from './zip-reader.ts';

export interface FilingSource {
  /** The filing's own name: a zip member's name, or the file's base name. */
  name: string;
  /** The bulk zip it came from, or null for a loose file. */
  zip: string | null;
  bytes: Buffer;
}

export interface SourceProblem {
  file: string;
  zip: string | null;
  error: { code: 'unreadable' | 'bad_zip' | 'too_large' | 'no_filing_in_zip'; message: string };
}

/** A name a bulk zip gives more than one member. */
export interface RepeatedMember {
  /** The bulk zip, as given. */
  zip: string;
  file: string;
  /** How many members bear the name. */
  copies: number;
}

export interface SourceEvents {
  onProblem(problem: SourceProblem): void;
  /**
   * A bulk zip names a member more than once. With this event only the last copy (in the zip's
   * order) is yielded, the earlier are skipped unread, and each such name is reported here once
   * (in the order the repeats are met), before the zip's first filing; without it every copy is
   * yielded, in the zip's order.
   */
  onRepeated?(repeat: RepeatedMember): void;
  /** Called as the number of filings to come becomes known (zip entry counts, files found). */
  onExpected?(count: number): void;
}

const FILING_EXTENSION = /\.(x?html?|xml)$/i;

export async function* filingSources(
  paths: readonly string[],
  events: SourceEvents,
  maxBytes = DEFAULT_MAX_BYTES,
): AsyncGenerator<FilingSource> {
  for (const path of paths) yield* fromPath(path, events, maxBytes);
}

async function* fromPath(path: string, events: SourceEvents, maxBytes: number): AsyncGenerator<FilingSource> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    events.onProblem({ file: path, zip: null, error: { code: 'unreadable', message: messageOf(error) } });
    return;
  }
  if (info.isDirectory()) {
    const entries = (await readdir(path)).sort();
    for (const entry of entries) yield* fromPath(join(path, entry), events, maxBytes);
    return;
  }
  if (/\.zip$/i.test(path) && !isNestedFilingZip(basename(path))) {
    yield* fromBulkZip(path, events, maxBytes);
    return;
  }
  events.onExpected?.(1);
  if (info.size > maxBytes) {
    events.onProblem({
      file: path,
      zip: null,
      error: { code: 'too_large', message: `${info.size} bytes, over ${maxBytes}` },
    });
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    events.onProblem({ file: path, zip: null, error: { code: 'unreadable', message: messageOf(error) } });
    return;
  }
  if (/\.zip$/i.test(path)) {
    const inner = await fromNestedZip(bytes, { name: basename(path), container: null }, events);
    if (inner) yield inner;
    return;
  }
  yield { name: basename(path), zip: null, bytes };
}

async function* fromBulkZip(path: string, events: SourceEvents, maxBytes: number): AsyncGenerator<FilingSource> {
  let zip: OpenZip;
  try {
    zip = await openZipFile(path);
  } catch (error) {
    events.onProblem({ file: path, zip: null, error: { code: 'bad_zip', message: messageOf(error) } });
    return;
  }
  events.onExpected?.(zip.entryCount);
  try {
    // A pass over the central directory first, so that an earlier copy is skipped before anyone
    // parses it: the copy loaded is the zip's last, whichever parse would have finished last.
    const copiesLeft = events.onRepeated ? await repeatedNames(zip) : new Map<string, number>();
    for (const [file, copies] of copiesLeft) events.onRepeated!({ zip: path, file, copies });
    for await (const member of zip.members()) {
      const left = copiesLeft.get(member.name);
      if (left !== undefined && left > 1) {
        copiesLeft.set(member.name, left - 1);
        continue;
      }
      if (member.uncompressedSize > maxBytes) {
        const message = `${member.uncompressedSize} bytes, over ${maxBytes}`;
        events.onProblem({ file: member.name, zip: path, error: { code: 'too_large', message } });
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await member.read();
      } catch (error) {
        // One damaged member is reported on its own; the rest of the bulk zip is still read.
        events.onProblem({ file: member.name, zip: path, error: { code: 'bad_zip', message: messageOf(error) } });
        continue;
      }
      if (/\.zip$/i.test(member.name)) {
        const inner = await fromNestedZip(bytes, { name: member.name, container: path }, events);
        if (inner) yield inner;
      } else {
        yield { name: member.name, zip: path, bytes };
      }
    }
  } catch (error) {
    events.onProblem({
      file: path,
      zip: null,
      error: { code: 'bad_zip', message: `stopped reading: ${messageOf(error)}` },
    });
  } finally {
    zip.close();
  }
}

/**
 * Each member name a zip gives more than once, with how many times. Up to the first damaged
 * central directory record, if any: the pass over the members stops there too, and reports it.
 */
async function repeatedNames(zip: OpenZip): Promise<Map<string, number>> {
  const seen = new Set<string>();
  const repeated = new Map<string, number>();
  try {
    await zip.forEachMemberName((name) => {
      if (seen.has(name)) repeated.set(name, (repeated.get(name) ?? 1) + 1);
      else seen.add(name);
    });
  } catch {
    // Reported by the pass over the members.
  }
  return repeated;
}

/**
 * A zip inside a bulk zip is one filing: its accounts document, preferring a member under an
 * `accounts/` folder over other documents (a CIC zip also holds the CIC34 community interest
 * report, which is not accounts). The filing keeps the outer member's name, which carries the
 * company number and date.
 */
async function fromNestedZip(
  bytes: Buffer,
  { name, container }: { name: string; container: string | null },
  events: SourceEvents,
): Promise<FilingSource | null> {
  let zip: OpenZip;
  try {
    zip = await openZipBuffer(bytes);
  } catch (error) {
    events.onProblem({ file: name, zip: container, error: { code: 'bad_zip', message: messageOf(error) } });
    return null;
  }
  try {
    let chosen: { name: string; bytes: Buffer } | null = null;
    for await (const member of zip.members()) {
      if (!FILING_EXTENSION.test(member.name)) continue;
      const isAccounts = /(^|\/)accounts\//i.test(member.name);
      if (chosen === null || isAccounts) chosen = { name: member.name, bytes: await member.read() };
      if (isAccounts) break;
    }
    if (chosen === null) {
      events.onProblem({
        file: name,
        zip: container,
        error: { code: 'no_filing_in_zip', message: 'the nested zip holds no .html, .xhtml or .xml document' },
      });
      return null;
    }
    return { name, zip: container, bytes: chosen.bytes };
  } catch (error) {
    events.onProblem({ file: name, zip: container, error: { code: 'bad_zip', message: messageOf(error) } });
    return null;
  } finally {
    zip.close();
  }
}

/** `Prod223_3951_15052776_20240831_CIC.zip` is one filing, not a bulk file. */
export function isNestedFilingZip(name: string): boolean {
  return /^Prod\d+_\d+_[A-Za-z0-9]+_\d{8}(_[^.]*)?\.zip$/i.test(name);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
