/**
 * Trajectory: where a company's figures have gone across its accounts history.
 *
 * Per figure, from its oldest to its newest filed value: the change in percent (of the absolute
 * first value), the compound annual growth rate (only when both ends are positive, since a rate
 * across a change of sign means nothing), and a direction: growing at +10% or more, declining at
 * -10% or less, stable between. Overall: growing when more figures grow than decline, declining
 * when more decline, stable when even; insufficient_data when no figure has two values.
 */
import type { AccountsPeriod } from './accounts-period.ts';
import { changePct, round1 } from './accounts-period.ts';

export const TRAJECTORY_FIGURES = ['net_assets', 'cash', 'turnover', 'employees', 'profit'] as const;
type TrajectoryFigure = (typeof TRAJECTORY_FIGURES)[number];
export type Direction = 'growing' | 'stable' | 'declining' | 'insufficient_data';

interface FigureTrend {
  first: number | null;
  last: number | null;
  change_pct: number | null;
  cagr_pct: number | null;
  direction: Direction;
}

export type Trajectory = { direction: Direction; periods: number } & Record<TrajectoryFigure, FigureTrend>;

const TREND_THRESHOLD_PCT = 10;
const DAYS_PER_YEAR = 365.25;

/** `accounts` newest first, as histories are kept. */
export function trajectory(accounts: readonly AccountsPeriod[]): Trajectory {
  const oldestFirst = [...accounts].sort((a, b) => a.balance_sheet_date.localeCompare(b.balance_sheet_date));
  const trends = Object.fromEntries(
    TRAJECTORY_FIGURES.map((figure) => [figure, figureTrend(oldestFirst, figure)]),
  ) as Record<TrajectoryFigure, FigureTrend>;
  const directions = TRAJECTORY_FIGURES.map((figure) => trends[figure].direction);
  const score = directions.filter((d) => d === 'growing').length - directions.filter((d) => d === 'declining').length;
  const direction: Direction = directions.every((d) => d === 'insufficient_data')
    ? 'insufficient_data'
    : score > 0
      ? 'growing'
      : score < 0
        ? 'declining'
        : 'stable';
  return { direction, periods: accounts.length, ...trends };
}

function figureTrend(oldestFirst: readonly AccountsPeriod[], figure: TrajectoryFigure): FigureTrend {
  const filed = oldestFirst.filter((period) => period.figures[figure] !== null);
  const firstPeriod = filed[0];
  const lastPeriod = filed.at(-1);
  if (!firstPeriod || !lastPeriod || filed.length < 2) {
    return {
      first: firstPeriod?.figures[figure] ?? null,
      last: lastPeriod?.figures[figure] ?? null,
      change_pct: null,
      cagr_pct: null,
      direction: 'insufficient_data',
    };
  }
  const first = firstPeriod.figures[figure]!;
  const last = lastPeriod.figures[figure]!;
  const change = changePct(first, last);
  const years =
    (Date.parse(lastPeriod.balance_sheet_date) - Date.parse(firstPeriod.balance_sheet_date)) /
    86_400_000 /
    DAYS_PER_YEAR;
  const cagr = first > 0 && last > 0 && years > 0 ? ((last / first) ** (1 / years) - 1) * 100 : null;
  return {
    first,
    last,
    change_pct: round1(change),
    cagr_pct: round1(cagr),
    direction: figureDirection(first, last, change),
  };
}

/** One figure's direction from `first` to `last`, `change` the percent change (null from zero). */
export function figureDirection(first: number, last: number, change: number | null): Direction {
  // From zero any rise is growth and any fall decline: there is no percentage to weigh.
  if (change === null) return last > first ? 'growing' : last < first ? 'declining' : 'stable';
  if (change >= TREND_THRESHOLD_PCT) return 'growing';
  if (change <= -TREND_THRESHOLD_PCT) return 'declining';
  return 'stable';
}
