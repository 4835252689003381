/**
 * The books behind a synthetic company's accounts, period by period: turnover that grows or
 * shrinks around a drifting trend, margins that wander and sometimes turn into losses, dividends,
 * fixed assets that depreciate, loans that are repaid (and the 2020 Bounce Back Loans), and cash
 * as the balancing item, so the balance sheet always balances:
 *
 *   current assets = cash + debtors + stock
 *   total assets less current liabilities = fixed assets + current assets - creditors within one year
 *   net assets = that - creditors after one year - provisions = equity
 *
 * When cash would go negative the shortfall becomes a bank overdraft inside creditors within one
 * year, as it does in real accounts.
 */
import type { SizeProfile, Sector, SyntheticCompany } from './companies.ts';
import { dayNumber } from './dates.ts';
import type { AccountingPeriod } from './periods.ts';
import type { Random } from './random.ts';

export interface Books {
  turnover: number;
  /** After tax. */
  profit: number;
  employees: number;
  fixedAssets: number;
  stock: number;
  debtors: number;
  cash: number;
  creditorsWithinOneYear: number;
  creditorsAfterOneYear: number;
  provisions: number;
  equity: number;
}

interface Drivers {
  /** Turnover for a full year at the current run rate. */
  annualTurnover: number;
  trend: number;
  baseTrend: number;
  volatility: number;
  margin: number;
  baseMargin: number;
  payout: number;
  debtorDays: number;
  stockRatio: number;
  payableRatio: number;
  assetIntensity: number;
  depreciationRate: number;
  provisionRate: number;
}

export interface EconomyState {
  books: Books;
  drivers: Drivers;
}

interface SectorShape {
  assetIntensity: number;
  stockRatio: number;
  debtorDays: number;
  payableRatio: number;
  margin: number;
}

const SECTOR_SHAPES: Record<Sector, SectorShape> = {
  services: { assetIntensity: 0.08, stockRatio: 0, debtorDays: 45, payableRatio: 0.14, margin: 0.08 },
  trade: { assetIntensity: 0.05, stockRatio: 0.12, debtorDays: 28, payableRatio: 0.17, margin: 0.03 },
  construction: { assetIntensity: 0.1, stockRatio: 0.05, debtorDays: 55, payableRatio: 0.2, margin: 0.05 },
  manufacturing: { assetIntensity: 0.35, stockRatio: 0.15, debtorDays: 60, payableRatio: 0.19, margin: 0.05 },
  property: { assetIntensity: 8, stockRatio: 0, debtorDays: 15, payableRatio: 0.12, margin: 0.25 },
  holding: { assetIntensity: 1.5, stockRatio: 0, debtorDays: 10, payableRatio: 0.05, margin: 0.1 },
};

/** Annual turnover: median, log spread, floor and ceiling for each size. */
const TURNOVER: Record<SizeProfile, readonly [number, number, number, number]> = {
  dormant: [0, 0, 0, 0],
  micro: [55_000, 0.8, 3_000, 630_000],
  small: [1_400_000, 0.7, 250_000, 10_000_000],
  medium: [18_000_000, 0.4, 8_000_000, 36_000_000],
  large: [90_000_000, 0.8, 36_000_000, 1_500_000_000],
};

const EMPLOYEES: Record<SizeProfile, readonly [number, number, number]> = {
  // turnover per head, minimum, maximum
  dormant: [1, 0, 0],
  micro: [45_000, 0, 9],
  small: [90_000, 3, 49],
  medium: [120_000, 50, 249],
  large: [150_000, 250, 60_000],
};

const VOLATILITY: Record<SizeProfile, number> = { dormant: 0, micro: 0.25, small: 0.15, medium: 0.1, large: 0.08 };

function clamp(x: number, low: number, high: number): number {
  return x < low ? low : x > high ? high : x;
}

function monthsIn(period: AccountingPeriod): number {
  return Math.max(1, Math.round((dayNumber(period.end) - dayNumber(period.start) + 1) / 30.44));
}

/** True when the period covers the spring of 2020, when Bounce Back Loans and the first lockdown came. */
function coversSpring2020(period: AccountingPeriod): boolean {
  return period.start <= '2020-06-30' && period.end >= '2020-05-01';
}

function roundTo(unit: number): (x: number) => number {
  // "+ 0" turns -0 into 0: a filed zero has no sign.
  return (x) => Math.round(x / unit) * unit + 0;
}

