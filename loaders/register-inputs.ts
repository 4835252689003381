/**
 * What register snapshot files a load was given: their CSV streams in order, the snapshot date and
 * whether together they are the complete register.
 *
 * Companies House names them `BasicCompanyDataAsOneFile-YYYY-MM-DD.zip` (the whole register) or
 * `BasicCompanyData-YYYY-MM-DD-partN_M.zip` (one of M parts); each zip holds one CSV of the same
 * name. A CSV may also be given unzipped.
 */
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { inputParts, openInputPart, scanSnapshotInputs } from './skeleton/snapshot-inputs.ts';
import type { InputPart, SnapshotFileName } from './skeleton/snapshot-inputs.ts';

export type RegisterFileName = SnapshotFileName;

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
  /** The parts missing from a set of part files ("part 2 of 3 is missing"), null when none are. */
  missing: string | null;
  problems: string[];
}

/** Expand folders and decide what the given paths amount to. */
export async function describeRegisterInputs(paths: readonly string[]): Promise<RegisterInputs> {
  const { named, dates, problems } = await scanSnapshotInputs(paths, {
    accepts: /\.(csv|zip)$/i,
    parseName: parseRegisterFileName,
  });
  if (dates.length > 1) problems.push(`the files are from different snapshots: ${dates.join(', ')}`);
  const names = named.map(({ name }) => name);
  const whole = names.some((n) => n !== null && n.part === null);
  const parts = names.filter((n): n is RegisterFileName & { part: { index: number; of: number } } => n?.part != null);
  const partCount = parts[0]?.part.of ?? 0;
  const allParts =
    parts.length > 0 &&
    new Set(parts.map((p) => p.part.index)).size === partCount &&
    parts.every((p) => p.part.of === partCount);
  const present = new Set(parts.map((p) => p.part.index));
  const absent = Array.from({ length: partCount }, (_, i) => i + 1).filter((i) => !present.has(i));
  return {
    missing:
      absent.length === 0
        ? null
        : `part${absent.length > 1 ? 's' : ''} ${absent.join(', ')} of ${partCount} ${absent.length > 1 ? 'are' : 'is'} missing: load every part together to mark the companies no longer listed`,
    files: named.map(({ file }) => file),
    snapshotDate: dates.length === 1 ? dates[0]! : null,
    complete: names.every((n) => n !== null) && (whole || allParts),
    problems,
  };
}

/** A CSV stream of the load: the input file, or a .csv member of an input zip. */
export type CsvSource = InputPart;

/**
 * How the register CSV is read: a byte-order mark is dropped, and rows of another length or with
 * a quote inside an unquoted field (the register has both) are read as they are.
 */
export const REGISTER_CSV_DIALECT = { bom: true, relax_column_count: true, relax_quotes: true } as const;

export function openCsvSource(source: Pick<CsvSource, 'file' | 'member'>): Promise<Readable> {
  return openInputPart(source);
}

/** The CSV streams inside one input file: itself, or each .csv member of a zip. */
export function csvSources(file: string): Promise<CsvSource[]> {
  return inputParts(file, { members: /\.csv$/i, what: '.csv file' });
}
