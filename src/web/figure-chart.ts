/**
 * A company's figure over its filed years as an SVG line chart, drawn on the server from numbers
 * (no script, nothing for the CSP to allow). One circle per year that has the figure, carrying its
 * date and value (data-* attributes, and a <title> a pointer or screen reader shows); a year known
 * only from a later filing's prior-year column is drawn hollow (class "prior"). The y axis always
 * includes zero, so a loss or negative net assets sits below the dashed zero line.
 */
import type { SafeHtml } from './html.ts';
import { html } from './html.ts';

export interface ChartPoint {
  /** The balance sheet date, ISO. */
  date: string;
  value: number;
  /** Known only from a later filing's prior-year column. */
  prior: boolean;
}

export interface ChartSpec {
  /** The figure's key (net_assets…): the chart's data-figure, for tests and styling. */
  figure: string;
  /** The figure in words: "Net assets". */
  label: string;
  points: readonly ChartPoint[];
  /** A value as the reader reads it (£1,234; 12). */
  format: (value: number) => string;
  /** A date as the reader reads it (31 March 2024). */
  formatDate: (iso: string) => string;
}

const WIDTH = 480;
const HEIGHT = 220;
const MARGIN = { top: 16, right: 24, bottom: 32, left: 88 };

/** Where a point sits in the SVG's coordinates, for a set of points (oldest first). */
export interface Placed extends ChartPoint {
  x: number;
  y: number;
}

/**
 * Place the points: x by date (a gap of a year missing shows as a gap), y by value on a scale from
 * min(0, lowest) to max(0, highest). A single point, or all equal, sits in the middle.
 */
export function placePoints(points: readonly ChartPoint[]): {
  placed: Placed[];
  zeroY: number;
  low: number;
  high: number;
} {
  const sorted = [...points].sort((a, b) => a.date.localeCompare(b.date));
  const times = sorted.map((p) => Date.parse(`${p.date}T00:00:00Z`));
  const low = Math.min(0, ...sorted.map((p) => p.value));
  const high = Math.max(0, ...sorted.map((p) => p.value));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (time: number) =>
    MARGIN.left + (last === first ? plotWidth / 2 : ((time - first) / (last - first)) * plotWidth);
  const y = (value: number) =>
    MARGIN.top + (high === low ? plotHeight / 2 : ((high - value) / (high - low)) * plotHeight);
  return {
    placed: sorted.map((p, i) => ({ ...p, x: round(x(times[i]!)), y: round(y(p.value)) })),
    zeroY: round(y(0)),
    low,
    high,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** The chart as a <figure>: the SVG, or a sentence when no year has the figure. */
export function figureChart(spec: ChartSpec): SafeHtml {
  const id = `chart-${spec.figure}`;
  if (spec.points.length === 0)
    return html`<figure class="chart" data-figure="${spec.figure}"><figcaption id="${id}">${spec.label}</figcaption>
<p class="chart-empty">Not in any filed accounts.</p></figure>`;
  const { placed, zeroY, low, high } = placePoints(spec.points);
  const path = placed.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
  const firstPoint = placed[0]!;
  const lastPoint = placed[placed.length - 1]!;
  const summary = `${spec.label}: ${placed.length} year${placed.length === 1 ? '' : 's'}, from ${spec.format(firstPoint.value)} (${spec.formatDate(firstPoint.date)}) to ${spec.format(lastPoint.value)} (${spec.formatDate(lastPoint.date)}).`;
  const bottom = HEIGHT - MARGIN.bottom;
  const right = WIDTH - MARGIN.right;
  return html`<figure class="chart" data-figure="${spec.figure}">
<figcaption id="${id}">${spec.label}</figcaption>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}" aria-describedby="${id}-summary" focusable="false">
<desc id="${id}-summary">${summary}</desc>
<line class="axis" x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${bottom}"></line>
<line class="axis" x1="${MARGIN.left}" y1="${bottom}" x2="${right}" y2="${bottom}"></line>
${
  low < 0
    ? html`<line class="zero" x1="${MARGIN.left}" y1="${zeroY}" x2="${right}" y2="${zeroY}"></line>
`
    : ''
}<text class="axis-label" x="${MARGIN.left - 6}" y="${MARGIN.top + 4}" text-anchor="end">${spec.format(high)}</text>
<text class="axis-label" x="${MARGIN.left - 6}" y="${bottom}" text-anchor="end">${spec.format(low)}</text>
${placed.map(
  (p) => html`<text class="axis-label" x="${p.x}" y="${bottom + 18}" text-anchor="middle">${p.date.slice(0, 4)}</text>
`,
)}${
    placed.length > 1
      ? html`<path class="line" d="${path}"></path>
`
      : ''
  }${placed.map(
    (
      p,
    ) => html`<circle class="point${p.prior ? ' prior' : ''}" cx="${p.x}" cy="${p.y}" r="5" data-date="${p.date}" data-value="${p.value}"><title>${spec.formatDate(p.date)}: ${spec.format(p.value)}${p.prior ? ' (from a later filing’s prior-year column)' : ''}</title></circle>
`,
  )}</svg>
</figure>`;
}
