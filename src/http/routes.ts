/**
 * REST routes, one per operation of the table: the key and the quota first, then the input,
 * then the operation, answered as JSON (format=json) or as the Markdown content object.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { usageMonth } from '../domain/api-keys.ts';
import { AppError, HTTP_STATUS, invalidInput } from '../errors.ts';
import { markdownContent, withEnvelope } from '../operations/envelope.ts';
import type { CallContext, Operation, OperationDeps } from '../operations/operation.ts';
import type { KeyStore } from '../ports.ts';
import { countRequest, identifyCaller, quotaHeaders } from './access.ts';
import type { HttpMetrics } from './metrics.ts';
import { inputFromBody, inputFromQuery, MALFORMED, parseInput } from './operation-input.ts';

export interface HttpDeps extends OperationDeps {
  keys: KeyStore;
  /** Now; tests inject a clock to cross a month boundary. */
  clock: () => Date;
  metrics: HttpMetrics;
}

export function addOperationRoutes(router: Router, operations: readonly Operation[], deps: HttpDeps): void {
  for (const operation of operations) {
    const handler = (ctx: Context) => answer(ctx, operation, deps);
    if (operation.http.method === 'GET') router.get(operation.name, operation.http.path, handler);
    else router.post(operation.name, operation.http.path, handler);
  }
}

async function answer(ctx: Context, operation: Operation, deps: HttpDeps): Promise<void> {
  ctx.state.operation = operation.name;
  const caller = await identifyCaller(deps.keys, ctx.get('authorization') || undefined);
  const now = deps.clock();
  const quota = await countRequest(deps, caller, now, 'rest');
  ctx.set(quotaHeaders(quota));
  try {
    const format = ctx.query.format;
    if (format !== undefined && format !== 'json')
      throw invalidInput('Invalid "format": must be json, or left out for the Markdown shape.');
    const raw =
      operation.http.method === 'GET'
        ? inputFromQuery(operation, ctx.query)
        : inputFromBody(operation, ctx.state.malformedBody ? MALFORMED : (ctx.request as { body?: unknown }).body);
    const input = parseInput(operation, raw);
    const context: CallContext = {
      keyId: caller.key.id,
      plan: caller.key.plan,
      today: now.toISOString().slice(0, 10),
      now,
    };
    const result = await operation.run(deps, input, context);
    ctx.body =
      format === 'json' && operation.json ? withEnvelope(result) : markdownContent(operation.toMarkdown(result));
  } catch (error) {
    // Only answers the client caused are counted; a failure of ours gives the request back.
    if (!(error instanceof AppError) || HTTP_STATUS[error.code] >= 500)
      await deps.keys.refundRequest(caller.key.id, usageMonth(now)).catch(() => {});
    throw error;
  }
}
