/**
 * Which amounts on a statement page belong to the current period. The figures of a column are
 * right-aligned, so their right edges cluster; the column headers (years, "£", "£000") say which
 * cluster is which period. A statement may split a period into an inner and an outer column
 * (items, then their totals), so several clusters may belong to one year.
 */
import type { Amount, Row } from './amounts.ts';
import type { Line } from './ocr-lines.ts';

export interface Columns {
  /** The year over the current-period columns, when the header prints one. */
  currentYear: number | null;
  priorYear: number | null;
  /** Right edges of the clusters holding current-period figures, and of the prior ones. */
  current: number[];
  prior: number[];
  /** Right edges closer than this belong to one column. */
  tolerance: number;
  /** Amounts whose right edge is left of this are note references, not figures. */
  figuresFrom: number;
  /** How the current columns were told: by a year header, by being the only column, or by place. */
  basis: 'years' | 'single' | 'first';
  /** The multiplier of the printed amounts: 1000 under a "£000" header. */
  scale: number;
  /** Index of the header line, or -1. */
  headerLine: number;
}

const YEAR = /^[(]?((?:19|20)\d\d)[)]?[.,:]?$/;
const THOUSANDS = /^£?[’'‘`]?(000|ooo|000s|m)$|^£['’‘`]?000$|^£000[’'`]?s?$/i;

interface HeaderYear {
  year: number;
  centre: number;
  right: number;
}

/** Year words in the right part of a line that carries few other words: a column header. */
function headerYears(line: Line, pageWidth: number): HeaderYear[] {
  const years = line.words
    .filter((word) => YEAR.test(word.text) && word.left > pageWidth * 0.42)
    .map((word) => ({
      year: Number(YEAR.exec(word.text)![1]),
      centre: (word.left + word.right) / 2,
      right: word.right,
    }));
  if (years.length === 0) return [];
  const otherRight = line.words.filter((word) => word.left > pageWidth * 0.42 && !YEAR.test(word.text)).length;
  // A sentence that mentions a year ("...ended 31 December 2016 the company...") is no header.
  return otherRight > years.length * 3 ? [] : years;
}

/** Clusters of right edges, each as its mean right edge and member count. */
function clusters(rights: readonly number[], tolerance: number): { right: number; count: number }[] {
  const sorted = [...rights].sort((a, b) => a - b);
  const found: { sum: number; count: number; last: number }[] = [];
  for (const right of sorted) {
    const last = found.at(-1);
    if (last && right - last.last <= tolerance) {
      last.sum += right;
      last.count++;
      last.last = right;
    } else {
      found.push({ sum: right, count: 1, last: right });
    }
  }
  return found.map((cluster) => ({ right: cluster.sum / cluster.count, count: cluster.count }));
}

/**
 * The columns of a statement page. `rows` are its rows, `lines` the OCR lines they came from.
 * Returns null when no figure column can be found.
 */
export function findColumns(rows: readonly Row[], lines: readonly Line[], pageWidth: number): Columns | null {
  const charWidths = rows.flatMap((row) =>
    row.amounts.filter((a) => !a.dash && a.text.length >= 3).map((a) => (a.right - a.left) / a.text.length),
  );
  const charWidth = median(charWidths) ?? pageWidth / 120;
  const tolerance = charWidth * 2.5;

  let headerLine = -1;
  let years: HeaderYear[] = [];
  for (let i = 0; i < lines.length; i++) {
    const found = headerYears(lines[i]!, pageWidth);
    if (found.length > years.length) {
      years = found;
      headerLine = i;
      if (found.length >= 2) break;
    }
  }
  const scale = scaleOf(lines, headerLine);

  const figureAmounts = rows.filter((row) => headerLine < 0 || row.line > headerLine).flatMap((row) => row.amounts);
  const noteRight = noteColumnRight(lines, headerLine);
  const figuresFrom = noteRight === null ? pageWidth * 0.4 : noteRight + tolerance;
  const inArea = figureAmounts.filter((a) => a.right > figuresFrom);
  const found = clusters(
    inArea.map((a) => a.right),
    tolerance,
  );
  // A column has figures on several lines; a cluster of stray marks or misplaced words does not.
  const most = Math.max(0, ...found.map((cluster) => cluster.count));
  found.splice(0, found.length, ...found.filter((cluster) => cluster.count >= Math.max(2, most * 0.2)));
  // Without a "Note" header, a column of bare one- or two-digit numbers left of the figures is the notes'.
  const leftmostYear = Math.min(Infinity, ...years.map((year) => year.right - 4 * charWidth));
  while (
    found.length > 1 &&
    found[0]!.right < leftmostYear - 2 * charWidth &&
    onlySmall(inArea, found[0]!.right, tolerance) &&
    !onlySmall(inArea, found.at(-1)!.right, tolerance)
  )
    found.shift();
  if (found.length === 0) return null;
  const rights = found.map((cluster) => cluster.right);

  if (years.length >= 2) {
    const ordered = [...years].sort((a, b) => a.centre - b.centre);
    const current = Math.max(...ordered.map((y) => y.year));
    const priorYears = ordered.map((y) => y.year).filter((y) => y !== current);
    const owner = assignColumns(rights, ordered, charWidth);
    return {
      currentYear: current,
      priorYear: priorYears.length > 0 ? Math.max(...priorYears) : null,
      current: rights.filter((_, i) => owner[i]! >= 0 && ordered[owner[i]!]!.year === current),
      prior: rights.filter((_, i) => owner[i]! < 0 || ordered[owner[i]!]!.year !== current),
      tolerance,
      figuresFrom,
      basis: 'years',
      scale,
      headerLine,
    };
  }
  const only = years[0] ?? null;
  if (only !== null) {
    // One year printed: the columns under it and left of it are its own; any right of it belong
    // to a period whose header OCR lost, and are not taken.
    const split = rights.filter((right) => right <= only.right + 3 * charWidth).length;
    return {
      currentYear: only.year,
      priorYear: null,
      current: rights.slice(0, split),
      prior: rights.slice(split),
      tolerance,
      figuresFrom,
      basis: 'single',
      scale,
      headerLine,
    };
  }
  // No year printed: one column is the period's; of several, the first is the current period
  // (the statutory order), which is a guess.
  const split = rights.length === 1 ? 1 : firstPeriodCount(rights, charWidth);
  return {
    currentYear: null,
    priorYear: null,
    current: rights.slice(0, split),
    prior: rights.slice(split),
    tolerance,
    figuresFrom,
    basis: rights.length === 1 ? 'single' : 'first',
    scale,
    headerLine,
  };
}

