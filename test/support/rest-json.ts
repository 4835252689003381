/**
 * An MCP tool call's REST twin: the same operation with the same arguments over REST, with
 * format=json, under their REST names (`company_number` is `number`), for comparing a tool's
 * structuredContent with the JSON REST answers.
 */
import assert from 'node:assert/strict';
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
  const query = new URLSearchParams(
    Object.entries(args).map(([arg, value]): [string, string] => [restName(arg), String(value)]),
  );
  query.set('format', 'json');
  const answer =
    operation.http.method === 'GET'
      ? await call(world, `${operation.http.path}?${query}`, { key })
      : await call(world, `${operation.http.path}?format=json`, { key, body: args });
  assert.equal(answer.status, 200, `${operation.name}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}
