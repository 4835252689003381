/**
 * Calls of the web pages that are not counted against a monthly quota: an operation of the table
 * run on the same dependencies the API uses, its input checked by the operation's own zod schema.
 *
 * A reader who has not signed in may run only the operations that read public register data
 * (ANONYMOUS_OPERATIONS). A signed-in web session runs with its key's context (its watchlist, its
 * alerts) but is not charged either: the web limits page views per minute instead (src/web), so
 * that reading pages in a browser never uses up the quota an API client lives on. Exports and API
 * calls go through callOperation (run.ts) and are counted.
 */
import type * as z from 'zod';
import type { ApiKeyRecord } from '../domain/api-keys.ts';
import type { CallContext, Operation } from '../operations/operation.ts';
import type { CallDeps } from './deps.ts';
import { parseInput } from './input.ts';

/** The operations a page may run for a reader who has not signed in. */
const ANONYMOUS_OPERATIONS: ReadonlySet<string> = new Set([
  'lookup_company',
  'lookup_companies',
  'search_by_name',
  'search_companies',
  'search_people',
  'get_ownership',
  'get_officers',
  'compare_companies',
  'market_stats',
  'find_triggers',
  'recent_changes',
]);

/**
 * Run `operation` for an anonymous reader: `raw` is parsed by the operation's input schema (a
 * refusal is a 400 naming the field as the form names it: the argument's name), then the
 * operation runs with today's date from the app's clock. Not counted against any key.
 */
export async function runAnonymous<Input extends z.ZodObject, Output extends z.ZodObject>(
  deps: CallDeps,
  operation: Operation<Input, Output>,
  raw: Record<string, unknown>,
): Promise<z.output<Output>> {
  if (!ANONYMOUS_OPERATIONS.has(operation.name))
    throw new Error(`${operation.name} needs a signed-in key: it is not run for anonymous pages`);
  const input = parseInput(operation, raw, (key) => key);
  return operation.run(deps, input, anonymousContext(deps.clock()));
}

/**
 * Run `operation` for a signed-in web session: parsed as for an anonymous reader, run with the
 * key's context (its id and plan, today from the app's clock), not counted against its quota.
 */
export async function runForSession<Input extends z.ZodObject, Output extends z.ZodObject>(
  deps: CallDeps,
  operation: Operation<Input, Output>,
  raw: Record<string, unknown>,
  key: Pick<ApiKeyRecord, 'id' | 'plan'>,
): Promise<z.output<Output>> {
  const input = parseInput(operation, raw, (name) => name);
  const now = deps.clock();
  return operation.run(deps, input, { keyId: key.id, plan: key.plan, today: now.toISOString().slice(0, 10), now });
}

/**
 * The call context of an anonymous reader. The operations above read only `today` and `now`;
 * keyId 0 belongs to no key (ids start at 1), so even a mistaken read by key finds nothing.
 */
function anonymousContext(now: Date): CallContext {
  return { keyId: 0, plan: 'free', today: now.toISOString().slice(0, 10), now };
}
