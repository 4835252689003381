/**
 * Markdown building blocks: data written as literal text, tables, money with the date it belongs
 * to. Register text is anyone's to write (a company may be named `[Click me](javascript:…)`), and
 * an agent or a chat client renders the answers, so every data value goes through `literal`:
 * escaped by default, Markdown only where the renderer wrote it (`markup`).
 */
import { formatMoney } from '../domain/money.ts';

/** Markdown written by a renderer, not data: table cells and facts keep it as it is. */
export class Markup {
  constructor(readonly markdown: string) {}
}

export function markup(markdown: string): Markup {
  return new Markup(markdown);
}

/**
 * A data value as literal text in Markdown: the characters that open links, images, emphasis,
 * code, tables and raw HTML are escaped (HTML's `<` and `>` as entities, so no tag survives even a
 * renderer that ignores backslashes), an `&` that would start an entity too, and line breaks
 * become spaces so that a value cannot start a block of its own.
 */
export function literal(value: unknown): string {
  return (
    String(value)
      .replace(/\r\n?|\n/g, ' ')
      .replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/[\\`*[\]|~]/g, '\\$&')
      // An underscore inside a word (net_assets, a file name) cannot open emphasis: left as written.
      .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
  );
}

export function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  if (rows.length === 0) return '_None._';
  const line = (cells: readonly unknown[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (value instanceof Markup) return value.markdown.replace(/(?<!\\)\|/g, '\\|').replace(/\r?\n/g, ' ');
  return literal(value);
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
