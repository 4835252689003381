/**
 * An MCP tool call's REST twin: the same operation with the same arguments over REST, with
 * format=json, under their REST names (`company_number` is `number`), for comparing a tool's
 * structuredContent with the JSON REST answers.
 */
import assert from 'node:assert/strict';
import { pathParameters } from '../../src/call/input.ts';
import type { Operation } from '../../src/operations/operation.ts';
import { call } from './api-fixtures.ts';
import type { World } from './api-world.ts';

/** The JSON body REST answers for `operation` with `args` (tool argument names), asserted 200. */
export async function restJson(
  world: World,
  key: string,
  operation: Operation,
  args: Record<string, unknown>,
): Promise<unknown> {
  const restName = (arg: string) =>
    Object.entries(operation.http.rename ?? {}).find(([, to]) => to === arg)?.[0] ?? arg;
  // Arguments in the path (`{id}`) go there; the others in the query or the body.
  const inPath = pathParameters(operation);
  let path = operation.http.path;
  const rest: Record<string, unknown> = {};
  for (const [arg, value] of Object.entries(args)) {
    if (inPath.includes(restName(arg))) path = path.replace(`{${restName(arg)}}`, encodeURIComponent(String(value)));
    else rest[arg] = value;
  }
  const query = new URLSearchParams(
    Object.entries(rest).map(([arg, value]): [string, string] => [restName(arg), String(value)]),
  );
  query.set('format', 'json');
  const answer =
    operation.http.method === 'POST'
      ? await call(world, `${path}?format=json`, { key, body: rest })
      : await call(world, `${path}?${query}`, { key, method: operation.http.method });
  assert.equal(answer.status, operation.http.successStatus ?? 200, `${operation.name}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}
