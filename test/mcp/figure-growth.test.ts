/**
 * Growth per figure over MCP, with the SDK's own client over real HTTP, on the embedded default
 * and on PostgreSQL with Elasticsearch: search_companies {turnover_trend: "growing"} gives only
 * companies whose turnover rose, each with its turnover growth in structuredContent and in the text.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { GROWTH, loadGrowthFixtures } from '../support/growth-fixtures.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

interface Hit {
  company_number: string;
  growth: Record<string, { previous: number; latest: number; change_pct: number; direction: string }>;
}

for (const setup of setups) {
  describe(`growth per figure over MCP on ${setup.name}`, () => {
    let world: World;
    let client: Client;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadGrowthFixtures(world);
      const key = await world.issueKey('pro');
      client = await connectMcp(world.url, key);
    });
    after(async () => {
      await client.close();
      await world.close();
    });
    const search = async (args: Record<string, unknown>) =>
      (await client.callTool({
        name: 'search_companies',
        arguments: { post_town: 'YORK', ...args },
      })) as CallToolResult;

    test('the tool lists the growth filters', async () => {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'search_companies')!;
      const properties = tool.inputSchema.properties as Record<string, { enum?: string[] }>;
      assert.deepEqual(properties.turnover_trend?.enum, ['growing', 'stable', 'declining']);
      assert.ok(properties.min_turnover_growth && properties.max_employees_growth);
      assert.match(tool.description ?? '', /turnover_trend|<figure>_trend/);
    });

    test('turnover_trend growing: only companies whose turnover rose, each with its growth', async () => {
      const overall = (await search({ trajectory: 'growing' })).structuredContent as { results: Hit[] };
      assert.ok(overall.results.some((r) => r.company_number === GROWTH.falling.number));
      const result = await search({ turnover_trend: 'growing' });
      assert.ok(!result.isError);
      const hits = (result.structuredContent as { results: Hit[] }).results;
      assert.deepEqual(
        hits.map((r) => r.company_number),
        [GROWTH.rising.number],
      );
      for (const hit of hits) assert.ok(hit.growth.turnover!.latest > hit.growth.turnover!.previous);
      assert.equal(hits[0]!.growth.turnover!.change_pct, 30);
      assert.match((result.content[0] as { text: string }).text, /\+30% growing \(£1m to £1\.3m\)/);
    });

    test('min_turnover_growth and a bad trend', async () => {
      const falling = await search({ max_turnover_growth: -20 });
      assert.deepEqual(
        (falling.structuredContent as { results: Hit[] }).results.map((r) => r.company_number),
        [GROWTH.falling.number],
      );
      const bad = await search({ turnover_trend: 'up' });
      assert.equal(bad.isError, true);
      assert.match((bad.content[0] as { text: string }).text, /turnover_trend/);
    });
  });
}
