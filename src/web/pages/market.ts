/**
 * The market page (/market): market_stats for a filter (the form has every argument of the
 * operation), the counts in words, and per figure a distribution chart drawn on the server, its
 * numbers in words under it and in a table behind a toggle (<details>, no script); counts by
 * status, type and year, and the groups of group_by.
 */
import type { Context } from 'koa';
import type * as z from 'zod';
import type { FigureStats, RangeFigure } from '../../domain/criteria.ts';
import { RANGE_FIGURES } from '../../domain/criteria.ts';
import { marketStats } from '../../operations/market-stats.ts';
import type { Operation } from '../../operations/operation.ts';
import { distributionChart } from '../distribution-chart.ts';
import { errorSummary, filterForm } from '../filter-form.ts';
import type { FormError } from '../filter-form.ts';
import { fieldGroups, formFields, readForm } from '../form-fields.ts';
import type { SafeHtml } from '../html.ts';
import { formatCount, formatPounds } from '../format.ts';
import { html } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runForVisitor } from '../run-signed-in.ts';

type MarketResult = z.output<typeof marketStats.output>;

/** A share (0–1) as a percentage with one decimal: 0.1234 → "12.3%"; "—" when there is none. */
function percent(share: number | null | undefined): string {
  return share === null || share === undefined ? '—' : `${(share * 100).toFixed(1)}%`;
}

const FIGURE_LABELS: Readonly<Record<RangeFigure, string>> = {
  net_assets: 'Net assets',
  cash: 'Cash',
  turnover: 'Turnover',
  employees: 'Employees',
  profit: 'Profit',
};

/** GET /market */
export const marketPage: WebPage = {
  nav: { href: '/market', label: 'Market' },
  register(router, deps) {
    router.get('web_market_stats', '/market', (ctx) => showMarket(ctx, deps));
  },
};

async function showMarket(ctx: Context, deps: WebDeps): Promise<void> {
  const read = readForm(marketStats as unknown as Operation, ctx.query);
  if (!read.ok) {
    sendPage(ctx, view(read.values, { field: read.field, message: read.message }, null), 400);
    return;
  }
  const result = (await runForVisitor(ctx, deps, {
    operation: marketStats as unknown as Operation,
    input: read.input as Record<string, unknown>,
  })) as MarketResult;
  sendPage(ctx, view(read.values, undefined, result));
}

function view(values: Readonly<Record<string, string>>, error: FormError | undefined, result: MarketResult | null) {
  const fields = formFields(marketStats as unknown as Operation);
  return {
    title: error ? 'Error: Market statistics' : 'Market statistics',
    main: html`<h1>Market statistics</h1>
      ${error ? errorSummary(error, new Set(fields.map((f) => f.name))) : ''}
      <p>
        How the companies matching a filter compare: how many, and the spread of their latest filed figures. Leave a
        filter blank for any value.
      </p>
      ${filterForm({ action: '/market', groups: fieldGroups(fields), values, error, submit: 'Show statistics' })}
      ${result ? statsSection(result) : ''}`,
  };
}

function statsSection(result: MarketResult): SafeHtml {
  return html`<section class="market" aria-labelledby="market-heading">
    <h2 id="market-heading">${formatCount(result.companies)} ${result.companies === 1 ? 'company' : 'companies'}</h2>
    <dl class="summary">
      <dt>With machine-readable accounts</dt>
      <dd>${formatCount(result.with_accounts)}</dd>
      <dt>Negative net assets</dt>
      <dd>${percent(result.negative_net_assets_share)} of those filing net assets</dd>
    </dl>
    ${
      result.sample
        ? html`<p class="note">
            The figures and breakdowns are estimated from a random sample of ${formatCount(result.sample.companies)}
            companies.
          </p>`
        : ''
    }
    <h2>Latest filed figures</h2>
    <p>
      Each chart: the box holds the middle half of the companies (25th to 75th percentile), the thick line is the
      median (its value above the box), the whiskers reach the 10th and 90th percentiles, the circle is the mean.
      A dashed line marks zero. Under each chart its numbers in words, and as a table behind “the numbers as a
      table”.
    </p>
    ${RANGE_FIGURES.map((figure) => figureSection(figure, result[figure]))}
    ${'groups' in result && result.groups ? groupsTable(result) : ''}
    <h2>Breakdowns</h2>
    ${countsTable('By status', 'Status', result.by_status)} ${countsTable('By type', 'Type', result.by_type)}
    ${countsTable('Incorporations by year', 'Year', result.incorporations_by_year)}
  </section>`;
}

