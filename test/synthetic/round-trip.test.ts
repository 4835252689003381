/**
 * Known figures in, the same figures out: the parser reads every generated filing exactly as the
 * generator says it was written, across all four styles, eras and seeds.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyFigures } from '../../src/domain/figures.ts';
import type { FigureSet } from '../../src/domain/figures.ts';
import { syntheticCompany } from '../../src/synthetic/companies.ts';
import type { IxbrlStyle, SyntheticCompany } from '../../src/synthetic/companies.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import type { SyntheticFiling } from '../../src/synthetic/filings.ts';
import { renderIxbrlFiling } from '../../src/synthetic/ixbrl-writer.ts';
import type { FilingInput } from '../../src/synthetic/ixbrl-writer.ts';
import { Random } from '../../src/synthetic/random.ts';
import { renderPlainXbrlFiling } from '../../src/synthetic/xbrl-writer.ts';
import { readBack } from './expectations.ts';

describe('generated filings parse to their known figures', () => {
  const runs: { seed: number; fromYear: number; years: number; companies: number }[] = [
    { seed: 1, fromYear: 2009, years: 5, companies: 40 },
    { seed: 2, fromYear: 2012, years: 5, companies: 40 },
    { seed: 3, fromYear: 2016, years: 3, companies: 40 },
    { seed: 4, fromYear: 2020, years: 4, companies: 40 },
    { seed: 99, fromYear: 2022, years: 2, companies: 60 },
  ];
  const styles = new Map<string, number>();
  for (const run of runs) {
    test(`seed ${run.seed}, balance sheets from ${run.fromYear} for ${run.years} years`, () => {
      let count = 0;
      for (const filing of syntheticFilings({
        seed: run.seed,
        companies: run.companies,
        yearsPerCompany: run.years,
        fromYear: run.fromYear,
      })) {
        assert.deepStrictEqual(readBack(filing), filing.expected, filing.fileName);
        styles.set(filing.style, (styles.get(filing.style) ?? 0) + 1);
        count++;
      }
      assert.ok(count >= run.companies, `${count} filings`);
    });
  }
  test('the runs above covered every style, several hundred filings in all', () => {
    const total = [...styles.values()].reduce((a, b) => a + b, 0);
    assert.ok(total >= 500, `${total} filings`);
    for (const style of ['frs105', 'frs102', 'ukgaap2009', 'xbrl-plain']) {
      assert.ok((styles.get(style) ?? 0) >= 20, `${style}: ${styles.get(style) ?? 0}`);
    }
  });
});

describe('the writers on hand-made figures', () => {
  const company: SyntheticCompany = {
    ...syntheticCompany(1, 0),
    company_number: '01234567',
    name: "O'BRIEN & DAUGHTERS <TRADING> LIMITED",
    legalForm: 'private-limited',
    size: 'small',
    sector: 'trade',
    shareCapital: 100,
    group: false,
    inThousands: false,
  };
  const figures = (values: Partial<FigureSet>): FigureSet => ({ ...emptyFigures(), ...values });
  const base = figures({
    net_assets: 1500,
    equity: 1500,
    total_assets_less_current_liabilities: 4000,
    current_assets: 9000,
    creditors: 7000,
    creditors_within_one_year: 7000,
    creditors_after_one_year: 2500,
  });
  const cases: { name: string; style: IxbrlStyle | 'xbrl-plain'; current: FigureSet; prior: FigureSet | null }[] = [
    {
      name: 'FRS 105 with a prior year',
      style: 'frs105',
      current: base,
      prior: { ...base, net_assets: 900, equity: 900 },
    },
    {
      name: 'FRS 105 that also files cash, debtors and turnover',
      style: 'frs105',
      current: { ...base, cash: 2500, debtors: 6500, turnover: 61_000, profit: 5200, employees: 1 },
      prior: { ...base, cash: 1000, debtors: 8000, turnover: 58_000, profit: -700, employees: 1 },
    },
    {
      name: 'FRS 105 net liabilities, shown in brackets outside a sign="-" tag',
      style: 'frs105',
      current: { ...base, net_assets: -577, equity: -577, total_assets_less_current_liabilities: 1923 },
      prior: null,
    },
    {
      name: 'FRS 102 with nil long-term creditors shown as a dash',
      style: 'frs102',
      current: {
        ...base,
        creditors_after_one_year: 0,
        total_assets_less_current_liabilities: 1500,
        cash: 2000,
        debtors: 6000,
      },
      prior: {
        ...base,
        creditors_after_one_year: 0,
        total_assets_less_current_liabilities: 1500,
        cash: 0,
        debtors: 9000,
      },
    },
    {
      name: 'FRS 102 with only the undimensioned creditors total',
      style: 'frs102',
      current: { ...base, creditors_within_one_year: null, employees: 4, turnover: 250_000, profit: -3000 },
      prior: { ...base, creditors_within_one_year: null, employees: 0, turnover: 200_000, profit: 12_000 },
    },
    {
      name: 'FRS 102 with equity only by class',
      style: 'frs102',
      current: { ...base, equity: null },
      prior: { ...base, equity: null },
    },
    {
      name: 'UK GAAP 2009 with turnover and a loss',
      style: 'ukgaap2009',
      current: { ...base, turnover: 80_000, profit: -1200, employees: 2 },
      prior: { ...base, turnover: 95_000, profit: 4000, employees: 3 },
    },
    {
      name: 'plain XBRL abbreviated accounts',
      style: 'xbrl-plain',
      current: { ...base, cash: 3000, debtors: 5000 },
      prior: null,
    },
  ];
  for (const { name, style, current, prior } of cases) {
    test(name, () => {
      for (let seed = 0; seed < 25; seed++) {
        const input: FilingInput = {
          company,
          balanceSheetDate: '2022-03-31',
          periodStart: prior ? '2021-04-01' : '2020-11-16',
          current,
          prior,
          priorBalanceSheetDate: prior ? '2021-03-31' : null,
          priorPeriodStart: prior ? '2020-04-01' : null,
          style: style === 'xbrl-plain' ? 'frs102' : style,
        };
        const text =
          style === 'xbrl-plain'
            ? renderPlainXbrlFiling(input, new Random(seed))
            : renderIxbrlFiling(input, new Random(seed));
        const fileName = `Prod223_3001_01234567_20220331.${style === 'xbrl-plain' ? 'xml' : 'html'}`;
        const expected: SyntheticFiling['expected'] = {
          company_number: '01234567',
          entity_name: company.name,
          balance_sheet_date: '2022-03-31',
          period_start: input.periodStart,
          standard: style === 'frs105' ? 'FRS 105' : style === 'frs102' ? 'FRS 102' : 'UK GAAP',
          current,
          prior,
        };
        assert.deepStrictEqual(readBack({ bytes: Buffer.from(text), fileName }), expected, `seed ${seed}`);
      }
    });
  }
});
