import * as z from 'zod';
import type { RiskBand } from '../domain/risk-band.ts';
import type { SearchDocument } from '../domain/search-document.ts';
import { isPastDue } from '../domain/company-status.ts';
import {
  checkFilterRanges,
  companyFilters,
  filterEcho,
  filterShape,
  limitInput,
  checkSort,
  effectiveSort,
  sortOrder,
  sortShape,
} from './inputs.ts';
import { count, money, table } from './markdown.ts';
import { companyKeySchema, cursorInput, decodeCursor, encodeCursor, pageLine } from './cursor.ts';
import { defineOperation } from './operation.ts';

export interface CompanyResult {
  company_number: string;
  name: string;
  status: string;
  post_town: string | null;
  sic_codes: string[];
  balance_sheet_date: string | null;
  net_assets: number | null;
  cash: number | null;
  turnover: number | null;
  employees: number | null;
  risk_band: RiskBand;
}

/** A search hit as results show it, with the risk band of the day asked. */
export function companyResult(doc: SearchDocument, today: string): CompanyResult {
  // As the overdueOn condition the search ran: still owed (must_file) and past due.
  const overdue = doc.must_file && isPastDue(doc.accounts_next_due, today);
  return {
    company_number: doc.company_number,
    name: doc.name,
    status: doc.status,
    post_town: doc.post_town,
    sic_codes: doc.sic_codes,
    balance_sheet_date: doc.balance_sheet_date,
    net_assets: doc.net_assets,
    cash: doc.cash,
    turnover: doc.turnover,
    employees: doc.employees,
    risk_band: overdue ? doc.risk_band_if_overdue : doc.risk_band,
  };
}

export const searchCompanies = defineOperation({
  name: 'search_companies',
  title: 'Search companies by criteria',
  description:
    'Find UK companies by register facts and their latest filed accounts: status (default active), type, SIC ' +
    'code prefix, post town, incorporation date range, minimum/maximum net assets, cash, turnover, employees ' +
    'and profit, size band, risk band, or a signal (cash_rich, negative_net_assets, growing, declining, ' +
    'accounts_overdue, charges_outstanding). Sorted by a figure (default: net assets, largest first). Returns ' +
    'the total number of matches and up to `limit` companies with their latest figures. For lead generation. ' +
    'Pages: `next`, sent back as `cursor` with the same arguments, gives the following page (null on the last); ' +
    'each page costs one request. ' +
    'Also, as the public UK Company Data service names them: sort_by and sort_order (asc or desc, default desc) ' +
    'instead of sort; size_class (= size); trajectory (growing, stable, declining); min_employees; insolvency_proxy ' +
    '(true/false: distress signals); min_total_assets and max_total_assets (total assets less current ' +
    'liabilities, GBP); negative_net_assets (true/false).',
  http: { method: 'GET', path: '/v1/search' },
  input: z
    .object({ ...filterShape, ...sortShape, limit: limitInput(50, 20), cursor: cursorInput })
    .superRefine((input, ctx) => {
      checkFilterRanges(input, ctx);
      checkSort(input, ctx);
    }),
  json: true,
  async run(deps, input, context) {
    const sort = effectiveSort(input);
    const query = { filters: companyFilters(input), sort: sortOrder(sort) };
    const after = decodeCursor('search_companies', query, input.cursor, companyKeySchema(query.sort));
    const matches = await deps.search.findCompanies({ ...query, limit: input.limit, asOf: context.today, after });
    return {
      criteria: { ...filterEcho(input), sort, limit: input.limit },
      total: matches.total,
      results: matches.documents.map((doc) => companyResult(doc, context.today)),
      next: encodeCursor('search_companies', query, matches.next),
    };
  },
  toMarkdown(result) {
    return [
      `# ${result.total.toLocaleString('en-GB')} compan${result.total === 1 ? 'y matches' : 'ies match'}`,
      `Criteria: ${criteriaText(result.criteria)}. Showing ${result.results.length}.`,
      resultsTable(result.results),
      pageLine(result.results.length, result.total, result.next),
    ].join('\n\n');
  },
});

export function criteriaText(criteria: Record<string, unknown>): string {
  return Object.entries(criteria)
    .map(([key, value]) => `${key} = ${String(value)}`)
    .join(', ');
}

export function resultsTable(results: readonly CompanyResult[]): string {
  return table(
    ['Number', 'Name', 'Status', 'Post town', 'Accounts to', 'Net assets', 'Cash', 'Turnover', 'Employees', 'Risk'],
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
    ]),
  );
}
