/**
 * include_estimates on search_companies, find_triggers and market_stats, over real HTTP and MCP on
 * both search backends: a company whose only figures are estimated from scanned PDF accounts is
 * found by a figure criterion, triggered and counted in stats only when estimates are asked for,
 * and the answer says it used them; a company with filed figures and an estimated older year is
 * found once either way; name search lists every company once. Estimates are stored after the
 * accounts load and the index is brought up to date by an update run, as after any load.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { pdfEstimate } from '../support/pdf-estimate-fixture.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

/** Filed figures, and an estimate of a year before them. */
const FILED = '50000011';
/** Only an estimate: turnover £3m, net assets below zero. */
const PAPER = '50000012';
/** Only filed figures. */
const PLAIN = '50000013';

for (const setup of setups) {
  describe(`include_estimates on ${setup.name}`, () => {
    let world: World;
    let key: string;

    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await world.loadRegister(
        [
          { number: FILED, name: 'ALPHA ESTIMATES LTD', nextDue: '2025-12-31' },
          { number: PAPER, name: 'BETA ESTIMATES LTD', nextDue: '2025-12-31' },
          { number: PLAIN, name: 'GAMMA ESTIMATES LTD', nextDue: '2025-12-31' },
        ],
        '2025-01-01',
      );
      await world.loadAccounts(
        [
          {
            number: FILED,
            name: 'ALPHA ESTIMATES LTD',
            balanceSheetDate: '2024-12-31',
            current: { turnover: 4_000_000, netAssets: 500_000 },
          },
          {
            number: PLAIN,
            name: 'GAMMA ESTIMATES LTD',
            balanceSheetDate: '2024-12-31',
            current: { turnover: 2_000_000, netAssets: 300_000 },
          },
        ],
        '2025-06-01',
      );
      const estimates = createPdfEstimateStore(world.sql);
      await estimates.savePdfEstimate(
        pdfEstimate(PAPER, 'paper-2024', '2024-03-31', {
          current: { ...emptyFigures(), turnover: 3_000_000, net_assets: -20_000 },
          confidence: { turnover: 'high', net_assets: 'medium' },
        }),
      );
      await estimates.savePdfEstimate(
        pdfEstimate(FILED, 'filed-2022', '2022-12-31', {
          current: { ...emptyFigures(), turnover: 1_000_000, net_assets: 400_000 },
          confidence: { turnover: 'high', net_assets: 'high' },
        }),
      );
      // An update run, as after a load: storing an estimate marks its company changed.
      await world.reindex();
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    const get = async (path: string) => {
      const answer = await call(world, path, { key });
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const numbers = (body: { results: { company_number: string }[] }) => body.results.map((r) => r.company_number);

    test('a turnover criterion finds the estimated company only with include_estimates=true', async () => {
      const filed = await get('/v1/search?format=json&sort=name&min_turnover=1000000');
      assert.deepEqual(numbers(filed), [FILED, PLAIN]);
      assert.equal(filed.total, 2);
      assert.equal(filed.estimates_used, false);
      assert.equal(filed.criteria.include_estimates, undefined);

      const estimated = await get('/v1/search?format=json&sort=name&min_turnover=1000000&include_estimates=true');
      assert.deepEqual(numbers(estimated), [FILED, PAPER, PLAIN], 'every company once');
      assert.equal(estimated.total, 3);
      assert.equal(estimated.estimates_used, true);
      assert.equal(estimated.criteria.include_estimates, true);
      const paper = estimated.results.find((r: { company_number: string }) => r.company_number === PAPER);
      assert.equal(paper.turnover, 3_000_000);
      const alpha = estimated.results.find((r: { company_number: string }) => r.company_number === FILED);
      assert.equal(alpha.turnover, 4_000_000, 'the filed figures win over an older estimate');
    });

    test('the Markdown answer says when estimates were used', async () => {
      const used = markdown(await call(world, '/v1/search?min_turnover=1000000&include_estimates=true', { key }));
      assert.match(used, /estimated from scanned PDF accounts/);
      const none = markdown(await call(world, '/v1/search?min_turnover=1000000', { key }));
      assert.doesNotMatch(none, /estimated from scanned PDF accounts/);
      // Asked for, but no estimated company among the matches: nothing to say.
      const plain = await get(
        '/v1/search?format=json&min_turnover=1500000&max_turnover=2500000&include_estimates=true',
      );
      assert.deepEqual(numbers(plain), [PLAIN]);
      assert.equal(plain.estimates_used, false);
      // A company whose history as searched holds an estimated year counts, even where its latest
      // figures are filed: its growth and trajectory read the estimate.
      const alpha = await get('/v1/search?format=json&min_turnover=3500000&include_estimates=true');
      assert.deepEqual(numbers(alpha), [FILED]);
      assert.equal(alpha.estimates_used, true);
      assert.equal(alpha.results[0].turnover, 4_000_000);
    });

    test('a trigger reads estimates only when asked', async () => {
      const filed = await get('/v1/triggers?format=json&trigger=distress');
      assert.deepEqual(numbers(filed), []);
      assert.equal(filed.estimates_used, false);
      const estimated = await get('/v1/triggers?format=json&trigger=distress&include_estimates=true');
      assert.deepEqual(numbers(estimated), [PAPER]);
      assert.equal(estimated.estimates_used, true);
      assert.match(
        markdown(await call(world, '/v1/triggers?trigger=distress&include_estimates=true', { key })),
        /estimated/,
      );
    });

    test('stats count the estimated figures only when asked, and say so', async () => {
      const filed = await get('/v1/stats?format=json');
      assert.equal(filed.companies, 3);
      assert.equal(filed.with_accounts, 2);
      assert.equal(filed.turnover.count, 2);
      assert.equal(filed.estimates_used, false);
      const estimated = await get('/v1/stats?format=json&include_estimates=true');
      assert.equal(estimated.companies, 3, 'every company once');
      assert.equal(estimated.with_accounts, 3);
      assert.equal(estimated.turnover.count, 3);
      assert.equal(estimated.estimates_used, true);
      assert.equal(estimated.filters.include_estimates, true);
      const grouped = await get('/v1/stats?format=json&include_estimates=true&group_by=risk_band');
      assert.equal(
        grouped.groups.reduce((sum: number, g: { companies: number }) => sum + g.companies, 0) +
          (grouped.other?.companies ?? 0),
        3,
        'groups by risk band count every company once',
      );
    });

    test('name search and the readiness count see each company once', async () => {
      const ready = await call(world, '/readyz');
      assert.equal(ready.body.search.indexed, 3);
      const found = await get('/v1/search-by-name?format=json&name=estimates&limit=10');
      assert.equal(found.total, 3);
      assert.deepEqual(found.results.map((r: { company_number: string }) => r.company_number).sort(), [
        FILED,
        PAPER,
        PLAIN,
      ]);
    });

    test('a bad include_estimates is a 400 naming it', async () => {
      for (const path of ['/v1/search', '/v1/triggers?trigger=distress&', '/v1/stats']) {
        const answer = await call(world, `${path}${path.includes('?') ? '' : '?'}include_estimates=maybe`, { key });
        assert.equal(answer.status, 400, path);
        assert.match(JSON.stringify(answer.body), /include_estimates/);
      }
    });

    test('over MCP: the same argument and answer', async () => {
      const client = await connectMcp(world.url, key);
      try {
        const found = (await client.callTool({
          name: 'search_companies',
          arguments: { min_turnover: 1_000_000, include_estimates: true, sort: 'name' },
        })) as CallToolResult;
        assert.equal(found.isError, undefined);
        const structured = found.structuredContent as {
          estimates_used: boolean;
          results: { company_number: string }[];
        };
        assert.equal(structured.estimates_used, true);
        assert.deepEqual(
          structured.results.map((r) => r.company_number),
          [FILED, PAPER, PLAIN],
        );
        const stats = (await client.callTool({ name: 'market_stats', arguments: {} })) as CallToolResult;
        assert.equal((stats.structuredContent as { with_accounts: number }).with_accounts, 2);
      } finally {
        await client.close();
      }
    });
  });
}
