/**
 * Toolsets over real HTTP on the embedded store: `/mcp?toolsets=core,ownership` lists only those
 * tools (and calls only them), `core` fits in 8,000 tokens of tools/list, output schemas come back
 * with `output_schemas=true`, a bad parameter is refused naming it, and without the parameter
 * every tool is listed with its output schema. Every operation is in exactly one toolset.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TOOLSETS } from '../../src/mcp/toolsets.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

/** About four characters a token for JSON and English (what BENCHMARKS.md counts by too). */
const approxTokens = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);

test('every operation is in exactly one toolset', () => {
  const listed = Object.values(TOOLSETS).flat();
  assert.deepEqual([...listed].sort(), OPERATIONS.map((o) => o.name).sort());
  assert.equal(new Set(listed).size, listed.length);
  assert.equal(TOOLSETS.core!.length, 12);
});

describe('MCP toolsets on the embedded store', () => {
  let world: World;
  let key: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
    key = await world.issueKey('pro');
  });
  after(() => world.close());

  let id = 0;
  const rpc = (query: string, method: string, params: Record<string, unknown> = {}) =>
    call(world, `/mcp${query}`, {
      key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: ++id, method, params },
    });
  const listed = async (query: string) => {
    const answer = await rpc(query, 'tools/list');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer;
  };

  test('without the parameter: every tool, each with its output schema', async () => {
    const tools = (await listed('')).body.result.tools as { name: string; outputSchema?: unknown }[];
    assert.deepEqual(
      tools.map((t) => t.name),
      OPERATIONS.map((o) => o.name),
    );
    assert.ok(tools.every((t) => t.outputSchema));
  });

  test('toolsets=core: the twelve, under 8,000 tokens; output schemas on request', async () => {
    const answer = await listed('?toolsets=core');
    const tools = answer.body.result.tools as { name: string; outputSchema?: unknown }[];
    assert.deepEqual(
      tools.map((t) => t.name),
      OPERATIONS.map((o) => o.name).filter((name) => TOOLSETS.core!.includes(name)),
    );
    assert.ok(tools.every((t) => t.outputSchema === undefined));
    const tokens = approxTokens(JSON.stringify(answer.body));
    (await import('node:fs')).writeFileSync('/tmp/core-tools.json', JSON.stringify(answer.body));
    assert.ok(tokens < 8_000, `core tools/list: about ${tokens} tokens`);
    const full = (await listed('?toolsets=core&output_schemas=true')).body.result.tools as { outputSchema?: unknown }[];
    assert.ok(full.every((t) => t.outputSchema));
  });

  test('toolsets=ownership,core: both, in the table’s order; calls outside them are unknown tools', async () => {
    const tools = (await listed('?toolsets=ownership,core')).body.result.tools as { name: string }[];
    // core's twelve and ownership's four (get_ownership, search_people, get_officers, get_appointments).
    assert.equal(tools.length, 16);
    assert.ok(tools.some((t) => t.name === 'get_ownership'));
    assert.ok(tools.some((t) => t.name === 'get_appointments'));
    const inside = await rpc('?toolsets=core', 'tools/call', {
      name: 'lookup_company',
      arguments: { company_number: '1' },
    });
    assert.match(inside.body.result.content[0].text, /^# ACME WIDGETS LIMITED/);
    assert.equal(inside.body.result.structuredContent.company.company_number, '00000001');
    const outside = await rpc('?toolsets=core', 'tools/call', { name: 'webhook_list', arguments: {} });
    assert.equal(outside.body.result.isError, true);
    assert.match(outside.body.result.content[0].text, /^Unknown tool "webhook_list"\. Tools: lookup_company, /);
  });

  test('a bad toolsets or output_schemas is refused naming it and listing the toolsets', async () => {
    for (const [query, pattern] of [
      ['?toolsets=core,admin', /^Unknown toolset "admin" in "toolsets"\. Toolsets: core, ownership, webhooks\.$/],
      ['?toolsets=', /^Unknown toolset "" in "toolsets"/],
      ['?toolsets=core&toolsets=webhooks', /once each/],
      ['?output_schemas=yes', /^Invalid "output_schemas": true or false/],
    ] as const) {
      const answer = await rpc(query, 'tools/list');
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error.code, -32602, query);
      assert.match(answer.body.error.message, pattern, query);
    }
  });
});
