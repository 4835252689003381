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
import { industriesMatching, industryList, industryName, sicText } from '../industry-picker.ts';
import type { Industry } from '../industry-picker.ts';
import { html } from '../html.ts';
import { csvExtent, csvStream, leadDownload, xlsxBuffer } from '../lead-csv.ts';
import type { CsvExtent, LeadPage, OfficeAddress } from '../lead-csv.ts';
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
}

const LEAD_SOURCES: readonly LeadSource[] = [
  {
    operation: searchCompanies,
    path: '/leads',
    heading: 'Lead lists: companies by criteria',
    intro:
      'Companies by register facts, their latest filed accounts and their ownership. Leave a filter blank for any value.',
    runsWithoutQuery: true,
  },
  {
    operation: findTriggers,
    path: '/leads/triggers',
    heading: 'Lead lists: sales triggers',
    intro:
      'Companies whose latest accounts or register record meet a trigger, strongest first, each with the reason in words.',
    runsWithoutQuery: false,
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
      router.get(`web_${source.operation.name}_csv`, `${source.path}.csv`, (ctx) => leadListDownload(ctx, list, 'csv'));
      router.get(`web_${source.operation.name}_xlsx`, `${source.path}.xlsx`, (ctx) =>
        leadListDownload(ctx, list, 'xlsx'),
      );
      router.get(`web_${source.operation.name}_count`, `${source.path}/count`, (ctx) => leadListCount(ctx, list));
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
  const industry = industryQuery(ctx.query);
  if (industry.kind === 'choose') {
    const values = { ...formValues(ctx.query), sic: industry.keyword };
    sendPage(ctx, view(source, { values, error: industry.error, results: null, choices: industry.choices }), 400);
    return;
  }
  const read = readForm(source.operation as Operation, industry.query, PAGE_PARAMETERS);
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

type Query = Record<string, string | string[] | undefined>;

/** The query's single values, as the form shows them back. */
function formValues(query: Query): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
  );
}

/**
 * The industry field given as words ("software") rather than a code: the query with the one
 * industry matching them, or the industries to choose from (none: say so) as a refusal naming
 * the field.
 */
function industryQuery(
  query: Query,
): { kind: 'query'; query: Query } | { kind: 'choose'; keyword: string; error: FormError; choices: Industry[] } {
  const sic = query.sic;
  if (typeof sic !== 'string' || sic.trim() === '' || /^\s*\d+\s*$/.test(sic)) return { kind: 'query', query };
  const matches = industriesMatching(sic);
  if (matches.length === 1) return { kind: 'query', query: { ...query, sic: matches[0]!.code } };
  const message =
    matches.length === 0
      ? `No industry name has the words "${sic}": try another word, or a SIC code (e.g. 62 for IT)`
      : `"${sic}" is in the names of ${matches.length} industries: choose one below, or type more of its name`;
  return { kind: 'choose', keyword: sic, error: { field: 'sic', message }, choices: matches.slice(0, MAX_CHOICES) };
}

/** Industries offered for a word, at most: more means the word is too short to pick by. */
const MAX_CHOICES = 30;

/**
 * GET <list>/count?<filters>: the number of matches, as JSON {total, text}, for the form's live
 * count (leads.js); one run of the operation asking for one row.
 */
async function leadListCount(ctx: Context, list: LeadList) {
  const industry = industryQuery(ctx.query);
  const read =
    industry.kind === 'query'
      ? readForm(list.source.operation as Operation, industry.query, [...PAGE_PARAMETERS, 'cursor', 'limit'])
      : ({ ok: false, message: industry.error.message } as const);
  ctx.set('Cache-Control', 'no-store');
  if (!read.ok) {
    ctx.status = 400;
    ctx.body = { error: read.message };
    return;
  }
  const result = await run(ctx, list, { ...(read.input as ListInput), limit: 1 }, 'page');
  ctx.body = { total: result.total, text: matchesText(result.total) };
}

/** "1,234 companies match". */
function matchesText(total: number): string {
  return `${formatCount(total)} ${total === 1 ? 'company matches' : 'companies match'}`;
}

/** Arguments of the order and the paging: they change the rows' order, not which rows, so not the file's name. */
const NOT_IN_FILE_NAMES: ReadonlySet<string> = new Set(['sort', 'sort_by', 'sort_order', 'limit', 'cursor', 'start']);

