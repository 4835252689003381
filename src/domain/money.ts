/**
 * Money and changes in words, for Markdown and trigger reasons: £1.2m, £-45k, £850, £2.3bn.
 */
export function formatMoney(amount: number | null): string {
  if (amount === null) return 'n/a';
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  if (abs >= 1e9) return `£${sign}${trim(abs / 1e9)}bn`;
  if (abs >= 1e6) return `£${sign}${trim(abs / 1e6)}m`;
  if (abs >= 1e3) return `£${sign}${trim(abs / 1e3)}k`;
  return `£${sign}${Math.round(abs)}`;
}

/** One decimal below 100 (1.2m, 45.5k), none above (120m), no trailing ".0". */
function trim(value: number): string {
  const rounded = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return String(rounded);
}

/** "up 45%", "down 12%", "unchanged". */
export function formatChange(pct: number): string {
  const rounded = Math.round(pct);
  if (rounded === 0) return 'unchanged';
  return rounded > 0 ? `up ${rounded}%` : `down ${-rounded}%`;
}

/** A count of people: "12 employees", "1 employee". */
export function formatEmployees(count: number): string {
  const rounded = Math.round(count * 10) / 10;
  return `${rounded} employee${rounded === 1 ? '' : 's'}`;
}