function drivers(company: SyntheticCompany, rng: Random, annualTurnover: number): Drivers {
  const shape = SECTOR_SHAPES[company.sector];
  const ownerManaged = company.size === 'micro' || company.size === 'small';
  return {
    annualTurnover,
    trend: rng.normal(0.03, 0.06),
    baseTrend: rng.normal(0.025, 0.05),
    volatility: VOLATILITY[company.size],
    margin: rng.normal(shape.margin, 0.08),
    baseMargin: rng.normal(shape.margin, 0.06),
    payout: ownerManaged ? rng.uniform(0.4, 1) : rng.uniform(0.1, 0.6),
    debtorDays: shape.debtorDays * rng.uniform(0.5, 1.6),
    stockRatio: shape.stockRatio * rng.uniform(0.5, 1.5),
    payableRatio: shape.payableRatio * rng.uniform(0.6, 1.5),
    assetIntensity: shape.assetIntensity * rng.uniform(0.4, 1.6),
    depreciationRate: rng.pick([0.1, 0.15, 0.2, 0.25, 0.33]),
    provisionRate: rng.chance(0.3) ? rng.uniform(0.08, 0.19) : 0,
  };
}

function employeesFor(company: SyntheticCompany, annualTurnover: number, rng: Random): number {
  const [perHead, min, max] = EMPLOYEES[company.size];
  if (company.size === 'dormant') return 0;
  return Math.round(clamp((annualTurnover / perHead) * rng.uniform(0.6, 1.4), min, max));
}

/**
 * Cash is what balances the books. A company short of cash still keeps a working balance; the
 * shortfall is an overdraft or a director's loan inside creditors due within one year.
 */
function balanced(books: Omit<Books, 'cash'>, workingBalance: number): Books {
  const cash =
    books.equity +
    books.creditorsWithinOneYear +
    books.creditorsAfterOneYear +
    books.provisions -
    books.fixedAssets -
    books.debtors -
    books.stock;
  if (cash >= workingBalance) return { ...books, cash };
  return {
    ...books,
    cash: workingBalance,
    creditorsWithinOneYear: books.creditorsWithinOneYear + workingBalance - cash,
  };
}

function dormantBooks(company: SyntheticCompany, rng: Random): Books {
  // The subscribers' shares, either paid into the bank or still owed by them.
  const capital = Math.max(1, company.shareCapital);
  const unpaid = rng.chance(0.35);
  return {
    turnover: 0,
    profit: 0,
    employees: 0,
    fixedAssets: 0,
    stock: 0,
    debtors: unpaid ? capital : 0,
    cash: unpaid ? 0 : capital,
    creditorsWithinOneYear: 0,
    creditorsAfterOneYear: 0,
    provisions: 0,
    equity: capital,
  };
}

/** The books at the end of a company's first period, from incorporation. */
export function newEconomy(company: SyntheticCompany, rng: Random, period: AccountingPeriod): EconomyState {
  const [median, sigma, floor, ceiling] = TURNOVER[company.size];
  const d = drivers(company, rng, clamp(rng.logNormal(median, sigma), floor, ceiling));
  if (company.size === 'dormant') return { books: dormantBooks(company, rng), drivers: d };
  const r = roundTo(company.inThousands ? 1000 : 1);
  // A start-up trades for part of its first period, at a lower margin.
  const turnover = r(d.annualTurnover * (monthsIn(period) / 12) * rng.uniform(0.25, 0.9));
  const profit = r(turnover * (d.margin - rng.uniform(0, 0.12)));
  const fixedAssets = r(d.annualTurnover * d.assetIntensity * rng.uniform(0.3, 1.2));
  const startupLoan = rng.chance(0.2) ? r(d.annualTurnover * rng.uniform(0.05, 0.4)) : 0;
  const directorsLoan = r(turnover * rng.uniform(0, 0.2));
  const books = balanced(
    {
      turnover,
      profit,
      employees: employeesFor(company, turnover, rng),
      fixedAssets,
      stock: r(turnover * d.stockRatio),
      debtors: r((turnover * d.debtorDays) / 365),
      creditorsWithinOneYear: r(turnover * d.payableRatio) + directorsLoan,
      creditorsAfterOneYear: startupLoan,
      provisions: r(fixedAssets * d.provisionRate),
      equity: company.shareCapital + profit,
    },
    r(turnover * rng.uniform(0.005, 0.05)),
  );
  return { books, drivers: d };
}