/**
 * The download's file name, without its extension, from the search: "leads-sic-62-post-town-leeds-
 * turnover-trend-growing-2025-06-15"; a trigger by its name ("leads-cash-rich-…"). Letters, digits
 * and hyphens only, so that the header needs no encoding; at most about 100 characters before the date.
 */
function downloadName(operation: Operation, values: Readonly<Record<string, string>>, today: string): string {
  // A value the form sends as its default (status=active) says nothing about this search.
  const defaults = new Map(
    formFields(operation).map((field) => [field.name, 'default' in field ? String(field.default) : undefined]),
  );
  const parts = Object.entries(values)
    .filter(([name, value]) => !NOT_IN_FILE_NAMES.has(name) && defaults.get(name) !== value)
    .map(([name, value]) => (name === 'trigger' ? value : `${name}-${value}`));
  const slug = ['leads', ...parts]
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 100)
    .replace(/^-+|-+$/g, '');
  return `${slug}-${today}`;
}

/** The registered offices of the companies, from the store (one read for a page of rows). */
async function officesOf(deps: WebDeps, numbers: readonly string[]): Promise<ReadonlyMap<string, OfficeAddress>> {
  const companies = await deps.store.getCompanies(numbers);
  return new Map(
    companies.map(({ company: { company_number, address } }) => {
      const lines = [address.care_of ? `c/o ${address.care_of}` : null, address.po_box, address.line_1, address.line_2];
      const text = lines.filter((line) => line !== null && line.trim() !== '').join(', ');
      return [company_number, { address: text === '' ? null : text, postcode: address.postcode }];
    }),
  );
}

async function leadListDownload(ctx: Context, list: LeadList, format: 'csv' | 'xlsx') {
  const { source, deps, settings } = list;
  const industry = industryQuery(ctx.query);
  const read =
    industry.kind === 'query'
      ? readForm(source.operation as Operation, industry.query, [...PAGE_PARAMETERS, 'cursor', 'limit'])
      : ({ ok: false, field: 'sic', message: industry.error.message, values: formValues(ctx.query) } as const);
  if (!read.ok) {
    sendPage(
      ctx,
      view(source, { values: read.values, error: { field: read.field, message: read.message }, results: null }),
      400,
    );
    return;
  }
  const today = deps.clock().toISOString().slice(0, 10);
  const download = await leadDownload(
    {
      input: read.input as ListInput,
      rowSchema: source.operation.output.shape.results.element,
      pageSize: largestPage(source.operation as Operation),
      maxRows: settings.csvMaxRows,
      addresses: (numbers) => officesOf(deps, numbers),
    },
    (input) => run(ctx, list, input, 'export') as Promise<LeadPage<Record<string, unknown>>>,
  );
  ctx.set({
    'Content-Disposition': `attachment; filename="${downloadName(source.operation as Operation, read.values, today)}.${format}"`,
    'X-Total-Matches': String(download.extent.total),
    'X-CSV-Rows': String(download.extent.rows),
    'X-CSV-Truncated': String(download.extent.truncated),
  });
  if (format === 'xlsx') {
    ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    ctx.body = await xlsxBuffer(download.columns, download.rows);
    return;
  }
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = csvStream(download.columns, download.rows, (error) =>
    deps.log(`lead list CSV ${ctx.path} failed while streaming: ${error.stack ?? error.message}`),
  );
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
  /** Industries matching the words typed in the industry field, to choose from. */
  choices?: readonly Industry[];
}

const INDUSTRY_LIST_ID = 'industry-names';

function view(source: LeadSource, { values, error, results, choices }: ViewState) {
  const fields = formFields(source.operation as Operation);
  const form = filterForm({
    action: source.path,
    groups: fieldGroups(fields),
    values,
    error,
    submit: 'Show companies',
    lists: { sic: INDUSTRY_LIST_ID },
    status: html`<p class="live-count" id="live-count" aria-live="polite" data-count-url="${source.path}/count">
      ${results ? matchesText(results.result.total) : ''}
    </p>`,
  });
  const tabs = html`<nav class="tabs" aria-label="Kinds of lead list">
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
  </nav>`;
  const chosenIndustry = values.sic !== undefined ? industryName(values.sic) : null;
  return {
    title: error ? `Error: ${source.heading}` : source.heading,
    scripts: ['leads.js'],
    // Results first: a search lands on them (the form's action ends #results); the form follows.
    main: html`<h1>${source.heading}</h1>
      ${tabs} ${error ? errorSummary(error, new Set(fields.map((f) => f.name))) : ''}
      ${choices && choices.length > 0 ? industryChoices(source, values, choices) : ''}
      ${results ? resultsSection(source, results) : html`<p>${source.intro}</p>`}
      <section class="lead-filters" aria-labelledby="filters-heading">
        <h2 id="filters-heading">${results ? 'Change the filters' : 'Filters'}</h2>
        ${results ? html`<p>${source.intro}</p>` : ''}
        ${chosenIndustry !== null ? html`<p class="chosen-industry">Industry: ${values.sic} ${chosenIndustry}</p>` : ''}
        ${form} ${industryList(INDUSTRY_LIST_ID)}
      </section>`,
  };
}

