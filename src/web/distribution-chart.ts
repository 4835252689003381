/**
 * A figure's distribution chart (market page) as SVG drawn on the server from
 * distribution-layout.ts: no script, no library, colours as presentation attributes (the CSP
 * allows no inline style). An image to screen readers, with a title and the numbers in words.
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

/** The chart of `stats`, or null when nothing is filed. */
export function distributionChart(stats: FigureStats, options: DistributionChartOptions): SafeHtml | null {
  const layout = distributionLayout(stats);
  if (layout === null) return null;
  const id = `chart-${options.id}`;
  const tickLabels = axisLabels(layout.ticks, options.unit);
  const description = chartDescription(stats, options.unit);
  const { axisY } = layout;
  return html`<svg
    id="${id}"
    class="distribution-chart"
    role="img"
    aria-labelledby="${id}-title ${id}-desc"
    viewBox="0 0 ${layout.width} ${layout.height}"
    width="${layout.width}"
    height="${layout.height}"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title id="${id}-title">${options.label}: distribution of the latest filed figures</title>
    <desc id="${id}-desc">${description}</desc>
    ${
      layout.zero !== null
        ? html`<line
            x1="${layout.zero}"
            y1="4"
            x2="${layout.zero}"
            y2="${axisY}"
            stroke="${MUTED}"
            stroke-dasharray="3 3"
          />`
        : ''
    }
    ${boxAndWhiskers(layout)}
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
  return html`<line x1="${layout.p10}" y1="${midY}" x2="${layout.p25}" y2="${midY}" stroke="${INK}" stroke-width="1.5" />
    <line x1="${layout.p75}" y1="${midY}" x2="${layout.p90}" y2="${midY}" stroke="${INK}" stroke-width="1.5" />
    <line
      x1="${layout.p10}"
      y1="${boxTop + 8}"
      x2="${layout.p10}"
      y2="${boxBottom - 8}"
      stroke="${INK}"
      stroke-width="1.5"
    />
    <line
      x1="${layout.p90}"
      y1="${boxTop + 8}"
      x2="${layout.p90}"
      y2="${boxBottom - 8}"
      stroke="${INK}"
      stroke-width="1.5"
    />
    <rect
      x="${layout.p25}"
      y="${boxTop}"
      width="${Math.max(1, Math.round((layout.p75 - layout.p25) * 10) / 10)}"
      height="${boxBottom - boxTop}"
      fill="#d2e2f1"
      stroke="${BOX}"
      stroke-width="1.5"
    />
    <line
      x1="${layout.median}"
      y1="${boxTop}"
      x2="${layout.median}"
      y2="${boxBottom}"
      stroke="${INK}"
      stroke-width="3"
    />
    ${
      layout.mean !== null
        ? html`<circle cx="${layout.mean}" cy="${midY}" r="4.5" fill="#ffffff" stroke="#d4351c" stroke-width="2" />`
        : ''
    }`;
}

/** The axis, its ticks and their labels. */
function axis(layout: Layout, tickLabels: Map<Tick, string>): SafeHtml {
  const { axisY } = layout;
  return html`<line x1="${layout.ticks[0]!.x}" y1="${axisY}" x2="${layout.ticks.at(-1)!.x}" y2="${axisY}" stroke="${MUTED}" />
    ${layout.ticks.map(
      (tick) =>
        html`<line x1="${tick.x}" y1="${axisY}" x2="${tick.x}" y2="${axisY + 5}" stroke="${MUTED}" /><text
            x="${tick.x}"
            y="${axisY + 19}"
            text-anchor="middle"
            font-size="12"
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
