/**
 * Register CSVs for loader tests, built from the real sample rows: same header, same quoting,
 * with company numbers (and optionally fields) changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { registerSamplesDir } from './samples.ts';

const text = readFileSync(join(registerSamplesDir, 'basic-sample.csv'), 'utf8');
const sampleHeaderLine = text.slice(0, text.indexOf('\n')).replace(/\r$/, '');
const [header, ...sampleRows] = parse(text, { relax_column_count: true }) as string[][];
export const sampleHeader = header!;

function csvLine(values: readonly string[]): string {
  return values.map((v) => `"${v.replace(/"/g, '""')}"`).join(',');
}

export function columnOf(name: string): number {
  const at = sampleHeader!.findIndex((h) => h.trim() === name);
  if (at < 0) throw new Error(`no column ${name}`);
  return at;
}

/** `count` rows cloned from the samples, numbered from `first`, each passed through `edit`. */
export function registerRows(
  count: number,
  first = 1,
  edit: (row: string[], i: number) => void = () => undefined,
): string[][] {
  const number = columnOf('CompanyNumber');
  const name = columnOf('CompanyName');
  return Array.from({ length: count }, (_, i) => {
    const row = [...sampleRows[i % sampleRows.length]!];
    row[number] = String(first + i).padStart(8, '0');
    row[name] = `${row[name]} ${first + i}`;
    edit(row, i);
    return row;
  });
}

export function writeRegisterCsv(path: string, rows: readonly (readonly string[])[], extraLines: string[] = []): void {
  writeFileSync(path, [sampleHeaderLine, ...rows.map(csvLine), ...extraLines].join('\r\n') + '\r\n');
}
