/**
 * The figures the service reads from a set of accounts, in the order the API contract lists them.
 * `null` always means "not filed", never zero.
 */
export const FIGURE_KEYS = [
  'net_assets',
  'equity',
  'total_assets_less_current_liabilities',
  'cash',
  'current_assets',
  'creditors',
  'creditors_within_one_year',
  'creditors_after_one_year',
  'turnover',
  'debtors',
  'employees',
  'profit',
] as const;

export type FigureKey = (typeof FIGURE_KEYS)[number];

export type FigureSet = Record<FigureKey, number | null>;

/** Accounting framework a filing was prepared under, as the contract names them. */
export const STANDARDS = ['FRS 105', 'FRS 102', 'IFRS', 'UK GAAP', 'unknown'] as const;
export type AccountingStandard = (typeof STANDARDS)[number];

/**
 * Where an accounts entry's figures came from: tagged in an iXBRL filing, or estimated by reading
 * a scanned PDF (src/pdf-accounts); an estimate carries a confidence per figure.
 */
export const FIGURE_SOURCES = ['ixbrl', 'pdf_ocr'] as const;
export const ESTIMATE_GRADES = ['high', 'medium', 'low'] as const;

/** A figure set with nothing filed. */
export function emptyFigures(): FigureSet {
  return {
    net_assets: null,
    equity: null,
    total_assets_less_current_liabilities: null,
    cash: null,
    current_assets: null,
    creditors: null,
    creditors_within_one_year: null,
    creditors_after_one_year: null,
    turnover: null,
    debtors: null,
    employees: null,
    profit: null,
  };
}

/** True when at least one figure was filed. */
export function hasAnyFigure(figures: FigureSet): boolean {
  return FIGURE_KEYS.some((key) => figures[key] !== null);
}
