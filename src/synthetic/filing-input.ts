/**
 * What a filing writer needs: the company, the periods, and the figures to tag. Current and prior
 * `FigureSet`s say what the filing tags; `null` keys are not tagged at all.
 *
 * `creditors` follows the parser's contract: it is the within-one-year amount whenever that is
 * tagged, and may stand alone (an undimensioned FRS total) only in FRS styles.
 */
import type { FigureSet } from '../domain/figures.ts';
import type { IxbrlStyle, SyntheticCompany } from './companies.ts';

export interface FilingInput {
  company: SyntheticCompany;
  balanceSheetDate: string;
  periodStart: string;
  current: FigureSet;
  prior: FigureSet | null;
  priorBalanceSheetDate: string | null;
  priorPeriodStart: string | null;
  style: IxbrlStyle;
}

/** The plain XBRL writer has one style of its own. */
export type PlainFilingInput = Omit<FilingInput, 'style'>;
