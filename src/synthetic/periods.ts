/**
 * Accounting periods. The first runs from incorporation to the first accounting reference date
 * (6 to 18 months later, in the company's reference month); each later one is the twelve months to
 * the next reference date.
 */
import type { SyntheticCompany } from './companies.ts';
import { addDays, monthEndAfter, monthOf, yearOf } from './dates.ts';

export interface AccountingPeriod {
  /** 0 for the first accounts after incorporation. */
  index: number;
  start: string;
  end: string;
}

/** End of the first period: the first month end in the reference month at least six months on. */
export function firstPeriodEnd(company: SyntheticCompany): string {
  // The one offset in 6..17 months that lands in the reference month.
  let months = (company.referenceMonth - monthOf(company.incorporated) + 12) % 12;
  if (months < 6) months += 12;
  return monthEndAfter(company.incorporated, months);
}

/** Period `index` of the company: 0 from incorporation, then years to the reference date. */
export function accountingPeriod(company: SyntheticCompany, index: number): AccountingPeriod {
  const first = firstPeriodEnd(company);
  if (index === 0) return { index, start: company.incorporated, end: first };
  const previousEnd = monthEndAfter(first, 12 * (index - 1));
  return { index, start: addDays(previousEnd, 1), end: monthEndAfter(first, 12 * index) };
}

/** The end of `accountingPeriod(company, index)`, without working out its start. */
export function periodEnd(company: SyntheticCompany, index: number): string {
  const first = firstPeriodEnd(company);
  return index === 0 ? first : monthEndAfter(first, 12 * index);
}

/** Index of the first period ending in `year` or later. */
export function firstPeriodIndexFrom(company: SyntheticCompany, year: number): number {
  return Math.max(0, year - yearOf(firstPeriodEnd(company)));
}

/** The twelve months after `period`. */
export function followingPeriod(period: AccountingPeriod): AccountingPeriod {
  return { index: period.index + 1, start: addDays(period.end, 1), end: monthEndAfter(period.end, 12) };
}
