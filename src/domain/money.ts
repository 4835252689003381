/**
 * Money and changes in words, for Markdown and trigger reasons: £1.2m, -£45k, £850, £2.3bn.
 */
export function formatMoney(amount: number | null): string {
  if (amount === null) return 'n/a';
  const abs = Math.abs(amount);
  const text =
    abs >= 1e9
      ? `${trim(abs / 1e9)}bn`
      : abs >= 1e6
        ? `${trim(abs / 1e6)}m`
        : abs >= 1e3
          ? `${trim(abs / 1e3)}k`
          : String(Math.round(abs));
  // The sign goes before the pound sign, as people write it: -£4.5k. A loss that rounds to £0 has none.
  return amount < 0 && text !== '0' ? `-£${text}` : `£${text}`;
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
