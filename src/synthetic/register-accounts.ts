/**
 * What the register says about a synthetic company's accounts on a given day: its accounting
 * reference date, the newest accounts filed, when the next are due and what kind they were.
 *
 * "Filed" means published on the schedule `syntheticFilings` uses (`accountsPublicationDay`), so a
 * register snapshot agrees with the accounts stream: the last made-up date is the balance sheet
 * date of the newest filing published on or before the snapshot. Companies whose filing comes late
 * on that schedule are the ones the register shows as overdue.
 */
import type { SyntheticCompany } from './companies.ts';
import { styleFor } from './companies.ts';
import { addMonths, fastDayNumber, lastDayOfMonth, monthEndAfter } from './dates.ts';
import { accountsPublicationDay } from './filings.ts';
import { firstPeriodEnd } from './periods.ts';
import { labelSeed, Random } from './random.ts';

type AccountCategory =
  | 'NO ACCOUNTS FILED'
  | 'DORMANT'
  | 'MICRO ENTITY'
  | 'TOTAL EXEMPTION SMALL'
  | 'TOTAL EXEMPTION FULL'
  | 'UNAUDITED ABRIDGED'
  | 'SMALL'
  | 'MEDIUM'
  | 'FULL'
  | 'GROUP';

/** The register's `Accounts.*` fields. */
export interface AccountsOnRegister {
  /** Day and month of the accounting reference date (28 for February, as the register keeps it). */
  ref_day: number;
  ref_month: number;
  /** Filing deadline of the next accounts. */
  next_due: string;
  /** Balance sheet date of the newest accounts filed; null before the first. */
  last_made_up: string | null;
  category: AccountCategory;
}

const CATEGORY = labelSeed('register-account-category');

/** `accountsPublicationDay` never publishes sooner than this many days after the balance sheet date. */
const EARLIEST_PUBLICATION = 25;

/**
 * Index of the newest accounting period whose accounts were published on or before `day` (days
 * since 1970-01-01), or -1 when none was.
 */
export function lastFiledPeriod(seed: number, company: SyntheticCompany, day: number): number {
  const firstEnd = firstPeriodEnd(company);
  const firstEndDay = fastDayNumber(firstEnd);
  if (day < firstEndDay + EARLIEST_PUBLICATION) return -1;
  // The newest period that could have been published by now: start from an overestimate (periods
  // are twelve months apart) and step back.
  let k = Math.floor((day - firstEndDay) / 365) + 1;
  while (k > 0 && fastDayNumber(monthEndAfter(firstEnd, 12 * k)) + EARLIEST_PUBLICATION > day) k--;
  // If it is not out yet, the one before it is: a period is published at most 382 days after its
  // end, which is before the next period's accounts could be (365 + 25 days).
  return accountsPublicationDay(seed, company, k) <= day ? k : k - 1;
}

/** The accounts part of the company's register entry on `day`. */
export function accountsOnRegister(seed: number, company: SyntheticCompany, day: number): AccountsOnRegister {
  const firstEnd = firstPeriodEnd(company);
  const k = lastFiledPeriod(seed, company, day);
  const lastMadeUp = k < 0 ? null : monthEndAfter(firstEnd, 12 * k);
  // Nine months after the period end for a private company (a PLC would have six, but the filing
  // schedule knows no difference, and six would make most PLCs look late). The first accounts are
  // due 21 months after incorporation, or three months after a first period longer than that.
  const nextDue =
    k < 0
      ? later(addMonths(company.incorporated, 21), monthEndAfter(firstEnd, 3))
      : monthEndAfter(firstEnd, 12 * (k + 1) + 9);
  return {
    ref_day: lastDayOfMonth(2001, company.referenceMonth),
    ref_month: company.referenceMonth,
    next_due: nextDue,
    last_made_up: lastMadeUp,
    category: lastMadeUp === null ? 'NO ACCOUNTS FILED' : categoryOf(seed, company, lastMadeUp),
  };
}

function later(a: string, b: string): string {
  return a > b ? a : b;
}

/** The kind of the accounts made up to `balanceSheetDate`, from the company's size and filing style. */
function categoryOf(seed: number, company: SyntheticCompany, balanceSheetDate: string): AccountCategory {
  if (company.size === 'dormant') return 'DORMANT';
  if (company.group) return 'GROUP';
  const style = styleFor(company, balanceSheetDate);
  if (style === 'frs105') return 'MICRO ENTITY';
  // One draw per company, so that a company keeps its habit from year to year.
  const habit = Random.derive(seed, company.index, CATEGORY).next();
  const small = company.size === 'micro' || company.size === 'small';
  if (style === 'xbrl-plain' || style === 'ukgaap2009') {
    // Before 2016 small companies filed abbreviated accounts: "total exemption small".
    if (small) return habit < 0.85 ? 'TOTAL EXEMPTION SMALL' : 'SMALL';
    return company.size === 'medium' && habit < 0.2 ? 'MEDIUM' : 'FULL';
  }
  if (small) return habit < 0.6 ? 'TOTAL EXEMPTION FULL' : habit < 0.85 ? 'UNAUDITED ABRIDGED' : 'SMALL';
  return 'FULL';
}
