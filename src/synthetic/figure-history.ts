/**
 * A company's figures over successive years: the books of each period (see `economics.ts`) and
 * the subset its filing tags (see `disclosure.ts`), with the prior-year column the filing shows.
 */
import type { FigureSet } from '../domain/figures.ts';
import type { AccountsStyle, SyntheticCompany } from './companies.ts';
import { styleFor } from './companies.ts';
import { discloseFigures } from './disclosure.ts';
import type { Books, EconomyState } from './economics.ts';
import { establishedEconomy, newEconomy, stepEconomy } from './economics.ts';
import { accountingPeriod, firstPeriodIndexFrom, followingPeriod } from './periods.ts';
import type { Random } from './random.ts';

export interface FigureYear {
  /** 0 for the company's first accounts after incorporation. */
  periodIndex: number;
  balanceSheetDate: string;
  periodStart: string;
  /** Null for the first accounts: there is no prior period. */
  priorBalanceSheetDate: string | null;
  priorPeriodStart: string | null;
  style: AccountsStyle;
  /** What the filing for this period tags; null means not filed, never zero. */
  figures: FigureSet;
  /** The prior-year column of the same filing: the same lines, last year's amounts. */
  priorFigures: FigureSet | null;
  /** Every figure of the period's books, whether filed or not. */
  actual: FigureSet;
  /** Provisions for liabilities: with creditors after one year, what separates TALCL from net assets. */
  provisions: number;
}

/** The contract's figures of a set of books. */
function figuresOf(books: Books): FigureSet {
  const currentAssets = books.cash + books.debtors + books.stock;
  return {
    net_assets: books.equity,
    equity: books.equity,
    total_assets_less_current_liabilities: books.fixedAssets + currentAssets - books.creditorsWithinOneYear,
    cash: books.cash,
    current_assets: currentAssets,
    creditors: books.creditorsWithinOneYear,
    creditors_within_one_year: books.creditorsWithinOneYear,
    creditors_after_one_year: books.creditorsAfterOneYear,
    turnover: books.turnover,
    debtors: books.debtors,
    employees: books.employees,
    profit: books.profit,
  };
}

/**
 * `years` successive periods of `company`, starting with its first accounts, or with the first
 * period ending in `fromYear` or later. Deterministic for the company and the state of `rng`.
 */
export function figureHistory(company: SyntheticCompany, years: number, rng: Random, fromYear?: number): FigureYear[] {
  const first = fromYear === undefined ? 0 : firstPeriodIndexFrom(company, fromYear);
  let previousPeriod = first > 0 ? accountingPeriod(company, first - 1) : null;
  let state: EconomyState | null = previousPeriod ? establishedEconomy(company, rng, previousPeriod) : null;
  const out: FigureYear[] = [];
  for (let i = 0; i < years; i++) {
    const index = first + i;
    const period = previousPeriod === null ? accountingPeriod(company, index) : followingPeriod(previousPeriod);
    const previous = state === null ? null : figuresOf(state.books);
    state = state === null ? newEconomy(company, rng, period) : stepEconomy(state, company, rng, period);
    const actual = figuresOf(state.books);
    const style = styleFor(company, period.end);
    const shown = discloseFigures({ company, style, balanceSheetDate: period.end, actual, previous });
    const prior = previousPeriod;
    previousPeriod = period;
    out.push({
      periodIndex: index,
      balanceSheetDate: period.end,
      periodStart: period.start,
      priorBalanceSheetDate: prior?.end ?? null,
      priorPeriodStart: prior?.start ?? null,
      style,
      figures: shown.current,
      priorFigures: shown.prior,
      actual,
      provisions: state.books.provisions,
    });
  }
  return out;
}
