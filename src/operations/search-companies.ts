import * as z from 'zod';
import { SORT_FIELDS } from '../domain/criteria.ts';
import type { SearchDocument } from '../domain/search-document.ts';
import type { CompanyQuery } from '../domain/criteria.ts';
import type { SearchIndex } from '../ports/search-index.ts';
import { isPastDue } from '../domain/company-status.ts';
import { figureGrowth, GROWTH_FIGURES } from '../domain/figure-growth.ts';
import type { GrowthFigure } from '../domain/figure-growth.ts';
import {
  ACCOUNTS_FILTERS_TEXT,
  checkFilterRanges,
  checkSort,
  companyFilters,
  effectiveSort,
  filterEcho,
  filterShape,
  growthAsked,
  limitInput,
  OWNERSHIP_FILTERS_TEXT,
  REGISTER_FILTERS_TEXT,
  sortOrder,
  sortShape,
} from './inputs.ts';
import { count, literal, money, pct, table } from './markdown.ts';
import { companyKeySchema, cursorInput, decodeCursor, encodeCursor, pageLine } from './cursor.ts';
import { defineOperation } from './operation.ts';
import { searchCompaniesOutput } from './outputs.ts';
import type { companyResultOutput } from './outputs.ts';

/** A search hit with its latest figures (its schema: outputs.ts). */
export type CompanyResult = z.infer<typeof companyResultOutput>;

/**
 * A search hit as results show it, with the risk band of the day asked and the growth of each
 * figure in `growth` (those the filters asked about).
 */
export function companyResult(doc: SearchDocument, today: string, growth: readonly GrowthFigure[]): CompanyResult {
  // As the overdueOn condition the search ran: still owed (must_file) and past due.
  const overdue = doc.must_file && isPastDue(doc.accounts_next_due, today);
  return {
    company_number: doc.company_number,
    name: doc.name,
    status: doc.status,
    post_town: doc.post_town,
    incorporated: doc.incorporated,
    sic_codes: doc.sic_codes,
    balance_sheet_date: doc.balance_sheet_date,
    net_assets: doc.net_assets,
    cash: doc.cash,
    turnover: doc.turnover,
    employees: doc.employees,
    profit: doc.profit,
    risk_band: overdue ? doc.risk_band_if_overdue : doc.risk_band,
    growth: Object.fromEntries(growth.map((figure) => [figure, growthOf(doc, figure)])),
  };
}

/** The document's fields of each growth figure: its previous and latest values. */
const GROWTH_FIELDS: Readonly<
  Record<GrowthFigure, readonly [previous: keyof SearchDocument, latest: keyof SearchDocument]>
> = {
  turnover: ['prior_turnover', 'turnover'],
  profit: ['prior_profit', 'profit'],
  net_assets: ['prior_net_assets', 'net_assets'],
  total_assets: ['prior_total_assets_less_current_liabilities', 'total_assets_less_current_liabilities'],
  cash: ['prior_cash', 'cash'],
  employees: ['prior_employees', 'employees'],
};

function growthOf(doc: SearchDocument, figure: GrowthFigure) {
  const [previous, latest] = GROWTH_FIELDS[figure];
  return {
    ...figureGrowth(doc[previous] as number | null, doc[latest] as number | null),
    previous_balance_sheet_date: doc.prior_balance_sheet_date,
  };
}

