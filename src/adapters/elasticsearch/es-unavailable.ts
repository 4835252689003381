/**
 * Which Elasticsearch client errors mean "search is down, overloaded or too slow" — a 503 the
 * caller may retry — rather than a fault in our query (a 500 to fix). A missing index counts as
 * unavailable: it is there again once `ukcd index` has run.
 */
import { errors } from '@elastic/elasticsearch';

const UNAVAILABLE_STATUSES = new Set([429, 502, 503, 504]);

export function isEsUnavailable(error: unknown): boolean {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError
  )
    return true;
  if (error instanceof errors.ResponseError) {
    if (UNAVAILABLE_STATUSES.has(error.statusCode ?? 0)) return true;
    const type = (error.body as { error?: { type?: string } } | undefined)?.error?.type;
    return type === 'index_not_found_exception' || type === 'cluster_block_exception';
  }
  return false;
}
