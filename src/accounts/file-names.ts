/**
 * What the Companies House file names say.
 *
 * - A filing inside a bulk zip: `Prod223_<run>_<company number>_<YYYYMMDD>.html|xhtml|xml`
 *   (Prod223 daily, Prod224 monthly), sometimes with a suffix such as `_CIC.zip`; a document API
 *   download: `GB-COH-<number>-<YYYY-MM-DD>.html`.
 * - A bulk zip: daily `Accounts_Bulk_Data-YYYY-MM-DD.zip`, monthly
 *   `Accounts_Monthly_Data-<MonthName><YYYY>.zip`. A filing's publication date is the daily file's
 *   date, or the last day of the month for a monthly file.
 */
import { normaliseCompanyNumber } from '../domain/company-number.ts';
import { monthNumber } from '../domain/calendar-date.ts';

export interface FilingName {
  companyNumber: string;
  balanceSheetDate: string;
}

const BULK_MEMBER = /(?:^|[\\/])Prod\d+_\d+_([A-Za-z0-9]+)_(\d{4})(\d{2})(\d{2})(?:_[^\\/.]*)?\.[A-Za-z]+$/;
const DOCUMENT_API = /(?:^|[\\/])GB-COH-([A-Za-z0-9]+)-(\d{4})-(\d{2})-(\d{2})\.[A-Za-z]+$/;

/** Company number and balance sheet date from a filing's file name, when it follows a known form. */
export function parseFilingName(path: string): FilingName | null {
  const m = BULK_MEMBER.exec(path) ?? DOCUMENT_API.exec(path);
  if (!m) return null;
  const companyNumber = normaliseCompanyNumber(m[1]!);
  const date = `${m[2]}-${m[3]}-${m[4]}`;
  if (!companyNumber || !isRealDate(date)) return null;
  return { companyNumber, balanceSheetDate: date };
}

export interface BulkFileName {
  kind: 'daily' | 'monthly';
  /** Publication date of every filing in the file. */
  published: string;
}

/** Kind and publication date of an accounts bulk zip, from its name. */
export function parseBulkFileName(path: string): BulkFileName | null {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const daily = /^Accounts_Bulk_Data-(\d{4}-\d{2}-\d{2})\.zip$/i.exec(base);
  if (daily && isRealDate(daily[1]!)) return { kind: 'daily', published: daily[1]! };
  const monthly = /^Accounts_Monthly_Data-([A-Za-z]+)(\d{4})\.zip$/i.exec(base);
  if (monthly) {
    const month = monthNumber(monthly[1]!);
    if (month === undefined) return null;
    const year = Number(monthly[2]);
    // Day 0 of the next month: the last day of this one.
    const lastDay = new Date(Date.UTC(year, month, 0));
    return { kind: 'monthly', published: lastDay.toISOString().slice(0, 10) };
  }
  return null;
}

/** The daily bulk file name for a date, as Companies House spells it. */
export function dailyBulkFileName(date: string): string {
  return `Accounts_Bulk_Data-${date}.zip`;
}

/**
 * Whether `YYYY-MM-DD` (digits) names a day of the proleptic Gregorian calendar. Worked out rather
 * than parsed with `Date`: parsing a date string costs microseconds, once per filing.
 */
function isRealDate(iso: string): boolean {
  const year = Number(iso.slice(0, 4));
  const month = Number(iso.slice(5, 7));
  const day = Number(iso.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
