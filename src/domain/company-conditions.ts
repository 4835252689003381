/**
 * A criteria query as plain conditions on search-document fields. Both search adapters translate
 * these few shapes into their own query language, so what a filter means is decided here, once.
 */
import type { CompanyFilters, CompanyKey, CompanyQuery, SortOrder } from './criteria.ts';
import { BOUND_FIGURES } from './criteria.ts';
import { GROWTH_FIGURES } from './figure-growth.ts';
import { viewLeftOut } from './search-document.ts';
import type { SearchDocument } from './search-document.ts';
import type { Trigger } from './triggers.ts';
import { FUNDED_MIN_NET_ASSETS, TRIGGER_ORDER, triggerDates } from './triggers.ts';

type Field = keyof SearchDocument;
type Value = string | number | boolean;

export type Condition =
  /** A scalar field equals the value. */
  | { op: 'eq'; field: Field; value: Value }
  /** An array field holds the value. */
  | { op: 'has'; field: Field; value: string }
  /** A field has a value within the bounds; a missing value is never within. */
  | { op: 'range'; field: Field; gte?: Value; lte?: Value; lt?: Value }
  | { op: 'and'; all: Condition[] }
  | { op: 'or'; any: Condition[] }
  | { op: 'not'; condition: Condition };

/** Accounts overdue on `asOf`: still owed (`must_file`, see owesNextDueAccounts) and past due. */
export function overdueOn(asOf: string): Condition {
  return {
    op: 'and',
    all: [
      { op: 'eq', field: 'must_file', value: true },
      { op: 'range', field: 'accounts_next_due', lt: asOf },
    ],
  };
}

/** Which of a company's documents a search reads (DocumentView): one per company, or the estimated ones alone. */
function estimatesCondition(estimates: CompanyFilters['estimates']): Condition {
  if (estimates === 'only') return { op: 'eq', field: 'view', value: 'estimated' };
  return { op: 'not', condition: { op: 'eq', field: 'view', value: viewLeftOut(estimates === 'include') } };
}

/** The filters' conditions on the documents a search reads (estimatesCondition picks them). */
export function filterConditions(filters: CompanyFilters, asOf: string): Condition[] {
  return [estimatesCondition(filters.estimates), ...documentConditions(filters, asOf)];
}

