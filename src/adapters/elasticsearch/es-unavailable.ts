/**
 * Which Elasticsearch client errors mean "search is down, overloaded, starting or too slow" — a 503
 * the caller may retry — rather than a fault in our query (a 500 to fix). A missing index counts as
 * unavailable: it is there again once `ukcd index` has run. So do shards that are not ready (a node
 * starting or recovering answers "all shards failed"): they are there again once allocated.
 */
import { errors } from '@elastic/elasticsearch';
import type { estypes } from '@elastic/elasticsearch';

const UNAVAILABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Error types that say the data is not reachable yet, not that the request was wrong. */
const UNAVAILABLE_TYPES = new Set([
  'index_not_found_exception',
  'cluster_block_exception',
  // No copy of a shard is started: a node starting or recovering, or a shard not yet allocated.
  'no_shard_available_action_exception',
  // The primary shard is not active (writes).
  'unavailable_shards_exception',
]);

/**
 * One search of an `_msearch` that Elasticsearch refused, the request as a whole having succeeded:
 * its status and error, to be classified like a whole request's.
 */
export class EsSearchRefused extends Error {
  constructor(
    readonly status: number,
    readonly error: estypes.ErrorCause,
  ) {
    // "all shards failed" says little: its cause (a shard's failure) says what to fix.
    super(
      `Elasticsearch refused the search: ${[error.reason ?? error.type, error.caused_by?.reason].filter(Boolean).join(': ')}`,
    );
  }
}

export function isEsUnavailable(error: unknown): boolean {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError
  )
    return true;
  if (error instanceof errors.ResponseError)
    return isUnavailableAnswer(error.statusCode, (error.body as { error?: estypes.ErrorCause } | undefined)?.error);
  if (error instanceof EsSearchRefused) return isUnavailableAnswer(error.status, error.error);
  return false;
}

/**
 * By status, or by the error's type; a search that failed on every shard ("all shards failed",
 * search_phase_execution_exception) is unavailable when every shard's failure is, whatever
 * status it came with.
 */
function isUnavailableAnswer(status: number | undefined, cause: estypes.ErrorCause | undefined): boolean {
  if (UNAVAILABLE_STATUSES.has(status ?? 0)) return true;
  if (cause === undefined) return false;
  if (UNAVAILABLE_TYPES.has(cause.type)) return true;
  const causes = (cause.root_cause ?? []) as estypes.ErrorCause[];
  return causes.length > 0 && causes.every((root) => UNAVAILABLE_TYPES.has(root.type));
}