/** Plausible books for a company that has been trading for a while, at the end of `period`. */
export function establishedEconomy(company: SyntheticCompany, rng: Random, _period: AccountingPeriod): EconomyState {
  const [median, sigma, floor, ceiling] = TURNOVER[company.size];
  const d = drivers(company, rng, clamp(rng.logNormal(median, sigma), floor, ceiling));
  if (company.size === 'dormant') return { books: dormantBooks(company, rng), drivers: d };
  const r = roundTo(company.inThousands ? 1000 : 1);
  const turnover = r(d.annualTurnover);
  const profit = r(turnover * d.margin);
  const fixedAssets = r(turnover * d.assetIntensity * rng.uniform(0.5, 1.5));
  const borrows = rng.chance(company.sector === 'property' ? 0.8 : 0.35);
  const reserves = rng.chance(0.12)
    ? 0 - r(turnover * rng.uniform(0.02, 0.3))
    : r(turnover * rng.uniform(0.02, 0.6) + (company.sector === 'property' ? fixedAssets * rng.uniform(0.1, 0.5) : 0));
  const books = balanced(
    {
      turnover,
      profit,
      employees: employeesFor(company, turnover, rng),
      fixedAssets,
      stock: r(turnover * d.stockRatio),
      debtors: r((turnover * d.debtorDays) / 365),
      creditorsWithinOneYear: r(turnover * d.payableRatio * rng.uniform(0.8, 1.2)),
      creditorsAfterOneYear: borrows ? r(fixedAssets * rng.uniform(0.2, 0.7) + turnover * rng.uniform(0, 0.1)) : 0,
      provisions: r(fixedAssets * d.provisionRate),
      equity: company.shareCapital + reserves,
    },
    r(turnover * rng.uniform(0.005, 0.05)),
  );
  return { books, drivers: d };
}

/** The books one period on. */
export function stepEconomy(
  state: EconomyState,
  company: SyntheticCompany,
  rng: Random,
  period: AccountingPeriod,
): EconomyState {
  if (company.size === 'dormant') return state;
  const r = roundTo(company.inThousands ? 1000 : 1);
  const prev = state.books;
  const d = { ...state.drivers };
  const [, , floor, ceiling] = TURNOVER[company.size];

  d.trend = 0.75 * d.trend + 0.25 * rng.normal(d.baseTrend, 0.06);
  let growth = d.trend + rng.normal(0, d.volatility);
  if (coversSpring2020(period) && company.sector !== 'property') growth -= rng.uniform(0, 0.35);
  d.annualTurnover = clamp(d.annualTurnover * Math.exp(growth), floor, ceiling);
  d.margin = clamp(0.6 * d.margin + 0.4 * d.baseMargin + rng.normal(0, 0.05), -0.6, 0.45);

  const turnover = r(d.annualTurnover * (monthsIn(period) / 12));
  const profit = r(turnover * d.margin);
  const dividends = prev.equity > company.shareCapital && profit > 0 ? r(profit * d.payout) : 0;
  const equity = prev.equity + profit - dividends;

  let fixedAssets = prev.fixedAssets * (1 - d.depreciationRate);
  fixedAssets += turnover * d.assetIntensity * d.depreciationRate * rng.uniform(0.5, 1.6);
  if (rng.chance(0.05)) fixedAssets += turnover * d.assetIntensity * rng.uniform(0.3, 1.2);

  let loans = prev.creditorsAfterOneYear * rng.uniform(0.6, 0.92);
  if (rng.chance(0.07)) loans += turnover * rng.uniform(0.05, 0.3);
  if (coversSpring2020(period) && (company.size === 'micro' || company.size === 'small') && rng.chance(0.35)) {
    loans += Math.min(50_000, turnover * 0.25);
  }
  const taxPayable = Math.max(0, profit) * 0.19 * rng.uniform(0.7, 1);
  const otherCreditors = turnover * rng.uniform(0, 0.1);

  const books = balanced(
    {
      turnover,
      profit,
      employees: Math.round(0.6 * prev.employees + 0.4 * employeesFor(company, turnover, rng)),
      fixedAssets: r(fixedAssets),
      stock: r(turnover * d.stockRatio * rng.uniform(0.8, 1.2)),
      debtors: r(((turnover * d.debtorDays) / 365) * rng.uniform(0.85, 1.15)),
      creditorsWithinOneYear: r(turnover * d.payableRatio * rng.uniform(0.8, 1.2)) + r(taxPayable) + r(otherCreditors),
      creditorsAfterOneYear: r(loans),
      provisions: r(fixedAssets * d.provisionRate),
      equity,
    },
    r(turnover * rng.uniform(0.005, 0.05)),
  );
  return { books, drivers: d };
}
