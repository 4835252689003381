/**
 * The rows of a statement page: each line split into its label (the words before the first
 * amount) and its amounts, with the horizontal position of each amount, so that the columns can
 * be told apart afterwards. Amounts are read as printed: "(1,823)" is bracketed 1823, "-" is a
 * printed nil; the sign a figure gets depends on its field (creditors are magnitudes).
 */
import type { Line, Word } from './ocr-lines.ts';

export interface Amount {
  value: number;
  bracketed: boolean;
  /** Printed as a dash: nil. */
  dash: boolean;
  /** A bare number of at most two digits: a note reference unless it stands in a figure column. */
  small: boolean;
  left: number;
  /** The right edge of the digits, a closing bracket left out, so that columns line up. */
  right: number;
  text: string;
}

export interface Row {
  label: string;
  amounts: Amount[];
  top: number;
  bottom: number;
  /** Index of the page line the row starts on (a wrapped label joins the line below it). */
  line: number;
}

const DASHES = new Set(['-', '—', '–', '_', '--', '=']);
const NUMBER = /^(\(?)£?(\d{1,3}(?:[,.]\d{3})+|\d+)(\)?)$/;

/** Words glued back together where OCR split one amount: "(3," + "139)", "(" + "1,823)", "£" + "10". */
function mergeSplitAmounts(words: readonly Word[]): Word[] {
  const merged: Word[] = [];
  for (const word of words) {
    const previous = merged.at(-1);
    const charWidth = previous ? (previous.right - previous.left) / Math.max(previous.text.length, 1) : 0;
    const close = previous !== undefined && word.left - previous.right < 1.6 * charWidth + 4;
    if (
      previous &&
      close &&
      (/[,.]$/.test(previous.text) || previous.text === '(' || previous.text === '£' || previous.text === '(£') &&
      /^\d/.test(word.text)
    ) {
      merged[merged.length - 1] = { ...previous, text: previous.text + word.text, right: word.right };
    } else if (previous && close && /^\d{1,3}$/.test(previous.text) && /^\d{3}(,\d{3})*\)?$/.test(word.text)) {
      // "47 387,444": OCR read a thin comma as a space.
      merged[merged.length - 1] = { ...previous, text: `${previous.text},${word.text}`, right: word.right };
    } else if (previous && close && /^\)$/.test(word.text) && /\d$/.test(previous.text)) {
      merged[merged.length - 1] = { ...previous, text: previous.text + ')', right: word.right };
    } else {
      merged.push({ ...word });
    }
  }
  return merged;
}

