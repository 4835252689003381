import type { AccountsPeriod } from '../../src/domain/accounts-period.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import type { FigureSet } from '../../src/domain/figures.ts';

/** A history entry with only the given figures filed. */
export function period(
  balanceSheetDate: string,
  figures: Partial<FigureSet>,
  published: string | null = null,
): AccountsPeriod {
  return { balance_sheet_date: balanceSheetDate, published, figures: { ...emptyFigures(), ...figures } };
}
