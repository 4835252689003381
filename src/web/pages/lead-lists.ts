/**
 * Lead lists: the criteria search (search_companies) at /leads and the sales triggers
 * (find_triggers) at /leads/triggers, each a form with every argument of its operation, a table
 * of the page of results with the next page through the operation's cursor, and "Download CSV"
 * of every match (at most WEB_CSV_MAX_ROWS rows) at the same address with .csv.
 */
import type { Context } from 'koa';
import type * as z from 'zod';
import { findTriggers } from '../../operations/find-triggers.ts';
import type { Operation } from '../../operations/operation.ts';
import { searchCompanies } from '../../operations/search-companies.ts';
import { errorSummary, filterForm } from '../filter-form.ts';
import type { FormError } from '../filter-form.ts';
import { formatCount, formatDate, formatPounds } from '../format.ts';
import { fieldGroups, formFields, largestPage, readForm } from '../form-fields.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import { csvExtent, leadCsv } from '../lead-csv.ts';
import type { CsvExtent, LeadPage } from '../lead-csv.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runExport, runForVisitor } from '../run-signed-in.ts';
import type { WebSettings } from '../settings.ts';

/** A lead list's operation and where its page lives. */
interface LeadSource {
  operation: typeof searchCompanies | typeof findTriggers;
  path: string;
  heading: string;
  intro: string;
  /** Shown without any query: the criteria search runs its defaults; the triggers wait for one to be chosen. */
  runsWithoutQuery: boolean;
  /** The download's file name, without .csv. */
  fileName(input: Record<string, unknown>, today: string): string;
}

const LEAD_SOURCES: readonly LeadSource[] = [
  {
    operation: searchCompanies,
    path: '/leads',
    heading: 'Lead lists: companies by criteria',
    intro:
      'Companies by register facts, their latest filed accounts and their ownership. Leave a filter blank for any value.',
    runsWithoutQuery: true,
    fileName: (_, today) => `leads-${today}`,
  },
  {
    operation: findTriggers,
    path: '/leads/triggers',
    heading: 'Lead lists: sales triggers',
    intro:
      'Companies whose latest accounts or register record meet a trigger, strongest first, each with the reason in words.',
    runsWithoutQuery: false,
    fileName: (input, today) => `leads-${String(input.trigger)}-${today}`,
  },
];

/** Query parameters of the page itself, not of the operation: the number of the first row shown. */
const PAGE_PARAMETERS = ['start'] as const;

type LeadListSettings = Pick<WebSettings, 'csvMaxRows'>;

/** One lead list as served: its source, and what its pages run with. */
interface LeadList {
  source: LeadSource;
  deps: WebDeps;
  settings: LeadListSettings;
}

/** GET /leads, /leads.csv, /leads/triggers and /leads/triggers.csv. */
export const leadListsPage: WebPage = {
  nav: { href: '/leads', label: 'Lead lists' },
  register(router, deps, settings) {
    for (const source of LEAD_SOURCES) {
      const list: LeadList = { source, deps, settings };
      router.get(`web_${source.operation.name}`, source.path, (ctx) => leadListPage(ctx, list));
      router.get(`web_${source.operation.name}_csv`, `${source.path}.csv`, (ctx) => leadListCsv(ctx, list));
    }
  },
};

type ListInput = z.output<typeof searchCompanies.input> | z.output<typeof findTriggers.input>;
type ListResult = z.output<typeof searchCompanies.output> | z.output<typeof findTriggers.output>;
type ListRow = ListResult['results'][number];

/**
 * The operation for whoever reads: a page view is not charged (the per-minute limit holds it); a
 * CSV download's pages are charged to a signed-in key, one request a page of 50, as the API's paging.
 */
function run(ctx: Context, { deps, source }: LeadList, input: ListInput, use: 'page' | 'export'): Promise<ListResult> {
  const call = { operation: source.operation as Operation, input: input as Record<string, unknown> };
  return (use === 'page' ? runForVisitor(ctx, deps, call) : runExport(ctx, deps, call)) as Promise<ListResult>;
}

async function leadListPage(ctx: Context, list: LeadList) {
  const { source, settings } = list;
  // The triggers page opens on its form: there is no trigger to run until one is chosen.
  if (Object.keys(ctx.query).length === 0 && !source.runsWithoutQuery) {
    sendPage(ctx, view(source, { values: {}, results: null }));
    return;
  }
  const read = readForm(source.operation as Operation, ctx.query, PAGE_PARAMETERS);
  if (!read.ok) {
    sendPage(
      ctx,
      view(source, { values: read.values, error: { field: read.field, message: read.message }, results: null }),
      400,
    );
    return;
  }
  const result = await run(ctx, list, read.input as ListInput, 'page');
  const start = Math.max(1, Number.parseInt(String(ctx.query.start ?? '1'), 10) || 1);
  sendPage(
    ctx,
    view(source, {
      values: read.values,
      results: { result, start, extent: csvExtent(result.total, settings.csvMaxRows), query: read.values },
    }),
  );
}

async function leadListCsv(ctx: Context, list: LeadList) {
  const { source, deps, settings } = list;
  const read = readForm(source.operation as Operation, ctx.query, [...PAGE_PARAMETERS, 'cursor', 'limit']);
  if (!read.ok) {
    sendPage(
      ctx,
      view(source, { values: read.values, error: { field: read.field, message: read.message }, results: null }),
      400,
    );
    return;
  }
  const today = deps.clock().toISOString().slice(0, 10);
  const csv = await leadCsv(
    {
      input: read.input as ListInput,
      rowSchema: source.operation.output.shape.results.element,
      pageSize: largestPage(source.operation as Operation),
      maxRows: settings.csvMaxRows,
      failed: (error) => deps.log(`lead list CSV ${ctx.path} failed while streaming: ${error.stack ?? error.message}`),
    },
    (input) => run(ctx, list, input, 'export') as Promise<LeadPage<Record<string, unknown>>>,
  );
  ctx.set({
    'Content-Disposition': `attachment; filename="${source.fileName(read.input, today)}.csv"`,
    'X-Total-Matches': String(csv.extent.total),
    'X-CSV-Rows': String(csv.extent.rows),
    'X-CSV-Truncated': String(csv.extent.truncated),
  });
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = csv.stream;
}

