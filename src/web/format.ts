/**
 * Dates, money and counts as a UK reader writes them: 31 March 2024, £1,234,567, -£45,000.
 * (The short forms, £1.2m, are src/domain/money.ts formatMoney.)
 */
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const WHOLE = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const COUNT = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

/** An ISO date (2024-03-31) as "31 March 2024"; "—" when there is none. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(time) ? iso : DATE.format(time);
}

/** Pounds in full, with thousands separators and the minus before the pound sign; "—" when not filed. */
export function formatPounds(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const text = `£${WHOLE.format(Math.abs(amount))}`;
  return amount < 0 && Math.round(amount) !== 0 ? `-${text}` : text;
}

/** A head count ("1,204"; averages keep one decimal: "12.5"); "—" when not filed. */
export function formatCount(count: number | null | undefined): string {
  if (count === null || count === undefined) return '—';
  return COUNT.format(count);
}

/** An officer role as filed, in words: "llp-designated-member" is "LLP designated member". */
export function roleWords(role: string): string {
  const words = role.replaceAll('-', ' ').replace(/\bllp\b/g, 'LLP');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
