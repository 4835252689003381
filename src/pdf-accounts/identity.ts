/**
 * The company number and the balance sheet date as the pages print them. OCR reads "SC" as "$C"
 * or "5C" now and then, and older filings print the number without its leading zero.
 */
import { MONTH_NAME_PATTERN, monthNumber } from '../domain/calendar-date.ts';
const NUMBER_LABEL =
  /(?:company|registered|registration|reg\.?)\s*(?:number|no\.?|n[o0]\.?)\s*(?:is)?\s*[:.]?\s*\(?\s*((?:[A-Z$5][A-Z0-9]|[0-9]{2})\s?[0-9O]{5,6}|[0-9]{6,7})\b/i;

/** The company number printed beside its label in `text`, as eight characters, or null. */
export function companyNumberIn(text: string): string | null {
  const match = NUMBER_LABEL.exec(text);
  if (!match) return null;
  let number = match[1]!.replace(/\s/g, '').toUpperCase();
  number = number.slice(0, 2).replace(/^\$C|^5C$/, 'SC') + number.slice(2).replace(/O/g, '0');
  if (/^[0-9]{6,7}$/.test(number)) number = number.padStart(8, '0');
  return /^([A-Z]{2}[0-9]{6}|[0-9]{8})$/.test(number) ? number : null;
}

const LONG_DATE = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTH_NAME_PATTERN})\\s*,?\\s+((?:19|20)\\d\\d)\\b`,
  'i',
);
const SHORT_DATE = /\b(\d{1,2})[./](\d{1,2})[./]((?:19|20)?\d\d)\b/;

/** The first date in `text` ("31 March 2016", "31st December 2024", "31/12/2024"), ISO, or null. */
export function dateIn(text: string): string | null {
  const long = LONG_DATE.exec(text);
  if (long) return isoDate(Number(long[3]), monthNumber(long[2]!)!, Number(long[1]));
  const short = SHORT_DATE.exec(text);
  if (short) {
    const year = short[3]!.length === 2 ? 2000 + Number(short[3]) : Number(short[3]);
    return isoDate(year, Number(short[2]), Number(short[1]));
  }
  return null;
}

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}
