/**
 * One balance sheet date of a company's accounts history, as the domain rules read it.
 */
import { hasAnyFigure } from './figures.ts';
import type { FigureSet } from './figures.ts';

export interface AccountsPeriod {
  balance_sheet_date: string;
  published: string | null;
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
