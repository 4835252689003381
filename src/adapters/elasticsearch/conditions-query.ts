/**
 * Criteria conditions as Elasticsearch query DSL: filters only (no scoring), core features only.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Condition } from '../../domain/company-conditions.ts';
import type { SortOrder } from '../../domain/criteria.ts';
import type { Trigger } from '../../domain/triggers.ts';
import { TRIGGER_ORDER } from '../../domain/triggers.ts';

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

/** The field and direction a query sorts by: the trigger's own order, or the one asked for. */
export function sortOrderOf(trigger: Trigger | undefined, sort: SortOrder): SortOrder {
  return trigger ? TRIGGER_ORDER[trigger] : sort;
}
