/**
 * Criteria conditions as Elasticsearch query DSL: filters only (no scoring), core features only.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Condition } from '../../domain/company-conditions.ts';

export function filterQuery(conditions: readonly Condition[]): estypes.QueryDslQueryContainer {
  return { bool: { filter: conditions.map(conditionQuery) } };
}

function conditionQuery(condition: Condition): estypes.QueryDslQueryContainer {
  switch (condition.op) {
    case 'eq':
    case 'has':
      return { term: { [condition.field]: condition.value } };
    case 'range': {
      const { gte, lte, lt } = condition;
      return {
        range: {
          [condition.field]: {
            ...(gte !== undefined ? { gte } : {}),
            ...(lte !== undefined ? { lte } : {}),
            ...(lt !== undefined ? { lt } : {}),
          },
        },
      } as estypes.QueryDslQueryContainer;
    }
    case 'and':
      return { bool: { filter: condition.all.map(conditionQuery) } };
    case 'or':
      return { bool: { should: condition.any.map(conditionQuery), minimum_should_match: 1 } };
    case 'not':
      return { bool: { must_not: [conditionQuery(condition.condition)] } };
  }
}
