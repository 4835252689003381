/**
 * Reads the hand-checked values of shared/samples/MANIFEST.md into the parser's terms, so the
 * sample test compares against the manifest itself rather than a copy of it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountingStandard, FigureKey } from '../../src/domain/figures.ts';
import { samplesDir } from './samples.ts';

export interface ManifestRow {
  index: number;
  file: string;
  company_number: string;
  balance_sheet_date: string;
  standard: AccountingStandard;
  figures: Partial<Record<FigureKey, number | null>>;
  notes: string;
}

const NUMBER_COLUMNS: Record<string, FigureKey> = {
  net_assets: 'net_assets',
  equity: 'equity',
  cash: 'cash',
  current_assets: 'current_assets',
  turnover: 'turnover',
  debtors: 'debtors',
  employees: 'employees',
  profit: 'profit',
  talcl: 'total_assets_less_current_liabilities',
};

/** "FRS 102 s1A", "old UK GAAP (2009 taxonomy)", "plain XBRL (uk-gaap-ae …)" -> the contract's names. */
function standardOf(text: string): AccountingStandard {
  if (text.startsWith('FRS 105')) return 'FRS 105';
  if (text.startsWith('FRS 102')) return 'FRS 102';
  if (text.startsWith('IFRS')) return 'IFRS';
  if (/UK GAAP|plain XBRL/.test(text)) return 'UK GAAP';
  throw new Error(`manifest standard not understood: ${text}`);
}

function amount(text: string): number | null {
  const t = text.trim();
  if (t === 'null') return null;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new Error(`manifest value not understood: ${text}`);
  return n;
}

/** "W=6719; A=0", "T=14275", "null" -> creditors, within and after one year per the contract. */
function creditors(text: string): Partial<Record<FigureKey, number | null>> {
  const parts = new Map<string, number>();
  if (text.trim() !== 'null') {
    for (const part of text.split(';')) {
      const m = /^\s*([TWA])=(-?\d+(?:\.\d+)?)\s*$/.exec(part);
      if (!m) throw new Error(`manifest creditors not understood: ${text}`);
      parts.set(m[1]!, Number(m[2]));
    }
  }
  return {
    creditors: parts.get('T') ?? parts.get('W') ?? null,
    creditors_within_one_year: parts.get('W') ?? null,
    creditors_after_one_year: parts.get('A') ?? null,
  };
}

export function readManifest(): ManifestRow[] {
  const text = readFileSync(join(samplesDir, 'MANIFEST.md'), 'utf8');
  const lines = text.split('\n').filter((line) => line.startsWith('|'));
  const header = lines[0]!.split('|').map((cell) => cell.trim());
  const column = (name: string) => {
    const at = header.indexOf(name);
    if (at < 0) throw new Error(`manifest has no column ${name}`);
    return at;
  };
  const rows: ManifestRow[] = [];
  for (const line of lines.slice(2)) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (!/^\d+$/.test(cells[1] ?? '')) continue;
    const figures: ManifestRow['figures'] = creditors(cells[column('creditors')]!);
    for (const [name, key] of Object.entries(NUMBER_COLUMNS)) figures[key] = amount(cells[column(name)]!);
    rows.push({
      index: Number(cells[1]),
      file: cells[column('file')]!,
      company_number: cells[column('company_number')]!,
      balance_sheet_date: cells[column('bs_date')]!,
      standard: standardOf(cells[column('standard')]!),
      figures,
      notes: cells[column('notes')] ?? '',
    });
  }
  return rows;
}
