/**
 * REST routes, one per operation of the table: the key and the quota first, then the input,
 * then the operation, answered as JSON (format=json) or as the Markdown content object.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { invalidInput } from '../errors.ts';
import { markdownContent, withEnvelope } from '../operations/envelope.ts';
import type { Operation, OperationDeps } from '../operations/operation.ts';
import type { KeyStore } from '../ports/keys.ts';
import { presentedAuthorization, quotaHeaders, runCounted } from './access.ts';
import type { HttpMetrics } from './metrics.ts';
import { inputFromBody, inputFromQuery, MALFORMED, parseInput, readInputAhead } from './operation-input.ts';

export interface HttpDeps extends OperationDeps {
  keys: KeyStore;
  /** Now; tests inject a clock to cross a month boundary. */
  clock: () => Date;
  metrics: HttpMetrics;
  /** Operational messages (stderr): failures of ours, with their stack. */
  log: (line: string) => void;
}

export function addOperationRoutes(router: Router, operations: readonly Operation[], deps: HttpDeps): void {
  for (const operation of operations) {
    const handler = (ctx: Context) => answer(ctx, operation, deps);
    const path = routerPath(operation.http.path);
    if (operation.http.method === 'GET') router.get(operation.name, path, handler);
    else if (operation.http.method === 'DELETE') router.delete(operation.name, path, handler);
    else router.post(operation.name, path, handler);
  }
}

/** An operation's path as the router writes it: OpenAPI's `{id}` segments as `:id`. */
export function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

async function answer(ctx: Context, operation: Operation, deps: HttpDeps): Promise<void> {
  ctx.state.operation = operation.name;
  const authorization = presentedAuthorization(ctx);
  // Read before counting: a batch's cost is the number of companies it asks for. Its errors wait
  // for take(), so that a missing or invalid key is still answered first.
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  const input = readInputAhead(operation, () =>
    parseInput(
      operation,
      operation.http.method === 'POST'
        ? inputFromBody(
            operation,
            ctx.state.malformedBody ? MALFORMED : (ctx.request as { body?: unknown }).body,
            params,
          )
        : inputFromQuery(operation, ctx.query, params),
    ),
  );
  await runCounted(
    deps,
    { authorization },
    'rest',
    (quota) => ctx.set(quotaHeaders(quota)),
    async (context) => {
      const format = ctx.query.format;
      if (format !== undefined && format !== 'json')
        throw invalidInput('Invalid "format": must be json, or left out for the Markdown shape.');
      const result = await operation.run(deps, input.take(), context);
      ctx.status = operation.http.successStatus ?? 200;
      ctx.body =
        format === 'json' && operation.json ? withEnvelope(result) : markdownContent(operation.toMarkdown(result));
    },
    input.cost,
  );
}