function onlySmall(amounts: readonly Amount[], right: number, tolerance: number): boolean {
  return amounts.filter((a) => Math.abs(a.right - right) <= tolerance).every((a) => a.small);
}

/** With no header years: the columns up to the widest gap are the first period's. */
function firstPeriodCount(rights: readonly number[], charWidth: number): number {
  if (rights.length <= 2) return 1;
  let widest = 0;
  let at = 1;
  for (let i = 1; i < rights.length; i++) {
    const gap = rights[i]! - rights[i - 1]!;
    if (gap > widest + charWidth) {
      widest = gap;
      at = i;
    }
  }
  return at;
}

/**
 * Each column's header year (an index into `years`, which are left to right). The assignment
 * keeps the left-to-right order and minimises the distance from each column's middle to its
 * year's; of two equal assignments, the one giving each year as many columns wins.
 */
function assignColumns(rights: readonly number[], years: readonly HeaderYear[], charWidth: number): number[] {
  // Both periods nearly always have the same sub-columns (items, then totals): split evenly.
  if (rights.length % years.length === 0) {
    const per = rights.length / years.length;
    return rights.map((_, i) => Math.floor(i / per));
  }
  // Otherwise each column goes to the year whose right edge is nearest its own, and a column
  // about as near to two years goes to neither (-1): it is never taken as the current period's.
  return rights.map((right) => {
    const distances = years.map((year) => Math.abs(year.right - right));
    const order = distances.map((d, i) => [d, i] as const).sort((a, b) => a[0] - b[0]);
    const [nearest, second] = order as [readonly [number, number], readonly [number, number]];
    return nearest[0] < second[0] * 0.5 || nearest[0] < 2 * charWidth ? nearest[1] : -1;
  });
}

/** The right edge of a "Note"/"Notes" header word, on the header line or just above or below it. */
function noteColumnRight(lines: readonly Line[], headerLine: number): number | null {
  const near = headerLine < 0 ? lines.slice(0, 12) : lines.slice(Math.max(0, headerLine - 2), headerLine + 3);
  for (const line of near) {
    const note = line.words.find((word) => /^notes?$/i.test(word.text.replace(/[^A-Za-z]/g, '')));
    if (note) return note.right;
  }
  return null;
}

/** 1000 when "£000" (or "£'000") heads the columns, near the header line; otherwise 1. */
function scaleOf(lines: readonly Line[], headerLine: number): number {
  const near = headerLine < 0 ? lines.slice(0, 15) : lines.slice(Math.max(0, headerLine - 2), headerLine + 4);
  return near.some((line) => line.words.some((word) => THOUSANDS.test(word.text))) ? 1000 : 1;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The amount of `row` in a current-period column (the outermost when two are), or null. */
export function currentAmount(row: Row, columns: Columns): Amount | null {
  const found = columns.current
    .map((right) => closest(row.amounts, right, columns.tolerance * 1.2))
    .filter((amount): amount is Amount => amount !== null);
  return found.at(-1) ?? null;
}

function closest(amounts: readonly Amount[], right: number, within: number): Amount | null {
  let best: Amount | null = null;
  for (const amount of amounts) {
    const distance = Math.abs(amount.right - right);
    if (distance <= within && (best === null || distance < Math.abs(best.right - right))) best = amount;
  }
  return best;
}
