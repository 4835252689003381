/**
 * Numbers and dates as a UK reader expects them on a page: £1,250,000, -£45,000, 1,234,
 * 31 Dec 2024. The compact form (£1.3m) is the domain's formatMoney. Pages only: a CSV keeps
 * plain values.
 */

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });
const COUNT = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Whole pounds with thousands separators; an em dash for "not filed". */
export function pounds(amount: number | null | undefined): string {
  return amount === null || amount === undefined ? '—' : POUNDS.format(amount);
}

/** A count (employees, companies) with thousands separators, up to one decimal; an em dash for none. */
export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : COUNT.format(value);
}

/** An ISO date (YYYY-MM-DD) as "31 Dec 2024"; an em dash for none. */
export function ukDate(iso: string | null | undefined): string {
  return iso ? DAY.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`)) : '—';
}

/** A share (0–1) as a percentage with one decimal: 0.1234 → "12.3%". */
export function percent(share: number | null | undefined): string {
  return share === null || share === undefined ? '—' : `${(share * 100).toFixed(1)}%`;
}
