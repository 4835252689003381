/**
 * What the round-trip tests compare: the parser's reading of a generated filing, in the shape of
 * the generator's `expected`.
 */
import assert from 'node:assert/strict';
import { parseFiling } from '../../src/accounts/parse-filing.ts';
import type { ExpectedFiling, SyntheticFiling } from '../../src/synthetic/filings.ts';

export type Reading = Omit<ExpectedFiling, 'standard'> & { standard: string };

/** Parse a generated filing and keep the fields `expected` describes; fail on a parse failure. */
export function readBack(filing: Pick<SyntheticFiling, 'bytes' | 'fileName'>): Reading {
  const result = parseFiling(filing.bytes, filing.fileName);
  if (!result.ok) assert.fail(`${filing.fileName}: ${result.failure.error.code}: ${result.failure.error.message}`);
  const f = result.filing;
  return {
    company_number: f.company_number,
    entity_name: f.entity_name ?? '',
    balance_sheet_date: f.balance_sheet_date,
    period_start: f.period_start,
    standard: f.standard,
    current: f.current,
    prior: f.prior,
  };
}
