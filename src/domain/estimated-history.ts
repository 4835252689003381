/**
 * A company's accounts history with the estimates read from its scanned PDF accounts merged in:
 * what a lookup shows when estimates are listed, and what the search index's estimated document
 * is built from, so that both read the same history.
 */
import { hasAnyFigure } from './figures.ts';
import type { FigureSet } from './figures.ts';

interface Dated {
  balance_sheet_date: string;
  figures: FigureSet;
}

/**
 * The history with the estimates in it, newest first, one entry per balance sheet date. iXBRL
 * figures are what the company filed, so a date with filed figures keeps them and its estimate is
 * left out: a reader comparing years should never meet a guess where the filed number exists. A
 * date with only an empty filed entry (a filing that tagged no figure there), or none, takes the
 * estimate instead; of several estimates of one date (an amended filing read too), the first
 * given, so `estimates` come newest read first. `estimated` says how many entries are estimates.
 */
export function mergeEstimates<T extends Dated>(
  filed: readonly T[],
  estimates: readonly T[],
): { history: T[]; estimated: number } {
  const byDate = new Map<string, { entry: T; estimate: boolean }>(
    filed.map((entry) => [entry.balance_sheet_date, { entry, estimate: false }]),
  );
  for (const entry of estimates) {
    const held = byDate.get(entry.balance_sheet_date);
    if (held && (held.estimate || hasAnyFigure(held.entry.figures))) continue;
    byDate.set(entry.balance_sheet_date, { entry, estimate: true });
  }
  const kept = [...byDate.values()].sort((a, b) =>
    b.entry.balance_sheet_date.localeCompare(a.entry.balance_sheet_date),
  );
  return { history: kept.map(({ entry }) => entry), estimated: kept.filter(({ estimate }) => estimate).length };
}
