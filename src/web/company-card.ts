/**
 * The company card: a company's name and status, its latest figures, its risk band with the
 * signals and the trajectory behind it, and a chart per figure over its filed years with the same
 * numbers in a table. The Company page shows it, and the MCP App view draws it inside an MCP host
 * from a lookup's result (company-card-app/view.ts): one renderer, so the two cannot drift apart.
 * It imports only what also runs in a browser (no Koa, no operations, no Node).
 */
import { formatMoney } from '../domain/money.ts';
import type { CompanyProfile } from '../operations/company-profile.ts';
import { figureChart } from './figure-chart.ts';
import { formatCount, formatDate, formatPounds } from './format.ts';
import { html } from './html.ts';
import type { SafeHtml } from './html.ts';

/** A company's status, marked so that an inactive one stands out (by words, not colour alone). */
export function statusBadge(status: string): SafeHtml {
  return html`<span class="status ${/^active$/i.test(status) ? 'status-active' : 'status-other'}">${status}</span>`;
}

/** The figures charted and tabled, in reading order. */
export const CHARTED_FIGURES = [
  { key: 'net_assets', label: 'Net assets', money: true },
  { key: 'cash', label: 'Cash', money: true },
  { key: 'turnover', label: 'Turnover', money: true },
  { key: 'profit', label: 'Profit (loss)', money: true },
  { key: 'employees', label: 'Employees', money: false },
] as const;

type Accounts = CompanyProfile['accounts'];

/** Where a card sits: its heading's level (1 alone on a page, 2 among several) and its ids' prefix. */
export interface CardPlace {
  level: 1 | 2;
  /** Prefixed to the card's ids, unique on the page: "" alone, "c3-" for the fourth of a list. */
  ids: string;
}

const ALONE: CardPlace = { level: 1, ids: '' };

/** The company's name as the card's heading, and under it its number, status and type. */
export function cardHeading({ company }: Pick<CompanyProfile, 'company'>, place: CardPlace = ALONE): SafeHtml {
  // Named by id only among several, where each card's <article> is labelled by its heading.
  return html`<h${place.level}${place.ids ? html` id="${place.ids}name"` : ''}>${company.name}</h${place.level}>
<p class="lead">Company number ${company.company_number} · ${statusBadge(company.status)} · ${company.type}</p>`;
}

/** The latest accounts' figures, in full, with their balance sheet date. */
export function latestFigures({ latest }: Pick<CompanyProfile, 'latest'>): SafeHtml {
  if (!latest) return html`<p>No figures are on file for this company.</p>`;
  return html`<p>Latest accounts: balance sheet date ${formatDate(latest.balance_sheet_date)}.</p>
<dl class="facts latest-figures">
${CHARTED_FIGURES.map(
  (f) =>
    html`<dt>${f.label}</dt><dd data-figure="${f.key}">${f.money ? formatPounds(latest.figures[f.key]) : formatCount(latest.figures[f.key])}</dd>\n`,
)}</dl>`;
}

const BAND_WORDS: Readonly<Record<string, string>> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  unknown: 'Unknown',
};

/** The risk band, the signals it is read from, and the trajectory with the figures it is made of. */
export function riskSection(
  profile: Pick<CompanyProfile, 'signals' | 'trajectory' | 'risk_band'>,
  place: CardPlace = ALONE,
): SafeHtml {
  const { signals, trajectory } = profile;
  const level = place.level + 1;
  return html`<section aria-labelledby="${place.ids}risk-heading">
<h${level} id="${place.ids}risk-heading">Risk band and signals</h${level}>
<p>Risk band: <span class="band band-${profile.risk_band}">${BAND_WORDS[profile.risk_band] ?? profile.risk_band}</span> — read from the signals below; not a credit rating.</p>
${
  signals.length === 0
    ? html`<p>No warning signals.</p>`
    : html`<ul class="signals">
${signals.map((s) => html`<li><span class="severity severity-${s.severity}">${s.severity}</span> ${s.message}</li>\n`)}</ul>`
}
${trajectoryExplained(trajectory)}
</section>`;
}

const TREND_FIGURES = [
  ['net_assets', 'Net assets', true],
  ['cash', 'Cash', true],
  ['turnover', 'Turnover', true],
  ['employees', 'Employees', false],
  ['profit', 'Profit', true],
] as const;