export const searchCompanies = defineOperation({
  name: 'search_companies',
  title: 'Search companies by criteria',
  description:
    'Find UK companies by register facts and their latest filed accounts, for lead generation. All optional: ' +
    `${REGISTER_FILTERS_TEXT}; ${ACCOUNTS_FILTERS_TEXT}; ${OWNERSHIP_FILTERS_TEXT}. sort: ${SORT_FIELDS.join(', ')}, - in front for ` +
    'descending (default -net_assets), or sort_by (the field) and sort_order (asc or desc, default desc) as the ' +
    'public service names them; limit 1–50 (default 20). Returns `criteria` (what was asked), `total` ' +
    '(every match), up to `limit` companies with their latest figures and risk band, and `next`: send it as ' +
    '`cursor` with the same arguments for the following page (null on the last). Costs one request of your ' +
    'monthly quota a page.',
  http: { method: 'GET', path: '/v1/search' },
  input: z
    .object({ ...filterShape, ...sortShape, limit: limitInput(50, 20), cursor: cursorInput })
    .superRefine((input, ctx) => {
      checkFilterRanges(input, ctx);
      checkSort(input, ctx);
    }),
  output: searchCompaniesOutput,
  json: true,
  async run(deps, input, context) {
    const sort = effectiveSort(input);
    const query = { filters: companyFilters(input), sort: sortOrder(sort) };
    const growth = growthAsked(query.filters);
    const after = decodeCursor(input.cursor, {
      operation: 'search_companies',
      query,
      key: companyKeySchema(query.sort),
    });
    const [matches, used] = await Promise.all([
      deps.search.findCompanies({ ...query, limit: input.limit, asOf: context.today, after }),
      estimatesUsed(deps.search, { ...query, asOf: context.today }),
    ]);
    return {
      criteria: { ...filterEcho(input), sort, limit: input.limit },
      total: matches.total,
      estimates_used: used,
      results: matches.documents.map((doc) => companyResult(doc, context.today, growth)),
      next: encodeCursor('search_companies', query, matches.next),
    };
  },
  toMarkdown(result) {
    return [
      `# ${result.total.toLocaleString('en-GB')} compan${result.total === 1 ? 'y matches' : 'ies match'}`,
      `Criteria: ${criteriaText(result.criteria)}. Showing ${result.results.length}.${estimatesNote(result.estimates_used)}`,
      resultsTable(result.results, result.criteria),
      pageLine(result.results.length, result.total, result.next),
    ].join('\n\n');
  },
});

/**
 * Whether any company matching the query was matched on its figures with estimates merged in: an
 * answer must say so. One more count, only when estimates were asked for.
 */
export async function estimatesUsed(
  search: Pick<SearchIndex, 'findCompanies'>,
  query: Omit<CompanyQuery, 'limit' | 'after'>,
): Promise<boolean> {
  if (query.filters.estimates !== 'include') return false;
  const estimated = await search.findCompanies({
    ...query,
    filters: { ...query.filters, estimates: 'only' },
    limit: 1,
  });
  return estimated.total > 0;
}

/** The sentence an answer that used estimates carries (Markdown), after the one before it. */
export function estimatesNote(used: boolean): string {
  return used
    ? ' Includes figures estimated from scanned PDF accounts (include_estimates=true), which may be wrong.'
    : '';
}

function criteriaText(criteria: Record<string, unknown>): string {
  return Object.entries(criteria)
    .map(([key, value]) => `${literal(key)} = ${literal(value)}`)
    .join(', ');
}

/** "+25% growing (£4.0m to £5.0m)": a figure's growth in words. */
function growthText(figure: GrowthFigure, growth: CompanyResult['growth'][GrowthFigure]): string {
  if (!growth) return '';
  const value = figure === 'employees' ? count : money;
  const change = growth.change_pct === null ? '' : `${pct(growth.change_pct)} `;
  return `${change}${growth.direction.replace('_', ' ')} (${value(growth.previous)} to ${value(growth.latest)})`;
}

function resultsTable(results: readonly CompanyResult[], criteria: Record<string, unknown>): string {
  // The growth of each figure a growth filter asked about, a column each.
  const asked = GROWTH_FIGURES.filter((figure) =>
    [`${figure}_trend`, `min_${figure}_growth`, `max_${figure}_growth`].some((name) => criteria[name] !== undefined),
  );
  return table(
    [
      'Number',
      'Name',
      'Status',
      'Post town',
      'Accounts to',
      'Net assets',
      'Cash',
      'Turnover',
      'Employees',
      'Risk',
      ...asked.map((figure) => `${figure.replace('_', ' ')} growth`),
    ],
    results.map((r) => [
      r.company_number,
      r.name,
      r.status,
      r.post_town,
      r.balance_sheet_date,
      money(r.net_assets),
      money(r.cash),
      money(r.turnover),
      count(r.employees),
      r.risk_band,
      ...asked.map((figure) => growthText(figure, r.growth[figure])),
    ]),
  );
}