/** The industries matching the words typed, each a link to the same search with its code. */
function industryChoices(
  source: LeadSource,
  values: Readonly<Record<string, string>>,
  choices: readonly Industry[],
): SafeHtml {
  return html`<section class="industry-choices" aria-labelledby="choices-heading">
    <h2 id="choices-heading">Industries matching “${values.sic ?? ''}”</h2>
    <ul>
      ${choices.map(
        (industry) =>
          html`<li>
            <a href="${link(source.path, values, { sic: industry.code })}#results">${industry.code} ${industry.name}</a>
          </li>`,
      )}
    </ul>
  </section>`;
}

/** `path?query` of the form's values with some changed (undefined: left out). */
function link(path: string, values: Readonly<Record<string, string>>, change: Record<string, string | undefined>) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...values, ...change }))
    if (value !== undefined && value !== '') params.set(name, value);
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}

/** The sortable columns of a criteria search: the heading and the sort field of each. */
const SORTABLE: Readonly<Record<string, string>> = {
  Company: 'name',
  'Net assets': 'net_assets',
  Cash: 'cash',
  Turnover: 'turnover',
  Employees: 'employees',
  Incorporated: 'incorporated',
};

/** The order in force, as `sort` spells it (-net_assets when none is given). */
function currentSort(query: Readonly<Record<string, string>>): string {
  if (query.sort) return query.sort;
  const field = query.sort_by ?? 'net_assets';
  return query.sort_order === 'asc' ? field : `-${field}`;
}

/**
 * A column heading: for a sortable column of the criteria search, a link that sorts by it
 * (descending first for figures, ascending for names; again to reverse), with aria-sort on the
 * column in force.
 */
function columnHeading(
  source: LeadSource,
  query: Readonly<Record<string, string>>,
  label: string,
  numeric = false,
): SafeHtml {
  const field = SORTABLE[label];
  const cls = numeric ? html` class="number"` : '';
  if (source.operation !== searchCompanies || field === undefined) return html`<th scope="col"${cls}>${label}</th>`;
  const sort = currentSort(query);
  const active = sort.replace(/^-/, '') === field;
  const descending = sort.startsWith('-');
  const firstDescending = field !== 'name';
  const next = active ? (descending ? field : `-${field}`) : firstDescending ? `-${field}` : field;
  const ariaSort = active ? (descending ? 'descending' : 'ascending') : null;
  const change = { sort: next, sort_by: undefined, sort_order: undefined, cursor: undefined, start: undefined };
  return html`<th scope="col"${cls}${ariaSort ? html` aria-sort="${ariaSort}"` : ''}>
    <a href="${link(source.path, query, change)}#results"
      >${label}<span class="sort-mark" aria-hidden="true">${active ? (descending ? ' ▼' : ' ▲') : ''}</span
      ><span class="visually-hidden">, sort ${next.startsWith('-') ? 'descending' : 'ascending'}</span></a
    >
  </th>`;
}

/** The growth figures the search asked about, in the order of the results' `growth`. */
function growthAskedOf(rows: readonly ListRow[]): string[] {
  return Object.keys(rows[0]?.growth ?? {});
}