/**
 * The trajectory with the figures it is made of: each figure's first and last filed values, its
 * change and direction, and the count that decides the overall direction (more growing than
 * declining: growing), so that "declining" is never a bare word beside a figure that rose.
 */
function trajectoryExplained(trajectory: CompanyProfile['trajectory']): SafeHtml {
  const periods = `${trajectory.periods} period${trajectory.periods === 1 ? '' : 's'}`;
  const count = (direction: string) => TREND_FIGURES.filter(([key]) => trajectory[key].direction === direction).length;
  const [growing, declining, stable] = [count('growing'), count('declining'), count('stable')];
  return html`<p>Trajectory: ${trajectory.direction.replace('_', ' ')} over ${periods}${
    trajectory.direction === 'insufficient_data'
      ? ': no figure was filed in two periods.'
      : html` — ${growing} figure${growing === 1 ? '' : 's'} growing, ${declining} declining, ${stable} stable (10% or more either way, first filed value to last); the overall direction is the side with more.`
  }</p>
<ul class="trajectory-figures">
${TREND_FIGURES.map(([key, label, money]) => {
  const trend = trajectory[key];
  const value = (n: number | null) => (money ? formatPounds(n) : formatCount(n));
  if (trend.direction === 'insufficient_data')
    return html`<li>${label}: not filed in two periods</li>
`;
  const change = trend.change_pct === null ? '' : ` (${trend.change_pct > 0 ? '+' : ''}${trend.change_pct}%)`;
  return html`<li>${label}: ${value(trend.first)} to ${value(trend.last)}${change}, ${trend.direction}</li>
`;
})}</ul>`;
}

/**
 * A chart per figure over the filed years, oldest first, and a table of the same numbers by
 * balance sheet date; `years` is the accounts history oldest first, and not empty.
 */
export function figureCharts(years: Accounts): SafeHtml {
  const charts = CHARTED_FIGURES.map((figure) =>
    figureChart({
      figure: figure.key,
      label: figure.label,
      points: years.flatMap((entry) => {
        const value = entry.figures[figure.key];
        return value === null || value === undefined
          ? []
          : [{ date: entry.balance_sheet_date, value, prior: entry.from_prior_period }];
      }),
      format: figure.money ? (value) => formatMoney(value) : (value) => formatCount(value),
      formatExact: figure.money ? (value) => formatPounds(value) : (value) => formatCount(value),
      formatDate,
    }),
  );
  return html`<p class="legend">One point per balance sheet date, with its value beside it; the scale starts at zero (a dashed line when a value falls below it). A hollow point is a year known only from the prior-year column of a later filing. Amounts in pounds as filed; each chart’s values and yearly changes are also in a table under it.</p>
<div class="charts">
${charts}</div>
<div class="table-wrap" role="region" aria-labelledby="figures-caption" tabindex="0">
<table class="figures-table">
<caption id="figures-caption">The same figures, by balance sheet date</caption>
<thead><tr><th scope="col">Balance sheet date</th>${CHARTED_FIGURES.map((f) => html`<th scope="col" class="number">${f.label}</th>`)}<th scope="col">Source</th></tr></thead>
<tbody>
${years.map(
  (entry) =>
    html`<tr data-date="${entry.balance_sheet_date}"${entry.source.kind === 'pdf_ocr' ? html` class="estimate"` : ''}><th scope="row">${formatDate(entry.balance_sheet_date)}</th>${CHARTED_FIGURES.map(
      (f) =>
        html`<td class="number">${f.money ? formatPounds(entry.figures[f.key]) : formatCount(entry.figures[f.key])}</td>`,
    )}<td>${sourceWords(entry)}</td></tr>\n`,
)}</tbody>
</table>
</div>`;
}

/** Where a year's figures came from, in words. */
function sourceWords(entry: Accounts[number]): string {
  if (entry.source.kind === 'pdf_ocr') {
    const grades = CHARTED_FIGURES.filter((f) => entry.confidence?.[f.key])
      .map((f) => `${f.label.toLowerCase()} ${entry.confidence?.[f.key]}`)
      .join(', ');
    return `Estimated from a scanned PDF (confidence: ${grades || 'none of these figures read'})`;
  }
  if (entry.from_prior_period) return 'Prior-year column of a later filing';
  return `Accounts published ${formatDate(entry.published)} (${entry.standard})`;
}
