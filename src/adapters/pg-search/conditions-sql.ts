/**
 * Criteria conditions as SQL on company_search. Every condition is two-valued (a missing value
 * never matches, and NOT of a missing value is true), as Elasticsearch's bool queries are, so
 * that `not` means the same on both adapters.
 */
import type { Condition } from '../../domain/company-conditions.ts';
import { querySortOrder } from '../../domain/company-conditions.ts';
import type { CompanyKey, CompanyQuery } from '../../domain/criteria.ts';

/** The conditions joined by AND, with their values appended to `params`. */
export function whereSql(conditions: readonly Condition[], params: unknown[]): string {
  if (conditions.length === 0) return 'true';
  return conditions.map((condition) => conditionSql(condition, params)).join(' AND ');
}

function conditionSql(condition: Condition, params: unknown[]): string {
  const param = (value: unknown) => `$${params.push(value)}`;
  switch (condition.op) {
    case 'eq':
      return `coalesce(${condition.field} = ${param(condition.value)}, false)`;
    case 'has':
      return `${condition.field} @> ARRAY[${param(condition.value)}::text]`;
    case 'range': {
      const parts = [`${condition.field} IS NOT NULL`];
      if (condition.gte !== undefined) parts.push(`${condition.field} >= ${param(condition.gte)}`);
      if (condition.lte !== undefined) parts.push(`${condition.field} <= ${param(condition.lte)}`);
      if (condition.lt !== undefined) parts.push(`${condition.field} < ${param(condition.lt)}`);
      return `(${parts.join(' AND ')})`;
    }
    case 'and':
      return `(${condition.all.map((c) => conditionSql(c, params)).join(' AND ')})`;
    case 'or':
      return `(${condition.any.map((c) => conditionSql(c, params)).join(' OR ')})`;
    case 'not':
      return `NOT ${conditionSql(condition.condition, params)}`;
  }
}

/** Missing values last in either direction, ties by company number; byte order for names, as Elasticsearch sorts keywords. */
export function orderBySql(query: Pick<CompanyQuery, 'trigger' | 'sort'>): string {
  const { field, descending } = querySortOrder(query);
  const column = field === 'name' ? `name COLLATE "C"` : field;
  return `${column} ${descending ? 'DESC' : 'ASC'} NULLS LAST, company_number`;
}

/**
 * The companies strictly after `after` in orderBySql's order: beyond its value in the sort's
 * direction (missing values last), or tied on it with a greater company number.
 */
export function afterSql(query: Pick<CompanyQuery, 'trigger' | 'sort'>, after: CompanyKey, params: unknown[]): string {
  const { field, descending } = querySortOrder(query);
  const column = field === 'name' ? `name COLLATE "C"` : field;
  const [value, companyNumber] = after;
  const number = `$${params.push(companyNumber)}`;
  if (value === null) return `(${field} IS NULL AND company_number > ${number})`;
  const at = `$${params.push(value)}`;
  return `(${column} ${descending ? '<' : '>'} ${at} OR ${field} IS NULL OR (${column} = ${at} AND company_number > ${number}))`;
}
