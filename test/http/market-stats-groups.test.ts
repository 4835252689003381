/**
 * market_stats {group_by} end to end, over REST and MCP, on the embedded default and on PostgreSQL
 * with Elasticsearch: the groups in JSON and as a Markdown table, a group's stats the same as the
 * ungrouped answer's with the matching filter, the answer without group_by unchanged, and a 400
 * listing the values for an unknown one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GROUP_BY } from '../../src/domain/market-groups.ts';
import { call, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const STATS = [
  'companies',
  'with_accounts',
  'net_assets',
  'cash',
  'turnover',
  'employees',
  'profit',
  'negative_net_assets_share',
];
const pick = (answer: Record<string, unknown>) => Object.fromEntries(STATS.map((name) => [name, answer[name]]));

for (const setup of setups) {
  describe(`market_stats {group_by} on ${setup.name}`, () => {
    let world: World;
    let key: string;
    const client = new Client({ name: 'ukcd-test', version: '0.0.0' });
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      key = await world.issueKey('pro');
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
    });
    after(async () => {
      await client.close();
      await world.close();
    });
    const get = (path: string) => call(world, path, { key });

    test('REST JSON: groups by type, most companies first, each as the ungrouped stats with that type', async () => {
      const answer = await get('/v1/stats?group_by=type&format=json');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const body = answer.body;
      assert.equal(body.companies, 6);
      assert.deepEqual(body.by_type, { 'Private Limited Company': 5, 'Public Limited Company': 1 });
      assert.equal(body.group_by, 'type');
      assert.deepEqual(
        body.groups.map((g: { key: string; companies: number }) => [g.key, g.companies]),
        [
          ['Private Limited Company', 5],
          ['Public Limited Company', 1],
        ],
      );
      assert.equal(body.other, null);
      for (const group of body.groups) {
        const filtered = (await get(`/v1/stats?type=${encodeURIComponent(group.key)}&format=json`)).body;
        assert.deepEqual(pick(group), pick(filtered), group.key);
      }
      const privateLimited = body.groups[0];
      assert.equal(privateLimited.with_accounts, 4);
      assert.deepEqual(privateLimited.net_assets, {
        count: 4,
        mean: 538_750,
        p10: -16_500,
        p25: 26_250,
        median: 100_000,
        p75: 612_500,
        p90: 1_445_000,
      });
      assert.equal(privateLimited.negative_net_assets_share, 0.25);
    });

    test('REST JSON: SIC codes and sections, most companies first then by key; a code as the sic filter gives it', async () => {
      const byKey = (a: { key: string; companies: number }, b: { key: string; companies: number }) =>
        b.companies - a.companies || (a.key < b.key ? -1 : 1);
      const codes = (await get('/v1/stats?group_by=sic_code&format=json')).body;
      assert.ok(codes.groups.length >= 6);
      assert.deepEqual(codes.groups, [...codes.groups].sort(byKey));
      for (const group of codes.groups) {
        const filtered = (await get(`/v1/stats?sic=${group.key}&format=json`)).body;
        assert.deepEqual(pick(group), pick(filtered), group.key);
      }
      const sections = (await get('/v1/stats?group_by=sic_section&format=json')).body;
      assert.deepEqual(sections.groups, [...sections.groups].sort(byKey));
      const keys = sections.groups.map((g: { key: string }) => g.key);
      for (const section of ['F', 'G', 'I', 'J', 'K', 'U']) assert.ok(keys.includes(section), `${section} in ${keys}`);
      // Construction is BETA BUILDERS alone (41201).
      const construction = sections.groups.find((g: { key: string }) => g.key === 'F');
      assert.equal(construction.net_assets.median, -45_000);
    });

    test('without group_by the answer is as before: no groups', async () => {
      const body = (await get('/v1/stats?format=json')).body;
      assert.equal('groups' in body, false);
      assert.equal('group_by' in body, false);
      assert.equal('other' in body, false);
    });

    test('REST Markdown: a table of the groups with companies and medians', async () => {
      const text = markdown(await get('/v1/stats?group_by=type'));
      assert.match(text, /## By type/);
      assert.match(text, /\| Group \| Companies \| With accounts \| Median net assets \|/);
      assert.match(text, /\| Private Limited Company \| 5 \| 4 \| £100k \|/);
      assert.match(text, /\| Public Limited Company \| 1 \| 1 \| £9m \|/);
    });

    test('REST Markdown: negative shares with their counts, sections with their names, years only when asked', async () => {
      const types = markdown(await get('/v1/stats?group_by=type'));
      // 1 of the 4 private companies filing net assets has them negative (BETA BUILDERS).
      assert.match(types, /\| Private Limited Company \| 5 \| 4 \|.*\| 25\.0% \(1\) \|/);
      assert.match(types, /Negative net assets: 20\.0% \(1\) of the 5 filing net assets\./);
      assert.doesNotMatch(types, /Incorporations by year/);
      const sections = markdown(await get('/v1/stats?group_by=sic_section'));
      assert.match(sections, /\| F Construction \| 1 \|/);
      assert.match(sections, /\| J Information and communication \|/);
      assert.match(markdown(await get('/v1/stats?incorporated_from=2010-01-01')), /## Incorporations by year/);
      assert.match(markdown(await get('/v1/stats?group_by=incorporation_year')), /## Incorporations by year/);
    });

    test('an unknown group_by is a 400 listing the values', async () => {
      const answer = await get('/v1/stats?group_by=colour&format=json');
      assert.equal(answer.status, 400);
      assert.match(answer.body.error, /group_by/);
      assert.ok(answer.body.error.includes(GROUP_BY.join(', ')), answer.body.error);
    });

    test('MCP: market_stats {group_by} gives the groups as structuredContent and the table as text', async () => {
      const result = (await client.callTool({
        name: 'market_stats',
        arguments: { group_by: 'risk_band' },
      })) as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const structured = result.structuredContent as { group_by: string; groups: { key: string; companies: number }[] };
      assert.equal(structured.group_by, 'risk_band');
      const rest = (await get('/v1/stats?group_by=risk_band&format=json')).body;
      assert.deepEqual(structured.groups, rest.groups);
      assert.equal(
        structured.groups.reduce((sum, g) => sum + g.companies, 0),
        6,
      );
      assert.match((result.content[0] as { text: string }).text, /## By risk band/);
      const refused = (await client.callTool({
        name: 'market_stats',
        arguments: { group_by: 'colour' },
      })) as CallToolResult;
      assert.equal(refused.isError, true);
      assert.match((refused.content[0] as { text: string }).text, /group_by/);
    });
  });
}
