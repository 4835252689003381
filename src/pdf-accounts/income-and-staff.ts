/**
 * Turnover and the profit or loss for the year from the profit and loss account page, and the
 * average number of employees from its note. None of these can be checked by the balance
 * sheet's arithmetic, so at best they are `medium`.
 */
import type { Row } from './amounts.ts';
import type { Confidence } from './balance-sheet.ts';
import type { Columns } from './columns.ts';
import { currentAmount } from './columns.ts';

export interface Figure {
  value: number;
  confidence: Confidence;
}

const TURNOVER = /^(total )?(turnover|revenue|sales)\b/;
const PROFIT =
  /^(\(?(profit|loss)\)?|profit ?\/ ?\(?loss\)?|\(?loss\)? ?\/ ?profit|retained (profit|loss)|result)\b.*\bfor the (financial )?(year|period)\b/;
const PROFIT_AFTER_TAX = /^(\(?(profit|loss)\)?|profit ?\/ ?\(?loss\)?|\(?loss\)? ?\/ ?profit)\b.*\bafter tax/;

/** The amount of the outermost current column on `row`, or on the first total line after it. */
function rowOrTotalBelow(
  rows: readonly Row[],
  at: number,
  columns: Columns,
): { amount: NonNullable<ReturnType<typeof currentAmount>>; row: Row } | null {
  const own = currentAmount(rows[at]!, columns);
  if (own) return { amount: own, row: rows[at]! };
  // A heading ("TURNOVER") over its analysis (continuing, acquisitions): the total is the first
  // unlabelled line below with an amount in the outermost current column.
  const outer = columns.current.at(-1);
  for (const row of rows.slice(at + 1, at + 6)) {
    const amount = currentAmount(row, columns);
    if (row.label === '' && amount && outer !== undefined && Math.abs(amount.right - outer) <= columns.tolerance * 1.2)
      return { amount, row };
  }
  return null;
}

export function readIncome(rows: readonly Row[], columns: Columns): { turnover?: Figure; profit?: Figure } {
  const found: { turnover?: Figure; profit?: Figure } = {};
  const from = rows.filter((row) => columns.headerLine < 0 || row.line > columns.headerLine);
  const confidence: Confidence = columns.basis === 'first' ? 'low' : 'medium';
  const turnoverAt = from.findIndex((row) => TURNOVER.test(row.label) && !/cost of/.test(row.label));
  if (turnoverAt >= 0) {
    const hit = rowOrTotalBelow(from, turnoverAt, columns);
    if (hit) found.turnover = { value: hit.amount.value * columns.scale, confidence };
  }
  let profitAt = from.findIndex((row) => PROFIT.test(row.label) && !/comprehensive|attributable/.test(row.label));
  if (profitAt < 0) profitAt = from.findIndex((row) => PROFIT_AFTER_TAX.test(row.label));
  if (profitAt >= 0) {
    const hit = rowOrTotalBelow(from, profitAt, columns);
    if (hit) {
      const label = from[profitAt]!.label;
      const lossLabel = /^\(?loss\b/.test(label) && !/profit/.test(label);
      const negative = hit.amount.bracketed || (lossLabel && !hit.amount.dash);
      found.profit = { value: (negative ? -1 : 1) * hit.amount.value * columns.scale, confidence };
    }
  }
  return found;
}

const AVERAGE = /average (monthly |weekly )?number|number of (persons|employees|staff)|staff numbers/;

/**
 * The average number of employees: from a sentence ("...during the year was 1 (2020: 1)") or
 * from the table under the sentence (its total line, or its only line).
 */
export function readEmployees(rows: readonly Row[], columns: Columns | null): Figure | null {
  const at = rows.findIndex((row) => AVERAGE.test(row.label));
  if (at < 0) return null;
  const sentence = rows
    .slice(at, at + 2)
    .map((row) => row.label)
    .join(' ');
  const stated =
    /\b(?:was|were|is)\s*:?\s*(\d[\d,]*|nil|none)\b(?!\s*(?:january|february|march|april|may|june|july|august|september|october|november|december))/.exec(
      sentence,
    );
  if (stated) {
    const value = /^(nil|none)$/.test(stated[1]!) ? 0 : Number(stated[1]!.replace(/,/g, ''));
    // "...was as follows: 2022 2021" is the table's header, not a count.
    const aYear = /^(19|20)\d\d$/.test(stated[1]!);
    if (Number.isFinite(value) && value < 1_000_000 && !aYear) return { value, confidence: 'medium' };
  }
  if (columns === null) return null;
  const confidence: Confidence = columns.basis === 'first' ? 'low' : 'medium';
  const table = rows.slice(at + 1, at + 16).filter((row) => row.line > columns.headerLine);
  const items: number[] = [];
  for (const row of table) {
    const amount = currentAmount(row, columns);
    if (amount === null) {
      if (row.label.split(' ').length > 6) break;
      continue;
    }
    if (row.label === '' || /^total\b/.test(row.label)) return { value: amount.value, confidence };
    items.push(amount.value);
  }
  // The sentence's own figure ("...during the year was: 0") sits on its line; a lone line is the total.
  const own = currentAmount(rows[at]!, columns) ?? (rows[at + 1] ? currentAmount(rows[at + 1]!, columns) : null);
  if (own) return { value: own.value, confidence };
  return items.length === 1 ? { value: items[0]!, confidence } : null;
}
