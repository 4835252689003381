/**
 * The lines of a balance sheet and profit and loss account that follow from the tagged figures:
 * fixed assets, net current assets, stock, provisions, reserves, and a plausible profit and loss
 * account above the profit. Each period column is derived on its own, from the identities
 *
 *   net current assets = current assets - creditors within one year
 *   fixed assets = total assets less current liabilities - net current assets
 *   provisions = total assets less current liabilities - creditors after one year - net assets
 *
 * so whatever the writer prints agrees with the figures it tags.
 */
import type { FigureSet } from '../domain/figures.ts';
import type { Random } from './random.ts';

export interface Column {
  figures: FigureSet;
  /** Net assets as printed: the tagged net assets, else the tagged equity. */
  netAssets: number | null;
  /** Creditors due within one year as printed: the maturity amount, else the undimensioned total. */
  within: number | null;
  netCurrent: number | null;
  fixed: number | null;
  /** Current assets other than cash and debtors, when both of those are known. */
  stock: number | null;
  /** Provisions for liabilities, when creditors after one year are tagged (so the rest is known). */
  provisions: number | null;
  /** Long-term creditors and provisions together, when creditors after one year are not tagged. */
  longTerm: number | null;
  reserves: number | null;
}

/** The printed lines of one period column, derived from the figures it tags. */
export function columnOf(figures: FigureSet, shareCapital: number): Column {
  const netAssets = figures.net_assets ?? figures.equity;
  const within = figures.creditors_within_one_year ?? figures.creditors;
  const ca = figures.current_assets;
  const talcl = figures.total_assets_less_current_liabilities;
  const netCurrent = ca !== null && within !== null ? ca - within : null;
  const fixed = talcl !== null && netCurrent !== null ? talcl - netCurrent : null;
  const stock =
    ca !== null && figures.cash !== null && figures.debtors !== null ? ca - figures.cash - figures.debtors : null;
  const rest = talcl !== null && netAssets !== null ? talcl - netAssets : null;
  const after = figures.creditors_after_one_year;
  return {
    figures,
    netAssets,
    within,
    netCurrent,
    fixed,
    stock,
    provisions: rest !== null && after !== null ? rest - after : null,
    longTerm: rest !== null && after === null ? rest : null,
    reserves: netAssets === null ? null : netAssets - shareCapital,
  };
}

export interface ProfitAndLoss {
  turnover: number;
  costOfSales: number;
  grossProfit: number;
  administrativeExpenses: number;
  operatingProfit: number;
  interestPayable: number;
  profitBeforeTax: number;
  tax: number;
  profit: number;
}

/** A profit and loss account that ends at `profit` (after tax), in multiples of `unit`. */
export function profitAndLoss(turnover: number, profit: number, unit: number, rng: Random): ProfitAndLoss {
  const r = (x: number) => Math.round(x / unit) * unit + 0;
  const tax = profit > 0 ? r((profit * 0.19) / 0.81) : 0;
  const profitBeforeTax = profit + tax;
  const interestPayable = r(turnover * rng.uniform(0, 0.012));
  const operatingProfit = profitBeforeTax + interestPayable;
  let grossProfit = r(turnover * rng.uniform(0.25, 0.6));
  if (grossProfit < operatingProfit + r(turnover * 0.02))
    grossProfit = operatingProfit + r(turnover * rng.uniform(0.02, 0.1));
  if (grossProfit > turnover) grossProfit = Math.max(turnover, operatingProfit);
  return {
    turnover,
    costOfSales: turnover - grossProfit,
    grossProfit,
    administrativeExpenses: grossProfit - operatingProfit,
    operatingProfit,
    interestPayable,
    profitBeforeTax,
    tax,
    profit,
  };
}

/** Split `total` into parts in proportion to `weights`, each a multiple of `unit`, summing exactly. */
export function split(total: number, weights: readonly number[], unit: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum / unit) * unit);
  parts[parts.length - 1]! += total - parts.reduce((a, b) => a + b, 0);
  return parts;
}