function resultsSection(source: LeadSource, { result, start, extent, query }: Results): SafeHtml {
  const rows = result.results as readonly ListRow[];
  const end = start + rows.length - 1;
  const csvHref = link(`${source.path}.csv`, query, { cursor: undefined, limit: undefined });
  const xlsxHref = link(`${source.path}.xlsx`, query, { cursor: undefined, limit: undefined });
  const isTrigger = source.operation === findTriggers;
  const growth = growthAskedOf(rows);
  const heading = (label: string, numeric = false) => columnHeading(source, query, label, numeric);
  return html`<section class="lead-results" id="results" tabindex="-1" aria-labelledby="results-heading">
    <h2 id="results-heading">${matchesText(result.total)}</h2>
    <p><a href="#filters">Change the filters</a></p>
    ${
      result.total === 0
        ? html`<p>Nothing matches these filters. Try fewer or wider ones.</p>`
        : html`<p class="download">
              <a class="button" href="${csvHref}" download>Download CSV</a>
              <a class="button" href="${xlsxHref}" download>Download Excel (XLSX)</a> ${
                extent.truncated
                  ? html`<span class="csv-extent"
                      >The download holds the first ${formatCount(extent.rows)} of ${formatCount(extent.total)} matches, the
                      most one download holds. Narrow the filters for the rest.</span
                    >`
                  : html`<span class="csv-extent"
                      >All ${formatCount(extent.rows)} ${extent.rows === 1 ? 'row' : 'rows'}, with the registered office;
                      company numbers kept as text, plain numbers and ISO dates.</span
                    >`
              }
            </p>
            <div class="table-wrap" role="region" aria-labelledby="results-caption" tabindex="0">
              <table class="results-table">
                <caption id="results-caption">
                  Rows ${formatCount(start)} to ${formatCount(end)} of ${formatCount(result.total)}${
                    isTrigger ? '' : '. Choose a column heading to sort by it'
                  }
                </caption>
                <thead>
                  <tr>
                    ${heading('Company')}
                    <th scope="col">Status</th>
                    <th scope="col">Post town</th>
                    <th scope="col">Industry</th>
                    ${isTrigger ? html`<th scope="col">Why</th>` : ''}
                    <th scope="col">Accounts to</th>
                    ${heading('Net assets', true)} ${heading('Cash', true)} ${heading('Turnover', true)}
                    ${heading('Employees', true)}
                    ${growth.map((figure) => html`<th scope="col" class="number">${growthHeading(figure)}</th>`)}
                    <th scope="col">Risk</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map((row) => resultRow(row, isTrigger, growth))}
                </tbody>
              </table>
            </div>
            <nav class="pager" aria-label="Pages of results">
              <ul>
                ${start > 1 ? html`<li><a href="${link(source.path, query, { cursor: undefined, start: undefined })}#results">First page</a></li>` : ''}
                ${
                  result.next !== null
                    ? html`<li>
                        <a
                          rel="next"
                          href="${link(source.path, query, { cursor: result.next, start: String(end + 1) })}#results"
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

/** "Turnover growth": the column of a figure's growth. */
function growthHeading(figure: string): string {
  const words = figure === 'total_assets' ? 'total assets' : figure.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} growth`;
}

/** "+30% (£1m to £1.3m)": a figure's growth in a cell, the direction in words when no percent. */
function growthCell(figure: string, growth: ListRow['growth'][keyof ListRow['growth']]): SafeHtml {
  if (!growth) return html`<td class="number">—</td>`;
  const value = (n: number | null) => (figure === 'employees' ? formatCount(n) : formatPounds(n));
  const change =
    growth.change_pct === null
      ? growth.direction.replace('_', ' ')
      : `${growth.change_pct > 0 ? '+' : ''}${growth.change_pct}%`;
  return html`<td class="number">${change} <span class="growth-from">(${value(growth.previous)} to ${value(growth.latest)})</span></td>`;
}

function resultRow(row: ListRow, isTrigger: boolean, growth: readonly string[]): SafeHtml {
  const reason = 'reason' in row ? row.reason : '';
  return html`<tr>
    <th scope="row">
      <a href="/company/${row.company_number}">${row.name}</a> <span class="company-number">${row.company_number}</span>
    </th>
    <td>${row.status}</td>
    <td>${row.post_town ?? '—'}</td>
    <td class="industry">
      ${row.sic_codes.length > 0 ? row.sic_codes.map((code, i) => html`${i > 0 ? html`<br />` : ''}${sicText(code)}`) : '—'}
    </td>
    ${isTrigger ? html`<td class="reason">${reason}</td>` : ''}
    <td class="date">${formatDate(row.balance_sheet_date)}</td>
    <td class="number">${formatPounds(row.net_assets)}</td>
    <td class="number">${formatPounds(row.cash)}</td>
    <td class="number">${formatPounds(row.turnover)}</td>
    <td class="number">${formatCount(row.employees)}</td>
    ${growth.map((figure) => growthCell(figure, row.growth[figure as keyof ListRow['growth']]))}
    <td>${row.risk_band}</td>
  </tr> `;
}
