/**
 * The hand-read values of the scanned accounts samples ($SAMPLES_DIR/pdf/MANIFEST.md), and the
 * scoring of the reader's results against them by the targets of docs/pdf-accounts.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FigureKey } from '../../src/domain/figures.ts';

const SCORED_KEYS = [
  'net_assets',
  'equity',
  'total_assets_less_current_liabilities',
  'cash',
  'current_assets',
  'creditors_within_one_year',
  'creditors_after_one_year',
  'debtors',
  'turnover',
  'profit',
  'employees',
] as const satisfies readonly FigureKey[];

type ScoredKey = (typeof SCORED_KEYS)[number];

export interface Sample {
  file: string;
  company_number: string;
  balance_sheet_date: string;
  /** What the printed numbers are multiplied by to be pounds (1000 under a £000 header). */
  scale: number;
  /** null where the document does not show the figure (`n/s`). */
  values: Record<ScoredKey, number | null>;
  prior_net_assets: number | null;
}

const COLUMNS: Record<string, ScoredKey> = {
  net_assets: 'net_assets',
  equity: 'equity',
  TALCL: 'total_assets_less_current_liabilities',
  cash: 'cash',
  current_assets: 'current_assets',
  creditors_within_one_year: 'creditors_within_one_year',
  creditors_after_one_year: 'creditors_after_one_year',
  debtors: 'debtors',
  turnover: 'turnover',
  profit: 'profit',
  employees: 'employees',
};

function cell(text: string, where: string): number | null {
  if (text === 'n/s') return null;
  if (!/^-?\d+$/.test(text)) throw new Error(`${where}: "${text}" is neither a whole number nor n/s`);
  return Number(text);
}

export function readManifest(samplesDir: string): { dir: string; samples: Sample[] } {
  const dir = join(samplesDir, 'pdf');
  const path = join(dir, 'MANIFEST.md');
  const lines = readFileSync(path, 'utf8').split('\n');
  const headerAt = lines.findIndex((line) => line.startsWith('| # | file |'));
  if (headerAt < 0) throw new Error(`${path}: no values table`);
  const header = lines[headerAt]!.split('|').map((c) => c.trim());
  const samples: Sample[] = [];
  for (let i = headerAt + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const cells = lines[i]!.split('|').map((c) => c.trim());
    const at = (name: string) => cells[header.indexOf(name)]!;
    const where = `${path} line ${i + 1}`;
    const values = Object.fromEntries(
      Object.entries(COLUMNS).map(([column, key]) => [key, cell(at(column), `${where}, ${column}`)]),
    ) as Record<ScoredKey, number | null>;
    samples.push({
      file: at('file').replace(/`/g, ''),
      company_number: at('company_number'),
      balance_sheet_date: at('balance_sheet_date'),
      scale: cell(at('scale'), `${where}, scale`) ?? 1,
      values,
      prior_net_assets: cell(at('prior net_assets'), `${where}, prior net_assets`),
    });
  }
  return { dir, samples };
}

interface Reported {
  company_number: string;
  balance_sheet_date: string;
  current: Record<FigureKey, number | null>;
  confidence: Partial<Record<FigureKey, string>>;
}

export interface Score {
  files: number;
  identityRight: number;
  shown: number;
  reportedOfShown: number;
  high: number;
  highRight: number;
  /** Figures equal to the document's prior-year value where the current one differs. */
  priorAsCurrent: string[];
  /** Every wrong figure, for the failure message. */
  wrong: string[];
}

export function score(results: ReadonlyArray<{ sample: Sample; reported: Reported | null }>): Score {
  const s: Score = {
    files: results.length,
    identityRight: 0,
    shown: 0,
    reportedOfShown: 0,
    high: 0,
    highRight: 0,
    priorAsCurrent: [],
    wrong: [],
  };
  for (const { sample, reported } of results) {
    if (
      reported &&
      reported.company_number === sample.company_number &&
      reported.balance_sheet_date === sample.balance_sheet_date
    )
      s.identityRight++;
    else s.wrong.push(`${sample.file}: identity ${reported?.company_number} ${reported?.balance_sheet_date}`);
    for (const key of SCORED_KEYS) {
      const expected = sample.values[key];
      const got = reported?.current[key] ?? null;
      if (expected !== null) s.shown++;
      if (expected !== null && got !== null) s.reportedOfShown++;
      if (got === null) continue;
      const confidence = reported!.confidence[key];
      if (confidence === 'high') {
        s.high++;
        if (got === expected) s.highRight++;
      }
      if (got !== expected)
        s.wrong.push(`${sample.file}: ${key} ${got} (${confidence}), document ${expected ?? 'n/s'}`);
    }
    const na = reported?.current.net_assets ?? null;
    if (
      na !== null &&
      sample.prior_net_assets !== null &&
      sample.prior_net_assets !== sample.values.net_assets &&
      na === sample.prior_net_assets
    )
      s.priorAsCurrent.push(`${sample.file}: net_assets ${na} is the prior year's`);
  }
  return s;
}
