/**
 * What PSC snapshot files a load was given: their line streams in order, the snapshot date and
 * whether together they are the whole snapshot.
 *
 * Companies House names them `persons-with-significant-control-snapshot-YYYY-MM-DD.zip` (the whole
 * register of persons with significant control) or `psc-snapshot-YYYY-MM-DD_NofM.zip` (part N of
 * M); each zip holds one file of newline-delimited JSON. That file may also be given unzipped
 * (.txt, as the parts' members are named, .json or .jsonl).
 */
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { inputParts, openInputPart, scanSnapshotInputs } from './skeleton/snapshot-inputs.ts';
import type { InputPart, SnapshotFileName } from './skeleton/snapshot-inputs.ts';

export type PscFileName = SnapshotFileName;

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
  const { named, dates, problems } = await scanSnapshotInputs(paths, {
    accepts: PSC_FILE,
    parseName: parsePscFileName,
  });
  if (dates.length > 1) problems.push(`the files are from different snapshots: ${[...dates].sort().join(', ')}`);
  const snapshotDate = dates.length === 1 ? dates[0]! : null;

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

/** A line stream of the load: the input file, or a member of an input zip. */
export type PscSource = InputPart;

export function openPscSource(source: Pick<PscSource, 'file' | 'member'>): Promise<Readable> {
  return openInputPart(source);
}

/** The line streams inside one input file: itself, or each member of a zip (one, as published). */
export function pscSources(file: string): Promise<PscSource[]> {
  return inputParts(file, { what: 'file' });
}
