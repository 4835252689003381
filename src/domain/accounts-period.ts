/**
 * One balance sheet date of a company's accounts history, as the domain rules read it.
 */
import { hasAnyFigure } from './figures.ts';
import type { AccountingStandard, FigureSet } from './figures.ts';

export interface AccountsPeriod {
  balance_sheet_date: string;
  /** The first day of the period as the filing gives it; null or absent when it does not. */
  period_start?: string | null;
  published: string | null;
  /** The standard the filing declares, where the history carries it. */
  standard?: AccountingStandard;
  figures: FigureSet;
}

/**
 * The periods with at least one figure filed, in the order given. A filing that tags no figure at
 * its balance sheet date (only its comparative column) keeps an all-null entry in the history
 * until a later filing's prior column gives that date figures; "latest" figures, signals, trends
 * and alerts read the newest period with figures instead.
 */
export function withFigures<T extends AccountsPeriod>(periods: readonly T[]): T[] {
  return periods.filter((period) => hasAnyFigure(period.figures));
}

/** Percentage change from `before` to `after`: null when either is missing or `before` is zero. */
export function changePct(before: number | null, after: number | null): number | null {
  if (before === null || after === null || before === 0) return null;
  return ((after - before) / Math.abs(before)) * 100;
}

/** Creditors falling due within a year, where the filing gives them; the undimensioned total otherwise. */
export function shortTermCreditors(figures: FigureSet): number | null {
  return figures.creditors_within_one_year ?? figures.creditors;
}

/** To one decimal place, as changes and rates are shown; null stays null. */
export function round1<T extends number | null>(value: T): T {
  return (value === null ? null : Math.round(value * 10) / 10) as T;
}

/**
 * The first day of the period at `index` of `history` (newest first): the filed start when the
 * filing gives one, else periodStart's reading from the period before it.
 */
export function startOf(
  history: readonly Pick<AccountsPeriod, 'balance_sheet_date' | 'period_start'>[],
  index: number,
): string | null {
  const entry = history[index];
  if (!entry) return null;
  return entry.period_start ?? periodStart(entry.balance_sheet_date, history[index + 1]?.balance_sheet_date ?? null);
}

/** The longest accounting reference period the Companies Act 2006 allows (s. 392(5)): 18 months. */
const LONGEST_PERIOD_MONTHS = 18;

/**
 * The first day of the financial year that ends on `balanceSheetDate`. The history holds balance
 * sheet dates, not period starts, so the start is read from the period before: the day after
 * `priorBalanceSheetDate` when that is no more than 18 months earlier (no period can be longer);
 * otherwise (no prior date, or a gap in the history) the period is taken to be twelve months, so
 * it began the day after the same date a year earlier (29 February reads as 28 February).
 */
export function periodStart(balanceSheetDate: string, priorBalanceSheetDate: string | null): string {
  if (
    priorBalanceSheetDate !== null &&
    priorBalanceSheetDate < balanceSheetDate &&
    priorBalanceSheetDate >= monthsEarlier(balanceSheetDate, LONGEST_PERIOD_MONTHS)
  )
    return dayAfter(priorBalanceSheetDate);
  return dayAfter(monthsEarlier(balanceSheetDate, 12));
}

/** The same day `months` earlier, or that month's last day when it is shorter. */
function monthsEarlier(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1 - months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(day, lastDay));
  return first.toISOString().slice(0, 10);
}

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * FRS 102 as amended by the FRC's Periodic Review 2024: for periods beginning on or after
 * 1 January 2026 a lessee puts its operating leases on the balance sheet (a right-of-use asset and
 * a lease liability). FRS 105 (micro-entities) keeps them off it, and IFRS 16 has had them on it
 * since 2019, so a newest period filed under either crosses nothing. Some companies adopted early
 * from 2025; a filing does not say so.
 */
const FRS_102_LEASES_FROM = '2026-01-01';

const STANDARDS_WITHOUT_THE_CHANGE: readonly (AccountingStandard | undefined)[] = ['FRS 105', 'IFRS'];

/**
 * Whether comparing the newest period of `history` (newest first) with the one before crosses
 * FRS 102's lease change: the newest began on or after 1 January 2026 and the one before did not
 * (each start as startOf reads it), and the newest was not filed under a standard the change
 * leaves alone; so a change in net assets may be the accounting.
 */
export function crossesLeaseChange(
  history: readonly Pick<AccountsPeriod, 'balance_sheet_date' | 'period_start' | 'standard'>[],
): boolean {
  if (STANDARDS_WITHOUT_THE_CHANGE.includes(history[0]?.standard)) return false;
  const latest = startOf(history, 0);
  const prior = startOf(history, 1);
  return latest !== null && prior !== null && latest >= FRS_102_LEASES_FROM && prior < FRS_102_LEASES_FROM;
}
