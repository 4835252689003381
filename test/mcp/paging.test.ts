/**
 * Paging over MCP, with the SDK's own client over real HTTP, on the embedded default and on
 * PostgreSQL with Elasticsearch: each paged tool takes `cursor` (described in tools/list), its
 * Markdown ends "N of TOTAL; more: cursor=…", and walking those cursors returns every match once,
 * one request of the quota a call; a bad cursor is a tool error naming it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { moreCompanies } from '../support/batch-fixtures.ts';
import { testStores } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const MONTH = usageMonth(NOW);

function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

for (const setup of setups) {
  describe(`MCP paging on ${setup.name}`, () => {
    let world: World;
    let client: Client;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.loadRegister(moreCompanies, '2025-01-01');
      key = await world.issueKey('pro');
      client = await connectMcp(world.url, key);
    });
    after(async () => {
      await client.close();
      await world.close();
    });
    const callTool = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const usage = async () =>
      (await world.keys.listKeys(MONTH, keyPrefix(key))).find((k) => k.prefix === keyPrefix(key))!.used;

    test('the paged tools take a cursor', async () => {
      const tools = (await client.listTools()).tools;
      for (const name of ['search_by_name', 'search_companies', 'find_triggers', 'recent_changes']) {
        const tool = tools.find((t) => t.name === name)!;
        const cursor = (tool.inputSchema.properties as Record<string, { type?: string; description?: string }>).cursor;
        assert.equal(cursor?.type, 'string', name);
        assert.match(cursor?.description ?? '', /next/, name);
      }
    });

    test('walking the Markdown cursors of search_by_name and search_companies returns every match once, one request a call', async () => {
      for (const [tool, args, rows] of [
        ['search_by_name', { name: 'batch company', limit: 30 }, /^\| (00100\d{3}) \| BATCH COMPANY/gm],
        ['search_companies', { status: 'any', sort: 'name', limit: 30 }, /^\| (\d{8}) \|/gm],
      ] as const) {
        const before = await usage();
        const numbers: string[] = [];
        let cursor: string | undefined;
        let calls = 0;
        do {
          const result = await callTool(tool, { ...args, ...(cursor ? { cursor } : {}) });
          calls += 1;
          assert.ok(!result.isError, textOf(result));
          const text = textOf(result);
          numbers.push(...[...text.matchAll(rows)].map((m) => m[1]!));
          const line = /^(\d+) of ([\d,]+); (?:more: cursor=(\S+)|no more\.)$/m.exec(text);
          assert.ok(line, text.slice(-500));
          cursor = line[3];
        } while (cursor !== undefined && calls < 20);
        const expected = tool === 'search_by_name' ? 100 : moreCompanies.length + 6;
        assert.equal(numbers.length, expected, tool);
        assert.equal(new Set(numbers).size, expected, tool);
        assert.equal((await usage()) - before, calls, 'one request a call');
      }
    });

    test('a cursor that is not one, or from another query, is a tool error naming cursor', async () => {
      const bad = await callTool('search_by_name', { name: 'batch', cursor: 'not-a-cursor' });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /^Invalid "cursor": /);
      const first = textOf(await callTool('search_by_name', { name: 'batch company', limit: 5 }));
      const cursor = /cursor=(\S+)/.exec(first)![1]!;
      const other = await callTool('search_by_name', { name: 'zeta', cursor });
      assert.equal(other.isError, true);
      assert.match(textOf(other), /another query/);
    });
  });
}
