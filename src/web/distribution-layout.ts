/**
 * Where the marks of a figure's distribution chart go (market page): a box from the 25th to the
 * 75th percentile, whiskers out to the 10th and 90th, the median as a line and the mean as a dot,
 * on a linear axis with round-number ticks. Pure geometry (across in percent, down in pixels);
 * the page draws it.
 *
 * A linear axis over p10–p90 rather than a log one: people read it without a lesson, money can
 * be negative (net assets, profit), and the percentiles are printed beside the chart anyway.
 */
import type { FigureStats } from '../domain/criteria.ts';

export interface Tick {
  x: number;
  value: number;
}

export interface DistributionLayout {
  width: number;
  height: number;
  /** The middle of the box, where the whiskers run. */
  midY: number;
  /** The baseline of the median's label, above the box. */
  labelY: number;
  /** The baseline of the tick labels, below the axis. */
  tickLabelY: number;
  boxTop: number;
  boxBottom: number;
  p10: number;
  p25: number;
  median: number;
  p75: number;
  p90: number;
  mean: number | null;
  /** The zero line, when zero lies inside the axis (a figure that can be negative). */
  zero: number | null;
  /** The axis line's height and the ticks along it. */
  axisY: number;
  ticks: Tick[];
}

/**
 * Across, in percent of the drawing's width (the column's: the drawing is never scaled, so its
 * text keeps the page's size on a phone); down, in pixels. Room on either side for half a tick
 * label, above the box for the median's label, below the axis for the tick labels.
 */
export const CHART = {
  width: 100,
  height: 96,
  left: 8,
  right: 8,
  labelY: 14,
  boxTop: 22,
  boxBottom: 54,
  axisY: 70,
  tickLabelY: 88,
} as const;

/**
 * The layout of `stats`, or null when nothing has been filed (count 0, or percentiles missing).
 * A distribution with no spread (every value alike) gets an axis around its one value.
 */
export function distributionLayout(stats: FigureStats): DistributionLayout | null {
  const { p10, p25, median, p75, p90, mean } = stats;
  if (stats.count === 0 || p10 === null || p25 === null || median === null || p75 === null || p90 === null) return null;
  const values = [p10, p90, ...(mean !== null ? [mean] : [])];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi === lo) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) / 2 : 1;
    lo -= pad;
    hi += pad;
  }
  const ticks = niceTicks(lo, hi, 5);
  // The axis runs from tick to tick so that its ends are labelled.
  const from = Math.min(lo, ticks[0]!);
  const to = Math.max(hi, ticks[ticks.length - 1]!);
  const inner = CHART.width - CHART.left - CHART.right;
  const x = (value: number) => round(CHART.left + ((value - from) / (to - from)) * inner);
  return {
    width: CHART.width,
    height: CHART.height,
    midY: (CHART.boxTop + CHART.boxBottom) / 2,
    labelY: CHART.labelY,
    tickLabelY: CHART.tickLabelY,
    boxTop: CHART.boxTop,
    boxBottom: CHART.boxBottom,
    p10: x(p10),
    p25: x(p25),
    median: x(median),
    p75: x(p75),
    p90: x(p90),
    mean: mean === null ? null : x(mean),
    zero: from < 0 && to > 0 ? x(0) : null,
    axisY: CHART.axisY,
    ticks: ticks.map((value) => ({ x: x(value), value })),
  };
}

/**
 * About `count` round values (1, 2 or 5 times a power of ten apart) covering lo..hi, the first at
 * or below lo and the last at or above hi.
 */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  const raw = (hi - lo) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const first = Math.floor(lo / step);
  const last = Math.ceil(hi / step);
  // Rounded to the step's decimals, so that 3 × 0.2 is 0.6, not 0.6000000000000001.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toFixed(decimals)) || 0);
  return ticks;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
