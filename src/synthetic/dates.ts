/**
 * Calendar arithmetic and the date spellings UK accounts use, on ISO `YYYY-MM-DD` strings.
 * Everything is UTC so that a generated filing never depends on the machine's time zone.
 */

import { monthName } from '../domain/calendar-date.ts';

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** "2022-08-31" from its parts. */
export function isoDate(year: number, month: number, day: number): string {
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

// Digit arithmetic rather than Number(slice): these run millions of times in a large corpus.
function digits(iso: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (iso.charCodeAt(i) - 48);
  return n;
}

/** The year of an ISO date. */
export function yearOf(iso: string): number {
  return digits(iso, 0, 4);
}

/** The month (1–12) of an ISO date. */
export function monthOf(iso: string): number {
  return digits(iso, 5, 7);
}

/** The day of the month of an ISO date. */
export function dayOf(iso: string): number {
  return digits(iso, 8, 10);
}

/** Days since 1970-01-01. */
export function dayNumber(iso: string): number {
  return Date.UTC(yearOf(iso), monthOf(iso) - 1, dayOf(iso)) / 86_400_000;
}

/** The ISO date `days` after 1970-01-01. */
export function fromDayNumber(days: number): string {
  const d = new Date(days * 86_400_000);
  return isoDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/**
 * Days since 1970-01-01 of a calendar date, by integer arithmetic on the proleptic Gregorian
 * calendar: the same numbers as `dayNumber` without building a Date, for code that converts
 * millions of dates (the register snapshot).
 */
export function civilDayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** `dayNumber` by arithmetic (see `civilDayNumber`). */
export function fastDayNumber(iso: string): number {
  return civilDayNumber(yearOf(iso), monthOf(iso), dayOf(iso));
}

/** `fromDayNumber` by arithmetic: the ISO date `days` after 1970-01-01, without building a Date. */
export function fastFromDayNumber(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return isoDate(yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day);
}

/** The ISO date `days` (possibly negative) after `iso`. */
export function addDays(iso: string, days: number): string {
  return fromDayNumber(dayNumber(iso) + days);
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** 28–31, leap years included. */
export function lastDayOfMonth(year: number, month: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return MONTH_DAYS[month - 1]!;
}

/** The last day of the month `months` after the month of `iso`. */
export function monthEndAfter(iso: string, months: number): string {
  const total = yearOf(iso) * 12 + (monthOf(iso) - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return isoDate(year, month, lastDayOfMonth(year, month));
}

/**
 * The same day of the month `months` (possibly negative) after `iso`, or the month's last day
 * when it is shorter: 31 January plus one month is 28 or 29 February, as statutory deadlines count.
 */
export function addMonths(iso: string, months: number): string {
  const total = yearOf(iso) * 12 + (monthOf(iso) - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return isoDate(year, month, Math.min(dayOf(iso), lastDayOfMonth(year, month)));
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(iso: string): number {
  return (((dayNumber(iso) + 4) % 7) + 7) % 7;
}

/** "20220831", as bulk file names spell a date. */
export function compactDate(iso: string): string {
  return iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10);
}

/** "31 August 2022". */
export function longDate(iso: string): string {
  return `${dayOf(iso)} ${monthName(monthOf(iso))} ${yearOf(iso)}`;
}

/** "31 Aug 2022". */
export function shortMonthDate(iso: string): string {
  return `${dayOf(iso)} ${monthName(monthOf(iso), 'short')} ${yearOf(iso)}`;
}

/** "31/08/2022". */
export function slashDate(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** "31.8.22", the terse form some software prints. */
export function dottedShortDate(iso: string): string {
  return `${dayOf(iso)}.${monthOf(iso)}.${iso.slice(2, 4)}`;
}

/** "31.08.2022". */
export function dottedDate(iso: string): string {
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
}
