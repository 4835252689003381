/**
 * Growth per figure: a figure of the latest filed accounts against the same figure of the period
 * before, so that "turnover growing" means that turnover grew. The overall trajectory
 * (trajectory.ts) is a vote over five figures across the whole history; a company can be growing
 * overall while its turnover falls, which is why search offers both.
 *
 * The direction takes the trajectory's rule for one figure: growing at +10% or more, declining at
 * -10% or less, stable between; from zero any rise is growth and any fall decline (there is no
 * percentage, so a growth bound never matches it). Without both values: insufficient_data.
 */
import { changePct, round1 } from './accounts-period.ts';
import type { FigureKey } from './figures.ts';
import type { Direction } from './trajectory.ts';
import { figureDirection } from './trajectory.ts';

/**
 * The figures with growth filters, by the names the filters take: `total_assets` is total assets
 * less current liabilities, as in `min_total_assets`.
 */
export const GROWTH_FIGURES = ['turnover', 'profit', 'net_assets', 'total_assets', 'cash', 'employees'] as const;
export type GrowthFigure = (typeof GROWTH_FIGURES)[number];

/** The filed figure each growth name reads. */
const GROWTH_SOURCE: Readonly<Record<GrowthFigure, FigureKey>> = {
  turnover: 'turnover',
  profit: 'profit',
  net_assets: 'net_assets',
  total_assets: 'total_assets_less_current_liabilities',
  cash: 'cash',
  employees: 'employees',
};

/** What the `<figure>_trend` filters take. */
export const TREND_FILTERS = ['growing', 'stable', 'declining'] as const;
export type TrendFilter = (typeof TREND_FILTERS)[number];

/** One figure's growth between the two newest periods. */
export interface FigureGrowth {
  /** The figure in the period before the latest; null when not filed. */
  previous: number | null;
  latest: number | null;
  /** Percent change, one decimal, of the absolute previous value; null without both, or from zero. */
  change_pct: number | null;
  direction: Direction;
}

export function figureGrowth(previous: number | null, latest: number | null): FigureGrowth {
  const change = changePct(previous, latest);
  return {
    previous,
    latest,
    change_pct: round1(change),
    direction: previous === null || latest === null ? 'insufficient_data' : figureDirection(previous, latest, change),
  };
}

/** The search document's fields of one figure's growth: `turnover_growth_pct`, `turnover_trend`. */
export type GrowthFacts = Record<`${GrowthFigure}_growth_pct`, number | null> &
  Record<`${GrowthFigure}_trend`, Direction>;

/** The growth facts of every growth figure, from the latest and the previous figures. */
export function growthFacts(
  latest: Readonly<Record<FigureKey, number | null>> | undefined,
  previous: Readonly<Record<FigureKey, number | null>> | undefined,
): GrowthFacts {
  const facts: Record<string, number | null | Direction> = {};
  for (const figure of GROWTH_FIGURES) {
    const source = GROWTH_SOURCE[figure];
    const growth = figureGrowth(previous?.[source] ?? null, latest?.[source] ?? null);
    facts[`${figure}_growth_pct`] = growth.change_pct;
    facts[`${figure}_trend`] = growth.direction;
  }
  return facts as GrowthFacts;
}
