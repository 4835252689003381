/**
 * REST routes, one per operation of the table, each mounting the call pipeline (src/call): the key
 * and the quota first, then the input, then the operation, answered as JSON (format=json) or as
 * the Markdown content object.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { presentedAuthorization, quotaHeaders } from '../call/access.ts';
import type { CallDeps } from '../call/deps.ts';
import { inputFromBody, inputFromQuery, MALFORMED, parseInput } from '../call/input.ts';
import { callOperation } from '../call/run.ts';
import { invalidInput } from '../errors.ts';
import { markdownContent, withEnvelope } from '../operations/envelope.ts';
import type { Operation } from '../operations/operation.ts';

export function addOperationRoutes(router: Router, operations: readonly Operation[], deps: CallDeps): void {
  for (const operation of operations) {
    const handler = (ctx: Context) => answer(ctx, operation, deps);
    const path = routerPath(operation.http.path);
    if (operation.http.method === 'GET') router.get(operation.name, path, handler);
    else if (operation.http.method === 'DELETE') router.delete(operation.name, path, handler);
    else router.post(operation.name, path, handler);
  }
}

/** An operation's path as the router writes it: OpenAPI's `{id}` segments as `:id`. */
function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

async function answer(ctx: Context, operation: Operation, deps: CallDeps): Promise<void> {
  ctx.state.operation = operation.name;
  const format = ctx.query.format;
  await callOperation(deps, {
    operation,
    who: { authorization: presentedAuthorization(ctx) },
    channel: 'rest',
    counted: (quota) => ctx.set(quotaHeaders(quota)),
    read: () => parseInput(operation, restInput(ctx, operation)),
    check: () => {
      if (format !== undefined && format !== 'json')
        throw invalidInput('Invalid "format": must be json, or left out for the Markdown shape.');
    },
    answer: (result, asOf) => {
      ctx.status = operation.http.successStatus ?? 200;
      ctx.body =
        format === 'json' && operation.json
          ? withEnvelope(result, asOf)
          : markdownContent(operation.toMarkdown(result), asOf);
    },
  });
}

/** What the request sends: its JSON body (POST) or its query string, with the path's parameters. */
function restInput(ctx: Context, operation: Operation): unknown {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  if (operation.http.method !== 'POST') return inputFromQuery(operation, ctx.query, params);
  const body = ctx.state.malformedBody ? MALFORMED : (ctx.request as { body?: unknown }).body;
  return inputFromBody(operation, body, params);
}
