/**
 * Dates are ISO calendar dates, "2024-03-31", everywhere: in the API, on the command line and in
 * file names. One check for all of them, so that 2024-02-30 is refused wherever a date is asked for.
 */
export function isCalendarDate(value: string): boolean {
  // Year 0000 is ISO 8601's 1 BC: a valid Date, but no date PostgreSQL (or the register) knows.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** The months' English names, January first: how dates are written out in accounts and answers. */
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** "January" for 1, "Jan" when short; undefined for a number that is no month. */
export function monthName(month: number, length: 'long' | 'short' = 'long'): string | undefined {
  const name = MONTH_NAMES[month - 1];
  return name !== undefined && length === 'short' ? name.slice(0, 3) : name;
}

/** 1 for "January" (in any case), 12 for "december"; undefined for a word that is no month's name. */
export function monthNumber(name: string): number | undefined {
  const index = MONTH_NAMES.findIndex((month) => month.toLowerCase() === name.toLowerCase());
  return index < 0 ? undefined : index + 1;
}

/** The months' names as alternatives of a regular expression (matched without regard to case). */
export const MONTH_NAME_PATTERN = MONTH_NAMES.join('|');