function figureSection(figure: RangeFigure, stats: FigureStats): SafeHtml {
  const label = FIGURE_LABELS[figure];
  const show = figure === 'employees' ? formatCount : formatPounds;
  const chart = distributionChart(stats, { id: figure, label, unit: figure === 'employees' ? 'count' : 'money' });
  const rows: [string, number | null][] = [
    ['10th percentile', stats.p10],
    ['25th percentile', stats.p25],
    ['Median', stats.median],
    ['75th percentile', stats.p75],
    ['90th percentile', stats.p90],
    ['Mean', stats.mean],
  ];
  return html`<section class="figure" aria-labelledby="figure-${figure}">
    <h3 id="figure-${figure}">${label}</h3>
    ${
      chart === null
        ? html`<p>No company in this selection has filed its ${label.toLowerCase()}.</p>`
        : html`<div class="distribution">${chart}</div>
            <p class="distribution-values">
              ${formatCount(stats.count)} ${stats.count === 1 ? 'company' : 'companies'}. The middle half:
              <strong>${show(stats.p25)}</strong> to <strong>${show(stats.p75)}</strong>; median
              <strong>${show(stats.median)}</strong>; one in ten below <strong>${show(stats.p10)}</strong>, one in
              ten above <strong>${show(stats.p90)}</strong>; mean <strong>${show(stats.mean)}</strong>.
            </p>
            <details class="chart-values">
              <summary>${label}: the numbers as a table</summary>
              <table class="stats-table">
                <caption>
                  ${label}: ${formatCount(stats.count)} ${stats.count === 1 ? 'company' : 'companies'} filing it
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Point of the distribution</th>
                    <th scope="col" class="number">${label}</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map(
                    ([name, value]) =>
                      html`<tr>
                        <th scope="row">${name}</th>
                        <td class="number">${show(value)}</td>
                      </tr> `,
                  )}
                </tbody>
              </table>
            </details>`
    }
  </section> `;
}

function countsTable(caption: string, heading: string, counts: Readonly<Record<string, number>>): SafeHtml {
  const entries = Object.entries(counts);
  if (entries.length === 0) return html``;
  return html`<table class="counts-table">
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">${heading}</th>
        <th scope="col" class="number">Companies</th>
      </tr>
    </thead>
    <tbody>
      ${entries.map(
        ([key, n]) =>
          html`<tr>
            <th scope="row">${key}</th>
            <td class="number">${formatCount(n)}</td>
          </tr> `,
      )}
    </tbody>
  </table>`;
}

function groupsTable(result: MarketResult): SafeHtml {
  const groups = result.groups ?? [];
  const rows = [
    ...groups.map((g) => ({ label: g.key ?? '(none)', group: g })),
    ...(result.other ? [{ label: 'other', group: result.other }] : []),
  ];
  return html`<h2>By ${String(result.group_by).replace(/_/g, ' ')}</h2>
    <div class="table-wrap" role="region" aria-labelledby="groups-caption" tabindex="0">
      <table class="groups-table">
        <caption id="groups-caption">
          The groups with most companies, with the medians of their latest filed
          figures${result.other ? '; other: the companies in none of them' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col" class="number">Companies</th>
            <th scope="col" class="number">With accounts</th>
            ${RANGE_FIGURES.map(
              (figure) => html`<th scope="col" class="number">Median ${FIGURE_LABELS[figure].toLowerCase()}</th>`,
            )}
            <th scope="col" class="number">Negative net assets</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            ({ label, group }) =>
              html`<tr>
                <th scope="row">${label}</th>
                <td class="number">${formatCount(group.companies)}</td>
                <td class="number">${formatCount(group.with_accounts)}</td>
                ${RANGE_FIGURES.map(
                  (figure) =>
                    html`<td class="number">${(figure === 'employees' ? formatCount : formatPounds)(group[figure].median)}</td>`,
                )}
                <td class="number">${percent(group.negative_net_assets_share)}</td>
              </tr> `,
          )}
        </tbody>
      </table>
    </div>`;
}
