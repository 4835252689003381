/**
 * What register snapshot files a load was given: their CSV streams in order, the snapshot date and
 * whether together they are the complete register.
 *
 * Companies House names them `BasicCompanyDataAsOneFile-YYYY-MM-DD.zip` (the whole register) or
 * `BasicCompanyData-YYYY-MM-DD-partN_M.zip` (one of M parts); each zip holds one CSV of the same
 * name. A CSV may also be given unzipped.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { openZipFile, streamZipMember } from './zip-reader.ts';

export interface RegisterFileName {
  date: string;
  part: { index: number; of: number } | null;
}

export function parseRegisterFileName(path: string): RegisterFileName | null {
  const name = basename(path);
  const whole = /^BasicCompanyDataAsOneFile-(\d{4}-\d{2}-\d{2})\.(csv|zip)$/i.exec(name);
  if (whole) return { date: whole[1]!, part: null };
  const part = /^BasicCompanyData-(\d{4}-\d{2}-\d{2})-part(\d+)_(\d+)\.(csv|zip)$/i.exec(name);
  if (part) return { date: part[1]!, part: { index: Number(part[2]), of: Number(part[3]) } };
  return null;
}

export interface RegisterInputs {
  files: string[];
  /** From the file names, or null when they do not say. */
  snapshotDate: string | null;
  /** True when the files named the whole register: one AsOneFile, or every part 1..M. */
  complete: boolean;
  problems: string[];
}

/** Expand folders and decide what the given paths amount to. */
export async function describeRegisterInputs(paths: readonly string[]): Promise<RegisterInputs> {
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
      for (const entry of (await readdir(path)).sort()) {
        if (/\.(csv|zip)$/i.test(entry)) files.push(join(path, entry));
      }
    } else files.push(path);
  }
  const names = files.map(parseRegisterFileName);
  const dates = new Set(names.filter((n) => n !== null).map((n) => n.date));
  if (dates.size > 1) problems.push(`the files are from different snapshots: ${[...dates].join(', ')}`);
  const snapshotDate = dates.size === 1 ? [...dates][0]! : null;
  const whole = names.some((n) => n !== null && n.part === null);
  const parts = names.filter((n): n is RegisterFileName & { part: { index: number; of: number } } => n?.part != null);
  const partCount = parts[0]?.part.of ?? 0;
  const allParts =
    parts.length > 0 &&
    new Set(parts.map((p) => p.part.index)).size === partCount &&
    parts.every((p) => p.part.of === partCount);
  return { files, snapshotDate, complete: names.every((n) => n !== null) && (whole || allParts), problems };
}

export interface CsvSource {
  /** The file, and the member for a zip. */
  label: string;
  /** Uncompressed size in bytes, for estimating how many rows are to come. */
  size: number;
  /** The input file, and the CSV's name inside it when the file is a zip. */
  file: string;
  member: string | null;
}

/**
 * How the register CSV is read: a byte-order mark is dropped, and rows of another length or with
 * a quote inside an unquoted field (the register has both) are read as they are.
 */
export const REGISTER_CSV_DIALECT = { bom: true, relax_column_count: true, relax_quotes: true } as const;

export async function openCsvSource({ file, member }: Pick<CsvSource, 'file' | 'member'>): Promise<Readable> {
  return member === null ? createReadStream(file) : streamZipMember(file, member);
}

/** The CSV streams inside one input file: itself, or each .csv member of a zip. */
export async function csvSources(file: string): Promise<CsvSource[]> {
  if (!/\.zip$/i.test(file)) return [{ label: file, size: (await stat(file)).size, file, member: null }];
  const zip = await openZipFile(file);
  const members: CsvSource[] = [];
  const found: { name: string; size: number }[] = [];
  for await (const member of zip.members()) found.push({ name: member.name, size: member.uncompressedSize });
  zip.close();
  for (const { name, size } of found) {
    if (!/\.csv$/i.test(name)) continue;
    members.push({ label: `${file}!${name}`, size, file, member: name });
  }
  if (members.length === 0) throw new Error(`${file} holds no .csv file`);
  return members;
}
