/**
 * The source stage of a snapshot load: what files a load was given (folders expanded), what their
 * names say (snapshot date, part N of M), and the parts to read inside each (the file itself, or
 * the members of a zip). The register and PSC loads name their files differently and judge
 * completeness by their own rules (register-inputs.ts, psc-inputs.ts), on these facts.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { checkStreamedMember, openZipFile, streamZipMember } from '../zip-reader.ts';

/**
 * A load refused before anything is written: the message names the file (and member) and says
 * what to do; the command prints it, never a stack trace.
 */
export class SnapshotInputError extends Error {}

/** What a snapshot file's name says: its date, and which part of how many (null: the whole). */
export interface SnapshotFileName {
  date: string;
  part: { index: number; of: number } | null;
}

interface NamedFile {
  file: string;
  /** Null when the name is not one of the snapshot's. */
  name: SnapshotFileName | null;
}

export interface ScannedInputs {
  /** In the order given, a folder's entries (those `accepts` takes) sorted by name. */
  named: NamedFile[];
  /** The dates the names give, each once, in the order first seen. */
  dates: string[];
  /** Paths that cannot be read. */
  problems: string[];
}

export interface SnapshotNaming {
  /** The file names in a folder that are read (by extension). */
  accepts: RegExp;
  parseName(path: string): SnapshotFileName | null;
}

/** Expand folders and read what the names say. */
export async function scanSnapshotInputs(paths: readonly string[], naming: SnapshotNaming): Promise<ScannedInputs> {
  const files: string[] = [];
  const problems: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      problems.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (info.isDirectory()) {
      for (const entry of (await readdir(path)).sort()) if (naming.accepts.test(entry)) files.push(join(path, entry));
    } else files.push(path);
  }
  const named = files.map((file) => ({ file, name: naming.parseName(file) }));
  const dates = [...new Set(named.flatMap(({ name }) => (name ? [name.date] : [])))];
  return { named, dates, problems };
}

/** One stream a load reads: an input file, or one member of an input zip. */
export interface InputPart {
  /** The file, and the member for a zip. */
  label: string;
  /** Uncompressed size in bytes, for estimating how many records are to come. */
  size: number;
  file: string;
  /** The member's name inside the zip `file`; null when `file` is read itself. */
  member: string | null;
}

export async function openInputPart({ file, member }: Pick<InputPart, 'file' | 'member'>): Promise<Readable> {
  return member === null ? createReadStream(file) : streamZipMember(file, member);
}

/**
 * The parts of one input file: itself, or each member of a zip that `members` takes (every one
 * when not given). A zip with none is refused with "`file` holds no `what`". Every member taken is
 * checked whole against the central directory (its size and CRC-32) before any row of it is read:
 * a member altered or cut short is refused, naming the zip and member, with nothing written.
 */
export async function inputParts(file: string, options: { members?: RegExp; what: string }): Promise<InputPart[]> {
  if (!/\.zip$/i.test(file)) return [{ label: file, size: (await stat(file)).size, file, member: null }];
  const again = 'download it again (nothing was loaded from it)';
  let zip;
  try {
    zip = await openZipFile(file);
  } catch (error) {
    throw new SnapshotInputError(`${file} is not a readable zip (${messageOf(error)}): it may be cut short; ${again}`);
  }
  const parts: (InputPart & { crc32: number })[] = [];
  try {
    for await (const member of zip.members()) {
      if (options.members && !options.members.test(member.name)) continue;
      parts.push({
        label: `${file}!${member.name}`,
        size: member.uncompressedSize,
        file,
        member: member.name,
        crc32: member.crc32,
      });
    }
  } catch (error) {
    throw new SnapshotInputError(`${file} is not a readable zip (${messageOf(error)}): ${again}`);
  } finally {
    zip.close();
  }
  if (parts.length === 0) throw new SnapshotInputError(`${file} holds no ${options.what}`);
  for (const part of parts) {
    try {
      await checkStreamedMember(file, { name: part.member!, uncompressedSize: part.size, crc32: part.crc32 });
    } catch (error) {
      const why = messageOf(error).replace(`${part.member!} `, '');
      throw new SnapshotInputError(`${part.label} ${why}: the zip is damaged; ${again}`);
    }
  }
  return parts.map(({ crc32: _, ...part }) => part);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