/** The amount a word prints, or null when it is not one. */
function amountOf(word: Word): Amount | null {
  const text = word.text
    .replace(/[‘’'"“”|]/g, '')
    .replace(/[;:.]$/, '')
    .replace(/^[{[]/, '(')
    .replace(/[}\]]$/, ')');
  if (DASHES.has(text)) {
    return { value: 0, bracketed: false, dash: true, small: false, left: word.left, right: word.right, text };
  }
  const match = NUMBER.exec(text);
  if (!match) return null;
  const [, open, digits, shut] = match as unknown as [string, string, string, string];
  // A stray "1,234.56" style decimal is not a statement amount; a thousands group of "." is.
  const value = Number(digits.replace(/[,.]/g, ''));
  const bracketed = open === '(' || shut === ')';
  const charWidth = (word.right - word.left) / Math.max(text.length, 1);
  return {
    value,
    bracketed,
    dash: false,
    small: !bracketed && /^\d{1,2}$/.test(digits),
    left: word.left,
    right: shut === ')' ? word.right - charWidth * 0.8 : word.right,
    text,
  };
}

/**
 * A line as label and amounts: the label runs to the last word with two letters or more, and the
 * amounts are the numbers after it, so that "1 Ordinary share of £1 each 1 1" keeps its leading
 * number in the label and OCR's stray marks ("a)", "|") after the figures do not end them.
 */
function rowOf(line: Line, index: number): Row {
  const words = dropMarginNoise(mergeSplitAmounts(line.words));
  const readings = words.map(amountOf);
  // The label ends before the first amount that cannot be a note reference, when there is one.
  const firstFigure = readings.findIndex((a) => a !== null && !a.small && !a.dash);
  let labelEnd = -1;
  words.forEach((word, i) => {
    if (
      (firstFigure < 0 || i < firstFigure) &&
      (word.text.match(/[A-Za-z]/g) ?? []).length >= 2 &&
      readings[i] === null
    )
      labelEnd = i;
  });
  // Words after the figures make it a sentence ("...ended 31 March 2016 the company was..."), not a row.
  const wordsAfter = firstFigure < 0 ? 0 : words.slice(firstFigure).filter((w) => /[A-Za-z]{3}/.test(w.text)).length;
  if (wordsAfter >= 2 || labelEnd >= 14) labelEnd = words.length - 1;
  const amounts = readings.slice(labelEnd + 1).filter((amount): amount is Amount => amount !== null);
  const label = words
    .slice(0, labelEnd + 1)
    .map((word) => word.text)
    .join(' ');
  return { label: normaliseLabel(label), amounts, top: line.top, bottom: line.bottom, line: index };
}

/**
 * Specks in the margins and between columns that OCR reads as short words ("ae", "cs", "ee"):
 * a word of at most three characters, not an amount, standing apart from its neighbours.
 */
function dropMarginNoise(words: readonly Word[]): Word[] {
  const widths = words.filter((w) => w.text.length >= 3).map((w) => (w.right - w.left) / w.text.length);
  const charWidth = widths.length > 0 ? widths.sort((a, b) => a - b)[Math.floor(widths.length / 2)]! : 20;
  return words.filter((word, i) => {
    if (word.text.length > 3 || amountOf(word) !== null) return true;
    const before = i > 0 ? word.left - words[i - 1]!.right : Infinity;
    const after = i < words.length - 1 ? words[i + 1]!.left - word.right : Infinity;
    return Math.min(before, after) < 2.5 * charWidth;
  });
}

/** Lower case, OCR's stray quotes and leaders gone, one space between words. */
function normaliseLabel(text: string): string {
  return text
    .toLowerCase()
    .replace(/[‘’`]/g, "'")
    .replace(/[“”"|_~»«©®*]/g, ' ')
    .replace(/\.{2,}/g, ' ')
    .replace(/^[^a-z(]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Lines that head a group of rows, never the first half of a wrapped label. */
const HEADING =
  /^(fixed assets|non-current assets|current assets|capital and reserves|equity|current liabilities|non-current liabilities|financed by|assets|liabilities)$/;
/** A label cut after one of these words goes on on the next line... */
const CONTINUES = /\b(less|current|due|within|after|than|one|for|and|of|falling|more|including|payable|on)$/;
/** ...and so does one whose next line starts with one of these. */
const GOES_ON = /^(liabilities|year|one year|and|than|within|after|amounts|more than|falling|due|\()/;

/**
 * The rows of a page. A label that wraps ("Creditors: amounts falling due within one" / "year 11
 * (1,823)") is joined to the line below it when that line goes on in lower case.
 */
export function rowsOf(lines: readonly Line[]): Row[] {
  const rows = lines.map(rowOf).filter((row) => row.label !== '' || row.amounts.length > 0);
  const joined: Row[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const next = rows[i + 1];
    if (
      next &&
      row.amounts.length === 0 &&
      row.label !== '' &&
      next.label !== '' &&
      next.amounts.length > 0 &&
      !HEADING.test(row.label) &&
      (CONTINUES.test(row.label) || GOES_ON.test(next.label)) &&
      next.top - row.bottom < 2 * (row.bottom - row.top)
    ) {
      joined.push({ ...next, label: `${row.label} ${next.label}`, top: row.top, line: row.line });
      i++;
    } else {
      joined.push(row);
    }
  }
  return joined;
}
