/**
 * Synthetic companies and their figure histories: realistic identities, the accounting
 * identities, what each style discloses, and trajectories that move.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FIGURE_KEYS } from '../../src/domain/figures.ts';
import { styleFor, syntheticCompany } from '../../src/synthetic/companies.ts';
import type { SyntheticCompany } from '../../src/synthetic/companies.ts';
import { figureHistory } from '../../src/synthetic/figure-history.ts';
import type { FigureYear } from '../../src/synthetic/figure-history.ts';
import { addDays, yearOf } from '../../src/synthetic/dates.ts';
import { Random } from '../../src/synthetic/random.ts';

const COMPANIES: SyntheticCompany[] = Array.from({ length: 3000 }, (_, i) => syntheticCompany(20260101, i));
const HISTORIES: { company: SyntheticCompany; years: FigureYear[] }[] = COMPANIES.slice(0, 1500).map((company, i) => ({
  company,
  years: figureHistory(company, 6, new Random(i), [2009, 2013, 2017, 2020][i % 4]),
}));
const ALL_YEARS = HISTORIES.flatMap((h) => h.years);

function share(items: readonly unknown[], count: number): number {
  return count / items.length;
}

describe('syntheticCompany', () => {
  test('is a pure function of seed and index', () => {
    assert.deepEqual(syntheticCompany(5, 17), syntheticCompany(5, 17));
    assert.notDeepEqual(syntheticCompany(5, 17), syntheticCompany(6, 17));
  });

  const numberShapes: { name: string; pattern: RegExp; form: string; min: number; max: number }[] = [
    { name: 'England and Wales: eight digits', pattern: /^\d{8}$/, form: 'private-limited|plc', min: 0.8, max: 0.92 },
    { name: 'Scotland: SC and six digits', pattern: /^SC\d{6}$/, form: 'private-limited|plc', min: 0.04, max: 0.1 },
    {
      name: 'Northern Ireland: NI and six digits',
      pattern: /^NI\d{6}$/,
      form: 'private-limited|plc',
      min: 0.01,
      max: 0.05,
    },
    { name: 'LLPs: OC and six digits', pattern: /^OC\d{6}$/, form: 'llp', min: 0.02, max: 0.06 },
  ];
  for (const { name, pattern, form, min, max } of numberShapes) {
    test(`company numbers, ${name}`, () => {
      const matching = COMPANIES.filter((c) => pattern.test(c.company_number));
      assert.ok(
        share(COMPANIES, matching.length) >= min && share(COMPANIES, matching.length) <= max,
        `${matching.length}`,
      );
      for (const c of matching) assert.match(c.legalForm, new RegExp(`^(${form})$`), c.company_number);
    });
  }

  test('numbers are unique and eight characters long', () => {
    const numbers = COMPANIES.map((c) => c.company_number);
    assert.equal(new Set(numbers).size, numbers.length);
    for (const n of numbers) assert.equal(n.length, 8);
  });

  test('names read like the register: LLPs end in LLP, PLCs in PLC, the rest in LIMITED or LTD', () => {
    for (const c of COMPANIES) {
      const suffix = c.legalForm === 'llp' ? / LLP$/ : c.legalForm === 'plc' ? / PLC$/ : / (LIMITED|LTD)$/;
      assert.match(c.name, suffix, c.name);
      assert.equal(c.name, c.name.toUpperCase());
      assert.doesNotMatch(c.name, / {2}|LTD LTD|LIMITED LTD/);
    }
    assert.ok(new Set(COMPANIES.map((c) => c.name)).size > COMPANIES.length * 0.95, 'names are varied');
  });

  test('incorporation dates are real dates, older for lower numbers', () => {
    for (const c of COMPANIES) {
      assert.match(c.incorporated, /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(addDays(c.incorporated, 0), c.incorporated);
      // The sequences run on to 2028, so that snapshots up to then list newly incorporated companies.
      assert.ok(yearOf(c.incorporated) >= 1900 && yearOf(c.incorporated) <= 2028, c.incorporated);
    }
    const digits = COMPANIES.filter((c) => /^\d{8}$/.test(c.company_number));
    const old = digits.filter((c) => c.company_number < '03000000');
    const recent = digits.filter((c) => c.company_number > '12000000');
    for (const c of old) assert.ok(c.incorporated < '1996-01-01', `${c.company_number} ${c.incorporated}`);
    for (const c of recent) assert.ok(c.incorporated > '2019-01-01', `${c.company_number} ${c.incorporated}`);
  });

  test('sizes and styles come in realistic proportions', () => {
    const micro = COMPANIES.filter((c) => c.size === 'micro').length;
    const dormant = COMPANIES.filter((c) => c.size === 'dormant').length;
    assert.ok(share(COMPANIES, micro) > 0.55 && share(COMPANIES, micro) < 0.75);
    assert.ok(share(COMPANIES, dormant) > 0.05 && share(COMPANIES, dormant) < 0.14);
    for (const style of ['frs105', 'frs102', 'ukgaap2009', 'xbrl-plain'] as const) {
      assert.ok(
        COMPANIES.some((c) => c.accountsStyle === style),
        style,
      );
    }
  });
});

describe('styleFor: each format only in its era', () => {
  const eras: { years: [number, number]; allowed: string[] }[] = [
    { years: [2008, 2010], allowed: ['xbrl-plain'] },
    { years: [2011, 2013], allowed: ['xbrl-plain', 'ukgaap2009'] },
    { years: [2014, 2015], allowed: ['ukgaap2009'] },
    { years: [2016, 2016], allowed: ['ukgaap2009', 'frs105', 'frs102'] },
    { years: [2017, 2025], allowed: ['frs105', 'frs102'] },
  ];
  for (const { years, allowed } of eras) {
    test(`${years[0]}–${years[1]}: ${allowed.join(', ')}`, () => {
      for (let year = years[0]; year <= years[1]; year++) {
        for (const c of COMPANIES.slice(0, 500)) assert.ok(allowed.includes(styleFor(c, `${year}-06-30`)), `${year}`);
      }
    });
  }
});

describe('figureHistory', () => {
  test('periods follow on: each starts the day after the last ended, twelve months apart', () => {
    for (const { company, years } of HISTORIES) {
      for (const [i, y] of years.entries()) {
        assert.ok(y.periodStart < y.balanceSheetDate);
        if (y.periodIndex === 0) {
          assert.equal(y.periodStart, company.incorporated);
          assert.equal(y.priorFigures, null);
        } else {
          assert.equal(y.periodStart, addDays(y.priorBalanceSheetDate!, 1));
          assert.equal(yearOf(y.balanceSheetDate) - yearOf(y.priorBalanceSheetDate!), 1);
        }
        if (i > 0) assert.equal(y.priorBalanceSheetDate, years[i - 1]!.balanceSheetDate);
      }
    }
  });

  test('the books obey the accounting identities', () => {
    for (const y of ALL_YEARS) {
      const a = y.actual;
      assert.equal(a.net_assets, a.equity);
      assert.equal(a.total_assets_less_current_liabilities! - a.creditors_after_one_year! - y.provisions, a.net_assets);
      assert.ok(a.current_assets! >= a.cash! + a.debtors!);
      assert.equal(a.creditors, a.creditors_within_one_year);
      assert.ok(a.cash! >= 0 && a.debtors! >= 0 && a.turnover! >= 0 && a.employees! >= 0 && y.provisions >= 0);
      for (const key of FIGURE_KEYS) assert.ok(Number.isInteger(a[key]), `${key} ${a[key]}`);
    }
  });

  test('filed figures are the books or null, never a stand-in zero', () => {
    for (const y of ALL_YEARS) {
      for (const key of FIGURE_KEYS) {
        const filed = y.figures[key];
        assert.ok(filed === null || filed === y.actual[key], `${key}: ${filed} vs ${y.actual[key]}`);
      }
      assert.ok(y.figures.net_assets !== null || y.figures.equity !== null, 'something to read');
      for (const figures of [y.figures, y.priorFigures]) {
        if (!figures) continue;
        if (figures.creditors !== null && figures.creditors_within_one_year !== null) {
          assert.equal(figures.creditors, figures.creditors_within_one_year);
        }
        // The prior column tags exactly the lines of the current one.
        for (const key of FIGURE_KEYS) assert.equal(figures[key] === null, y.figures[key] === null, key);
      }
    }
  });

  const disclosure: {
    style: string;
    check: (years: FigureYear[]) => void;
  }[] = [
    {
      style: 'frs105',
      check: (years) => {
        for (const y of years) assert.ok(y.figures.cash === null && y.figures.debtors === null);
        const withTurnover = years.filter((y) => y.figures.turnover !== null).length;
        assert.ok(share(years, withTurnover) > 0 && share(years, withTurnover) < 0.15, `${withTurnover}`);
        const recent = years.filter((y) => y.balanceSheetDate >= '2017-01-01');
        assert.ok(share(recent, recent.filter((y) => y.figures.employees !== null).length) > 0.7);
      },
    },
    {
      style: 'frs102',
      check: (years) => {
        assert.ok(share(years, years.filter((y) => y.figures.cash !== null).length) > 0.7);
        assert.ok(share(years, years.filter((y) => y.figures.debtors !== null).length) > 0.7);
        assert.ok(share(years, years.filter((y) => y.figures.creditors_within_one_year !== null).length) > 0.8);
        const withTurnover = years.filter((y) => y.figures.turnover !== null).length;
        assert.ok(withTurnover > 0 && share(years, withTurnover) < 0.6);
      },
    },
    {
      style: 'ukgaap2009',
      check: (years) => {
        assert.ok(share(years, years.filter((y) => y.figures.cash !== null).length) > 0.6);
        for (const y of years) {
          // No undimensioned Creditors concept in the old taxonomy: the total is the within-one-year amount.
          assert.equal(y.figures.creditors, y.figures.creditors_within_one_year);
        }
      },
    },
    {
      style: 'xbrl-plain',
      check: (years) => {
        for (const y of years) assert.ok(y.figures.turnover === null && y.figures.profit === null);
        assert.ok(
          share(years, years.filter((y) => y.figures.total_assets_less_current_liabilities !== null).length) > 0.8,
        );
      },
    },
  ];
  for (const { style, check } of disclosure) {
    test(`what ${style} filings tag`, () => {
      const years = ALL_YEARS.filter((y) => y.style === style);
      assert.ok(years.length > 100, `${years.length} ${style} years`);
      check(years);
    });
  }

  test('trajectories move: growth and decline, losses, negative net assets, cash swings', () => {
    const trading = HISTORIES.filter((h) => h.company.size !== 'dormant');
    const pairs = trading.flatMap((h) => h.years.slice(1).map((y, i) => [h.years[i]!.actual, y.actual] as const));
    const grew = pairs.filter(([a, b]) => b.turnover! > a.turnover! * 1.05).length;
    const shrank = pairs.filter(([a, b]) => b.turnover! < a.turnover! * 0.95).length;
    const swung = pairs.filter(([a, b]) => Math.abs(b.cash! - a.cash!) > Math.max(a.cash!, b.cash!) * 0.5).length;
    const years = trading.flatMap((h) => h.years);
    const losses = years.filter((y) => y.actual.profit! < 0).length;
    const negative = years.filter((y) => y.actual.net_assets! < 0).length;
    assert.ok(share(pairs, grew) > 0.2, `grew ${grew}`);
    assert.ok(share(pairs, shrank) > 0.1, `shrank ${shrank}`);
    assert.ok(share(pairs, swung) > 0.15, `cash swung ${swung}`);
    assert.ok(share(years, losses) > 0.08 && share(years, losses) < 0.5, `losses ${losses}`);
    assert.ok(share(years, negative) > 0.04 && share(years, negative) < 0.4, `negative net assets ${negative}`);
  });

  test('companies in thousands keep every amount in thousands', () => {
    const round = HISTORIES.filter((h) => h.company.inThousands).flatMap((h) => h.years);
    assert.ok(round.length > 0);
    for (const y of round) {
      for (const key of FIGURE_KEYS) {
        if (key !== 'employees') assert.equal(Math.abs(y.actual[key]!) % 1000, 0, `${key} ${y.actual[key]}`);
      }
    }
  });
});
