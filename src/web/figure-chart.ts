/**
 * A company's figure over its filed years as an SVG line chart, drawn on the server from numbers
 * (no script, nothing for the CSP to allow), readable on a phone as on a desktop.
 *
 * The SVG has no viewBox, so it is never scaled: its text is drawn at the page's own size (the
 * stylesheet's 13 px) at any width, where a scaled drawing shrank it to 8 px in a phone's column.
 * Across, positions are percentages of the chart's width; down, pixels of its fixed height.
 *
 * Each point carries its value as a label beside it, so that it is read without hovering, on a
 * touch screen or with a keyboard (above the point, or below it when negative, clear of the zero
 * line); its date and value as data-* attributes and a <title>; a year known
 * only from a later filing's prior-year column is drawn hollow (class "prior"). The y axis always
 * includes zero, its one label; a loss or negative net assets sits below the dashed zero line.
 * Above the drawing a sentence gives the growth (latest against the year before, in words); below
 * it, a <details> table holds every year's value and change, the same numbers without the drawing.
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
  /** A value as a label beside its point reads it, short (£1.2m; 12). */
  format: (value: number) => string;
  /** A value in full, for the table (£1,234,567; 12). */
  formatExact: (value: number) => string;
  /** A date as the reader reads it (31 March 2024). */
  formatDate: (iso: string) => string;
}

/** The drawing's height in CSS pixels; its width is the column's. */
const HEIGHT = 216;
/** Down, in pixels: room above the highest point for its label, below the lowest for its label and the years. */
const TOP = 28;
const BOTTOM = 160;
const YEAR_BASELINE = 204;
/** Across, in percent of the width: room on the left for the zero's label, on the right for a label's half. */
const LEFT = 12;
const RIGHT = 90;
/**
 * Past this many points, only the first and the last carry a value and a year: in a 312 px column
 * (a 360 px phone less main's padding) five points sit 61 px apart, room for a 13 px label such as
 * "-£21.5m" (about 55 px); six would sit 49 px apart and overlap. The table below has them all.
 */
const MAX_LABELLED = 5;

