/**
 * Markdown building blocks: tables with escaped cells, money with the date it belongs to.
 */
import { formatMoney } from '../domain/money.ts';

export function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  if (rows.length === 0) return '_None._';
  const line = (cells: readonly unknown[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return String(value).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Money, or a dash when not filed. */
export function money(amount: number | null | undefined): string {
  return amount === null || amount === undefined ? '—' : formatMoney(amount);
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : String(Math.round(value * 10) / 10);
}

export function pct(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value > 0 ? '+' : ''}${value}%`;
}

/** "key: value" lines for a small record. */
export function facts(entries: readonly [string, unknown][]): string {
  return entries.map(([key, value]) => `- **${key}:** ${cell(value)}`).join('\n');
}

/**
 * Text from the register as Markdown that shows it as written: its emphasis, link, heading and
 * HTML characters escaped, so that a name such as "*NEW* [CO] <LTD>" neither formats nor links.
 */
export function plain(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.replace(/[\\`*_[\]<>#~!]/g, (ch) => `\\${ch}`);
}