interface Results {
  result: ListResult;
  start: number;
  extent: CsvExtent;
  query: Readonly<Record<string, string>>;
}

/** What the page shows under its heading: the form's values, its error if any, and the results once run. */
interface ViewState {
  values: Readonly<Record<string, string>>;
  error?: FormError;
  results: Results | null;
}

function view(source: LeadSource, { values, error, results }: ViewState) {
  const fields = formFields(source.operation as Operation);
  return {
    title: error ? `Error: ${source.heading}` : source.heading,
    main: html`<h1>${source.heading}</h1>
      <nav class="tabs" aria-label="Kinds of lead list">
        <ul>
          ${LEAD_SOURCES.map(
            (other) =>
              html`<li>
                <a href="${other.path}" ${other === source ? html` aria-current="page"` : ''}
                  >${other.operation === searchCompanies ? 'By criteria' : 'By sales trigger'}</a
                >
              </li>`,
          )}
        </ul>
      </nav>
      ${error ? errorSummary(error, new Set(fields.map((f) => f.name))) : ''}
      <p>${source.intro}</p>
      ${filterForm({ action: source.path, groups: fieldGroups(fields), values, error, submit: 'Show companies' })}
      ${results ? resultsSection(source, results) : ''}`,
  };
}

/** `path?query` of the form's values with some changed (undefined: left out). */
function link(path: string, values: Readonly<Record<string, string>>, change: Record<string, string | undefined>) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...values, ...change }))
    if (value !== undefined && value !== '') params.set(name, value);
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}

function resultsSection(source: LeadSource, { result, start, extent, query }: Results): SafeHtml {
  const rows = result.results as readonly ListRow[];
  const end = start + rows.length - 1;
  const csvHref = link(`${source.path}.csv`, query, { cursor: undefined, limit: undefined });
  const matches = `${formatCount(result.total)} ${result.total === 1 ? 'company matches' : 'companies match'}`;
  const isTrigger = source.operation === findTriggers;
  return html`<section class="lead-results" aria-labelledby="results-heading">
    <h2 id="results-heading">${matches}</h2>
    ${
      result.total === 0
        ? html`<p>Nothing matches these filters. Try fewer or wider ones.</p>`
        : html`<p class="download">
              <a class="button" href="${csvHref}" download>Download CSV</a> ${
                extent.truncated
                  ? html`<span class="csv-extent"
                      >The CSV holds the first ${formatCount(extent.rows)} of ${formatCount(extent.total)} matches, the most one
                      download holds. Narrow the filters for the rest.</span
                    >`
                  : html`<span class="csv-extent"
                      >All ${formatCount(extent.rows)} ${extent.rows === 1 ? 'row' : 'rows'}, plain numbers and ISO
                      dates.</span
                    >`
              }
            </p>
            <div class="table-wrap" role="region" aria-labelledby="results-caption" tabindex="0">
              <table class="results-table">
                <caption id="results-caption">
                  Rows ${formatCount(start)} to ${formatCount(end)} of ${formatCount(result.total)}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Company</th>
                    <th scope="col">Status</th>
                    <th scope="col">Post town</th>
                    <th scope="col">Industry (SIC)</th>
                    ${isTrigger ? html`<th scope="col">Why</th>` : ''}
                    <th scope="col">Accounts to</th>
                    <th scope="col" class="number">Net assets</th>
                    <th scope="col" class="number">Cash</th>
                    <th scope="col" class="number">Turnover</th>
                    <th scope="col" class="number">Employees</th>
                    <th scope="col">Risk</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map((row) => resultRow(row, isTrigger))}
                </tbody>
              </table>
            </div>
            <nav class="pager" aria-label="Pages of results">
              <ul>
                ${start > 1 ? html`<li><a href="${link(source.path, query, { cursor: undefined, start: undefined })}">First page</a></li>` : ''}
                ${
                  result.next !== null
                    ? html`<li>
                        <a
                          rel="next"
                          href="${link(source.path, query, { cursor: result.next, start: String(end + 1) })}"
                          >Next page</a
                        >
                      </li>`
                    : ''
                }
              </ul>
            </nav>`
    }
  </section>`;
}

function resultRow(row: ListRow, isTrigger: boolean): SafeHtml {
  const reason = 'reason' in row ? row.reason : '';
  return html`<tr>
    <th scope="row">
      <a href="/company/${row.company_number}">${row.name}</a> <span class="company-number">${row.company_number}</span>
    </th>
    <td>${row.status}</td>
    <td>${row.post_town ?? '—'}</td>
    <td>${row.sic_codes.length > 0 ? row.sic_codes.map((code) => code.split(' - ')[0]).join(', ') : '—'}</td>
    ${isTrigger ? html`<td class="reason">${reason}</td>` : ''}
    <td class="date">${formatDate(row.balance_sheet_date)}</td>
    <td class="number">${formatPounds(row.net_assets)}</td>
    <td class="number">${formatPounds(row.cash)}</td>
    <td class="number">${formatPounds(row.turnover)}</td>
    <td class="number">${formatCount(row.employees)}</td>
    <td>${row.risk_band}</td>
  </tr> `;
}
