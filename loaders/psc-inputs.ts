/**
 * What PSC snapshot files a load was given: their line streams in order, the snapshot date and
 * whether together they are the whole snapshot.
 *
 * Companies House names them `persons-with-significant-control-snapshot-YYYY-MM-DD.zip` (the whole
 * register of persons with significant control) or `psc-snapshot-YYYY-MM-DD_NofM.zip` (part N of
 * M); each zip holds one file of newline-delimited JSON. That file may also be given unzipped
 * (.txt, as the parts' members are named, .json or .jsonl).
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { openZipFile, streamZipMember } from './zip-reader.ts';

export interface PscFileName {
  date: string;
  part: { index: number; of: number } | null;
}

/** The extensions a PSC snapshot file is read from. */
const PSC_FILE = /\.(zip|txt|json|jsonl)$/i;

export function parsePscFileName(path: string): PscFileName | null {
  const name = basename(path);
  const whole = /^persons-with-significant-control-snapshot-(\d{4}-\d{2}-\d{2})\.(zip|txt|json|jsonl)$/i.exec(name);
  if (whole) return { date: whole[1]!, part: null };
  const part = /^psc-snapshot-(\d{4}-\d{2}-\d{2})_(\d+)of(\d+)\.(zip|txt|json|jsonl)$/i.exec(name);
  if (part) return { date: part[1]!, part: { index: Number(part[2]), of: Number(part[3]) } };
  return null;
}

export interface PscInputs {
  /** In load order: the whole file, or the parts by number, then anything not named as either. */
  files: string[];
  /** From the file names, or null when they do not say. */
  snapshotDate: string | null;
  /** True when the files name the whole snapshot: the one file, or every part 1..M of M. */
  complete: boolean;
  /** Why the names do not make the whole snapshot (parts missing, …), for the load's message. */
  incomplete: string | null;
  problems: string[];
}

/** Expand folders and decide what the given paths amount to. */
export async function describePscInputs(paths: readonly string[]): Promise<PscInputs> {
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
      for (const entry of (await readdir(path)).sort()) if (PSC_FILE.test(entry)) files.push(join(path, entry));
    } else files.push(path);
  }
  const named = files.map((file) => ({ file, name: parsePscFileName(file) }));
  const dates = new Set(named.flatMap(({ name }) => (name ? [name.date] : [])));
  if (dates.size > 1) problems.push(`the files are from different snapshots: ${[...dates].sort().join(', ')}`);
  const snapshotDate = dates.size === 1 ? [...dates][0]! : null;

  const wholes = named.filter(({ name }) => name !== null && name.part === null);
  const parts = named.filter(({ name }) => name?.part != null).map(({ file, name }) => ({ file, part: name!.part! }));
  const unnamed = named.filter(({ name }) => name === null);
  const seen = new Set<number>();
  for (const { file, part } of parts) {
    if (seen.has(part.index)) problems.push(`${file}: part ${part.index} is given twice`);
    seen.add(part.index);
  }
  if (wholes.length > 0 && parts.length > 0) problems.push('the whole snapshot and some of its parts are both given');
  if (wholes.length > 1) problems.push('the whole snapshot is given more than once');

  const counts = new Set(parts.map(({ part }) => part.of));
  const of = counts.size === 1 ? [...counts][0]! : 0;
  if (counts.size > 1) problems.push(`the parts disagree on how many there are: ${[...counts].join(', ')}`);
  const missing = of > 0 ? Array.from({ length: of }, (_, i) => i + 1).filter((i) => !seen.has(i)) : [];
  let incomplete: string | null = null;
  if (unnamed.length > 0) incomplete = `${unnamed.length} file(s) not named as a PSC snapshot`;
  else if (parts.length > 0 && missing.length > 0) incomplete = `part(s) ${missing.join(', ')} of ${of} not given`;
  else if (wholes.length === 0 && parts.length === 0) incomplete = 'no file named as a PSC snapshot';

  return {
    files: [
      ...wholes.map(({ file }) => file),
      ...parts.sort((a, b) => a.part.index - b.part.index).map(({ file }) => file),
      ...unnamed.map(({ file }) => file),
    ],
    snapshotDate,
    complete: incomplete === null,
    incomplete,
    problems,
  };
}

export interface PscSource {
  /** The file, and the member for a zip. */
  label: string;
  /** Uncompressed size in bytes, for estimating how many lines are to come. */
  size: number;
  file: string;
  /** The JSON file's name inside the zip `file`; null when `file` is that file itself. */
  member: string | null;
}

export async function openPscSource({ file, member }: Pick<PscSource, 'file' | 'member'>): Promise<Readable> {
  return member === null ? createReadStream(file) : streamZipMember(file, member);
}

/** The line streams inside one input file: itself, or each member of a zip (one, as published). */
export async function pscSources(file: string): Promise<PscSource[]> {
  if (!/\.zip$/i.test(file)) return [{ label: file, size: (await stat(file)).size, file, member: null }];
  const zip = await openZipFile(file);
  const members: PscSource[] = [];
  try {
    for await (const member of zip.members()) {
      members.push({ label: `${file}!${member.name}`, size: member.uncompressedSize, file, member: member.name });
    }
  } finally {
    zip.close();
  }
  if (members.length === 0) throw new Error(`${file} holds no file`);
  return members;
}