/** Where a point sits: x in percent of the chart's width, y in pixels from its top. */
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
} {
  const sorted = [...points].sort((a, b) => a.date.localeCompare(b.date));
  const times = sorted.map((p) => Date.parse(`${p.date}T00:00:00Z`));
  const low = Math.min(0, ...sorted.map((p) => p.value));
  const high = Math.max(0, ...sorted.map((p) => p.value));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const x = (time: number) =>
    LEFT + (last === first ? (RIGHT - LEFT) / 2 : ((time - first) / (last - first)) * (RIGHT - LEFT));
  const y = (value: number) =>
    TOP + (high === low ? (BOTTOM - TOP) / 2 : ((high - value) / (high - low)) * (BOTTOM - TOP));
  return {
    placed: sorted.map((p, i) => ({ ...p, x: round(x(times[i]!)), y: round(y(p.value)) })),
    zeroY: round(y(0)),
    low,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A change in words: "up £60k (40%)", "down 2", "unchanged"; the percentage only from a positive base. */
export function changeWords(previous: number, latest: number, format: (value: number) => string): string {
  const difference = latest - previous;
  if (difference === 0) return 'unchanged';
  const pct = previous > 0 ? ` (${Math.round((Math.abs(difference) / previous) * 100)}%)` : '';
  return `${difference > 0 ? 'up' : 'down'} ${format(Math.abs(difference))}${pct}`;
}

/** The growth sentence: the latest value against the year before it, or why there is no comparison. */
function growthSentence(placed: readonly Placed[], spec: ChartSpec): string {
  const latest = placed[placed.length - 1]!;
  const latestWords = `${spec.format(latest.value)} (${spec.formatDate(latest.date)})`;
  const previous = placed[placed.length - 2];
  if (!previous) return `Latest ${latestWords}; no earlier year to compare with.`;
  return `Latest ${latestWords}: ${changeWords(previous.value, latest.value, spec.format)} from ${spec.format(previous.value)} (${spec.formatDate(previous.date)}).`;
}

/** The chart as a <figure>: the growth, the SVG and its table, or a sentence when no year has the figure. */
export function figureChart(spec: ChartSpec): SafeHtml {
  const id = `chart-${spec.figure}`;
  if (spec.points.length === 0)
    return html`<figure class="chart" data-figure="${spec.figure}"><figcaption id="${id}">${spec.label}</figcaption>
<p class="chart-empty">Not in any filed accounts.</p></figure>`;
  const { placed, zeroY, low } = placePoints(spec.points);
  const firstPoint = placed[0]!;
  const lastPoint = placed[placed.length - 1]!;
  const summary = `${spec.label}: ${placed.length} year${placed.length === 1 ? '' : 's'}, from ${spec.format(firstPoint.value)} (${spec.formatDate(firstPoint.date)}) to ${spec.format(lastPoint.value)} (${spec.formatDate(lastPoint.date)}).`;
  const labelled = (i: number) => placed.length <= MAX_LABELLED || i === 0 || i === placed.length - 1;
  const segments = placed.slice(1).map((p, i) => [placed[i]!, p] as const);
  return html`<figure class="chart" data-figure="${spec.figure}">
<figcaption id="${id}">${spec.label}</figcaption>
<p class="chart-growth" id="${id}-growth">${growthSentence(placed, spec)}</p>
<svg width="100%" height="${HEIGHT}" role="img" aria-labelledby="${id}" aria-describedby="${id}-summary" focusable="false">
<desc id="${id}-summary">${summary}</desc>
<line class="axis" x1="${LEFT}%" y1="${TOP}" x2="${LEFT}%" y2="${BOTTOM}"></line>
<line class="axis" x1="${LEFT}%" y1="${BOTTOM}" x2="${RIGHT}%" y2="${BOTTOM}"></line>
${
  low < 0
    ? html`<line class="zero" x1="${LEFT}%" y1="${zeroY}" x2="${RIGHT}%" y2="${zeroY}"></line>
`
    : ''
}<text class="axis-label" x="0" y="${zeroY}" dominant-baseline="middle">${spec.format(0)}</text>
${placed.map((p, i) =>
  labelled(i)
    ? html`<text class="axis-label" x="${p.x}%" y="${YEAR_BASELINE}" text-anchor="middle">${p.date.slice(0, 4)}</text>
`
    : '',
)}${segments.map(
    ([a, b]) => html`<line class="line" x1="${a.x}%" y1="${a.y}" x2="${b.x}%" y2="${b.y}"></line>
`,
  )}${placed.map(
    (
      p,
    ) => html`<circle class="point${p.prior ? ' prior' : ''}" cx="${p.x}%" cy="${p.y}" r="5" data-date="${p.date}" data-value="${p.value}"><title>${spec.formatDate(p.date)}: ${spec.format(p.value)}${p.prior ? ' (from a later filing’s prior-year column)' : ''}</title></circle>
`,
  )}${placed.map((p, i) =>
    labelled(i)
      ? html`<text class="value-label" x="${p.x}%" y="${p.value < 0 ? p.y + 18 : p.y - 10}" text-anchor="middle" data-date="${p.date}">${spec.format(p.value)}</text>
`
      : '',
  )}</svg>
<details class="chart-values">
<summary>${spec.label}, year by year</summary>
<table>
<thead><tr><th scope="col">Balance sheet date</th><th scope="col" class="number">${spec.label}</th><th scope="col">Change from the year before</th></tr></thead>
<tbody>
${placed.map(
  (p, i) =>
    html`<tr data-date="${p.date}"><th scope="row">${spec.formatDate(p.date)}</th><td class="number">${spec.formatExact(p.value)}</td><td>${i === 0 ? '—' : changeWords(placed[i - 1]!.value, p.value, spec.formatExact)}</td></tr>
`,
)}</tbody>
</table>
</details>
</figure>`;
}
