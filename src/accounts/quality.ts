/**
 * Plausibility checks on a filing's figures. The figures stay as filed; these warnings tell the
 * reader where the tagging is probably wrong, naming the field.
 */
import type { FigureKey, FigureSet } from '../domain/figures.ts';

export interface QualityWarning {
  /** The implausible figure, or `balance_sheet_date` when the date has no figures at all. */
  field: FigureKey | 'balance_sheet_date';
  period: 'current' | 'prior';
  message: string;
}

/**
 * The warning for a filing that tags no figure at its balance sheet date (it printed "-" in the
 * current column and tagged only the comparative one): its current figures stay empty.
 */
export function noCurrentFigures(balanceSheetDate: string, priorDate: string | null): QualityWarning {
  const prior = priorDate === null ? '' : `; the figures tagged for ${priorDate} are the prior period`;
  return {
    field: 'balance_sheet_date',
    period: 'current',
    message: `no figures are tagged for the balance sheet date ${balanceSheetDate}${prior}`,
  };
}

/** Warnings for one period's figures. */
export function qualityWarnings(figures: FigureSet, period: QualityWarning['period']): QualityWarning[] {
  const warnings: QualityWarning[] = [];
  const { employees, net_assets: na, total_assets_less_current_liabilities: talcl } = figures;
  if (employees !== null && !Number.isInteger(employees)) {
    warnings.push({ field: 'employees', period, message: `average employees ${employees} is not a whole number` });
  }
  if (employees !== null && employees < 0) {
    warnings.push({ field: 'employees', period, message: `average employees ${employees} is negative` });
  }
  if (na !== null && talcl !== null && na !== 0 && talcl !== 0 && Math.sign(na) !== Math.sign(talcl)) {
    // Net assets are TALCL less long-term creditors, provisions and accruals, so a positive TALCL
    // may sit above negative net assets; but a negative TALCL under positive net assets, or the same
    // amount with the sign flipped, is a tagging error.
    if (talcl < 0 || Math.abs(talcl) === Math.abs(na)) {
      warnings.push({
        field: 'total_assets_less_current_liabilities',
        period,
        message: `total assets less current liabilities ${talcl} has the opposite sign to net assets ${na}`,
      });
    }
  }
  return warnings;
}