/** The filters' conditions on any one document, whichever view it is: what groups by risk band reuse. */
export function documentConditions(filters: CompanyFilters, asOf: string): Condition[] {
  const conditions: Condition[] = [];
  if (filters.status !== 'any') conditions.push({ op: 'has', field: 'status_groups', value: filters.status });
  if (filters.type !== undefined) conditions.push({ op: 'eq', field: 'type_key', value: filters.type });
  if (filters.sic !== undefined) conditions.push({ op: 'has', field: 'sic_prefixes', value: filters.sic });
  if (filters.post_town !== undefined) conditions.push({ op: 'eq', field: 'post_town_key', value: filters.post_town });
  if (filters.incorporated_from !== undefined || filters.incorporated_to !== undefined)
    conditions.push({
      op: 'range',
      field: 'incorporated',
      ...(filters.incorporated_from !== undefined ? { gte: filters.incorporated_from } : {}),
      ...(filters.incorporated_to !== undefined ? { lte: filters.incorporated_to } : {}),
    });
  for (const figure of BOUND_FIGURES) {
    const bounds = filters.figures?.[figure];
    if (bounds && (bounds.min !== undefined || bounds.max !== undefined))
      conditions.push({
        op: 'range',
        field: figure,
        ...(bounds.min !== undefined ? { gte: bounds.min } : {}),
        ...(bounds.max !== undefined ? { lte: bounds.max } : {}),
      });
  }
  if (filters.size !== undefined) conditions.push({ op: 'eq', field: 'size_band', value: filters.size });
  if (filters.risk_band !== undefined) {
    // The stored band assumes accounts are not overdue; the other applies once they are.
    const overdue = overdueOn(asOf);
    conditions.push({
      op: 'or',
      any: [
        { op: 'and', all: [overdue, { op: 'eq', field: 'risk_band_if_overdue', value: filters.risk_band }] },
        {
          op: 'and',
          all: [
            { op: 'not', condition: overdue },
            { op: 'eq', field: 'risk_band', value: filters.risk_band },
          ],
        },
      ],
    });
  }
  if (filters.signal !== undefined)
    conditions.push(
      filters.signal === 'accounts_overdue' ? overdueOn(asOf) : { op: 'has', field: 'flags', value: filters.signal },
    );
  if (filters.trajectory !== undefined) conditions.push({ op: 'eq', field: 'trajectory', value: filters.trajectory });
  for (const figure of GROWTH_FIGURES) {
    const growth = filters.growth?.[figure];
    if (growth?.trend !== undefined) conditions.push({ op: 'eq', field: `${figure}_trend`, value: growth.trend });
    if (growth?.min !== undefined || growth?.max !== undefined)
      conditions.push({
        op: 'range',
        field: `${figure}_growth_pct`,
        ...(growth.min !== undefined ? { gte: growth.min } : {}),
        ...(growth.max !== undefined ? { lte: growth.max } : {}),
      });
  }
  if (filters.insolvency_proxy !== undefined) {
    const proxy: Condition = { op: 'has', field: 'flags', value: 'insolvency_proxy' };
    conditions.push(filters.insolvency_proxy ? proxy : { op: 'not', condition: proxy });
  }
  // false: a net assets figure of zero or more; a company without one is neither.
  if (filters.negative_net_assets !== undefined)
    conditions.push(
      filters.negative_net_assets
        ? { op: 'range', field: 'net_assets', lt: 0 }
        : { op: 'range', field: 'net_assets', gte: 0 },
    );
  // Unknown (no PSC record held) is neither true nor false, as a missing figure is neither.
  if (filters.has_corporate_parent !== undefined)
    conditions.push({ op: 'eq', field: 'has_corporate_parent', value: filters.has_corporate_parent });
  if (filters.parent_country !== undefined)
    conditions.push({ op: 'has', field: 'parent_countries', value: filters.parent_country });
  const controllers = filters.controller_count;
  if (controllers && (controllers.min !== undefined || controllers.max !== undefined))
    conditions.push({
      op: 'range',
      field: 'controller_count',
      ...(controllers.min !== undefined ? { gte: controllers.min } : {}),
      ...(controllers.max !== undefined ? { lte: controllers.max } : {}),
    });
  if (filters.identity_unverified !== undefined) {
    const overdue: Condition = { op: 'range', field: 'identity_overdue_from', lte: asOf };
    conditions.push(filters.identity_unverified ? overdue : { op: 'not', condition: overdue });
  }
  return conditions;
}

function triggerConditions(trigger: Trigger, asOf: string): Condition[] {
  const dates = triggerDates(asOf);
  switch (trigger) {
    case 'recently_filed':
      return [{ op: 'range', field: 'published', gte: dates.recentSince, lte: asOf }];
    case 'accounts_overdue':
      return [overdueOn(asOf)];
    case 'young_and_funded':
      return [
        { op: 'range', field: 'incorporated', gte: dates.youngSince, lte: asOf },
        { op: 'range', field: 'net_assets', gte: FUNDED_MIN_NET_ASSETS },
      ];
    default:
      return [{ op: 'has', field: 'flags', value: trigger }];
  }
}

/** Everything a query asks of a document. */
export function queryConditions(query: Pick<CompanyQuery, 'filters' | 'trigger' | 'asOf'>): Condition[] {
  return [
    ...filterConditions(query.filters, query.asOf),
    ...(query.trigger ? triggerConditions(query.trigger, query.asOf) : []),
  ];
}

/** The field and direction a query sorts by: its trigger's own order, or the one asked for. */
export function querySortOrder(query: Pick<CompanyQuery, 'trigger' | 'sort'>): SortOrder {
  return query.trigger ? TRIGGER_ORDER[query.trigger] : query.sort;
}

/** A document's place in the query's order: its sort value (null when missing) and its number. */
export function companyKey(document: SearchDocument, query: Pick<CompanyQuery, 'trigger' | 'sort'>): CompanyKey {
  const value = document[querySortOrder(query).field as keyof SearchDocument] ?? null;
  return [value as CompanyKey[0], document.company_number];
}
