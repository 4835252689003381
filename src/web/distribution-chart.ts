/**
 * A figure's distribution chart (market page) as SVG drawn on the server from
 * distribution-layout.ts: no script, no library, colours as presentation attributes (the CSP
 * allows no inline style). An image to screen readers, with a title and the numbers in words.
 *
 * As the company page's charts: the SVG has no viewBox, so it is never scaled and its text keeps
 * the stylesheet's 13 px in a phone's column (scaled into 312 px, a 560-unit drawing's 12 px text
 * was 7 px). Across, positions are percentages of the width; down, pixels. The median carries its
 * value above the box, so it is read without hovering; on a phone every other tick label is left
 * out (class "minor", site.css) so that the ones left stay apart. The page puts the numbers in
 * words under the drawing and in a table behind a <details> toggle.
 */
import type { FigureStats } from '../domain/criteria.ts';
import { formatMoney } from '../domain/money.ts';
import { distributionLayout } from './distribution-layout.ts';
import type { Tick } from './distribution-layout.ts';
import { formatPounds } from './format.ts';
import type { SafeHtml } from './html.ts';
import { html } from './html.ts';

export interface DistributionChartOptions {
  /** Unique on the page: the svg's id is `chart-<id>`, its title and description hang off it. */
  id: string;
  /** "Net assets" */
  label: string;
  /** Money (£1.2m on the axis) or a head count. */
  unit: 'money' | 'count';
}

const INK = '#0b0c0c';
const BOX = '#1d70b8';
const MUTED = '#505a5f';

/** A percentage across the drawing, as an SVG length. */
const pc = (x: number) => `${x}%`;

/** The chart of `stats`, or null when nothing is filed. */
export function distributionChart(stats: FigureStats, options: DistributionChartOptions): SafeHtml | null {
  const layout = distributionLayout(stats);
  if (layout === null) return null;
  const id = `chart-${options.id}`;
  const tickLabels = axisLabels(layout.ticks, options.unit);
  const description = chartDescription(stats, options.unit);
  const { axisY } = layout;
  const short = options.unit === 'money' ? formatMoney : (n: number) => n.toLocaleString('en-GB');
  // The median's label reads from the median, kept inside the drawing near either end.
  const anchor = layout.median < 30 ? 'start' : layout.median > 70 ? 'end' : 'middle';
  return html`<svg
    id="${id}"
    class="distribution-chart"
    role="img"
    aria-labelledby="${id}-title ${id}-desc"
    width="100%"
    height="${layout.height}"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title id="${id}-title">${options.label}: distribution of the latest filed figures</title>
    <desc id="${id}-desc">${description}</desc>
    ${
      layout.zero !== null
        ? html`<line
            x1="${pc(layout.zero)}"
            y1="${layout.boxTop - 4}"
            x2="${pc(layout.zero)}"
            y2="${axisY}"
            stroke="${MUTED}"
            stroke-dasharray="3 3"
          />`
        : ''
    }
    ${boxAndWhiskers(layout)}
    <text class="value-label" x="${pc(layout.median)}" y="${layout.labelY}" text-anchor="${anchor}" fill="${INK}"
      >median ${short(stats.median!)}</text
    >
    ${axis(layout, tickLabels)}
  </svg>`;
}

type Layout = NonNullable<ReturnType<typeof distributionLayout>>;

/** The numbers of the chart in words, for screen readers. */
function chartDescription(stats: FigureStats, unit: DistributionChartOptions['unit']): string {
  const format = unit === 'money' ? formatMoney : (n: number) => n.toLocaleString('en-GB');
  const show = (value: number | null) => (value === null ? 'n/a' : format(value));
  return (
    `${stats.count.toLocaleString('en-GB')} companies. 10% are below ${show(stats.p10)}, 25% below ` +
    `${show(stats.p25)}, half below ${show(stats.median)} (the median), 75% below ${show(stats.p75)} and 90% ` +
    `below ${show(stats.p90)}. Mean ${show(stats.mean)}.`
  );
}

/** The whiskers (10th to 90th percentile), the box (25th to 75th), the median and the mean. */
function boxAndWhiskers(layout: Layout): SafeHtml {
  const { boxTop, boxBottom, midY } = layout;
  const line = (x1: number, y1: number, x2: number, y2: number, width = 1.5) =>
    html`<line x1="${pc(x1)}" y1="${y1}" x2="${pc(x2)}" y2="${y2}" stroke="${INK}" stroke-width="${width}" />`;
  return html`${line(layout.p10, midY, layout.p25, midY)} ${line(layout.p75, midY, layout.p90, midY)}
    ${line(layout.p10, boxTop + 8, layout.p10, boxBottom - 8)} ${line(layout.p90, boxTop + 8, layout.p90, boxBottom - 8)}
    <rect
      x="${pc(layout.p25)}"
      y="${boxTop}"
      width="${pc(Math.max(0.2, Math.round((layout.p75 - layout.p25) * 10) / 10))}"
      height="${boxBottom - boxTop}"
      fill="#d2e2f1"
      stroke="${BOX}"
      stroke-width="1.5"
    />
    ${line(layout.median, boxTop, layout.median, boxBottom, 3)}
    ${
      layout.mean !== null
        ? html`<circle cx="${pc(layout.mean)}" cy="${midY}" r="4.5" fill="#ffffff" stroke="#d4351c" stroke-width="2" />`
        : ''
    }`;
}

/**
 * The axis, its ticks and their labels; every other label is "minor" (left out on a phone). The
 * end labels read inwards from their ticks, so that a long one is never cut at the drawing's edge.
 */
function axis(layout: Layout, tickLabels: Map<Tick, string>): SafeHtml {
  const { axisY, tickLabelY } = layout;
  return html`<line
      x1="${pc(layout.ticks[0]!.x)}"
      y1="${axisY}"
      x2="${pc(layout.ticks.at(-1)!.x)}"
      y2="${axisY}"
      stroke="${MUTED}"
    />
    ${layout.ticks.map(
      (tick, i) =>
        html`<line x1="${pc(tick.x)}" y1="${axisY}" x2="${pc(tick.x)}" y2="${axisY + 5}" stroke="${MUTED}" /><text
            class="tick-label${i % 2 === 1 ? ' minor' : ''}"
            x="${pc(tick.x)}"
            y="${tickLabelY}"
            text-anchor="${i === 0 ? 'start' : i === layout.ticks.length - 1 ? 'end' : 'middle'}"
            fill="${INK}"
            >${tickLabels.get(tick) ?? ''}</text
          > `,
    )}`;
}

/**
 * The axis labels: short money (£1.2m) unless two ticks would read alike (£1,002,000 and
 * £1,004,000 both "£1m"), then pounds in full; counts with thousands separators.
 */
export function axisLabels(ticks: readonly Tick[], unit: 'money' | 'count'): Map<Tick, string> {
  const short = ticks.map((tick) => (unit === 'money' ? formatMoney(tick.value) : tick.value.toLocaleString('en-GB')));
  const labels = new Set(short).size === short.length ? short : ticks.map((tick) => formatPounds(tick.value));
  return new Map(ticks.map((tick, i) => [tick, labels[i]!]));
}
