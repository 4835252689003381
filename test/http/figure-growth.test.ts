/**
 * Growth per figure over REST, on the embedded default and on PostgreSQL with Elasticsearch:
 * `turnover_trend=growing` finds only companies whose turnover rose on the period before, where
 * the overall `trajectory=growing` also finds one whose turnover fell; each result says the growth
 * of each figure asked about; bad values are 400s naming the parameter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { GROWTH, loadGrowthFixtures } from '../support/growth-fixtures.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

for (const setup of setups) {
  describe(`growth per figure over REST on ${setup.name}`, () => {
    let world: World;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadGrowthFixtures(world);
      key = await world.issueKey('pro');
    });
    after(() => world.close());
    const search = (query: string) => call(world, `/v1/search?post_town=YORK&sort=name&format=json&${query}`, { key });
    const numbers = async (query: string) => {
      const answer = await search(query);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return (answer.body.results as { company_number: string }[]).map((r) => r.company_number);
    };

    test('"turnover growing" returns only companies whose turnover rose; the overall trajectory does not', async () => {
      // The vote over five figures: Falling Turnover grows overall while its turnover fell by a quarter.
      assert.ok((await numbers('trajectory=growing')).includes(GROWTH.falling.number));
      const answer = await search('turnover_trend=growing');
      assert.deepEqual(
        answer.body.results.map((r: { company_number: string }) => r.company_number),
        [GROWTH.rising.number],
      );
      for (const result of answer.body.results)
        assert.ok(result.growth.turnover.latest > result.growth.turnover.previous);
      assert.deepEqual(answer.body.results[0].growth, {
        turnover: {
          previous: 1_000_000,
          latest: 1_300_000,
          change_pct: 30,
          direction: 'growing',
          previous_balance_sheet_date: '2023-12-31',
        },
      });
      assert.equal(answer.body.criteria.turnover_trend, 'growing');
      assert.deepEqual(await numbers('turnover_trend=declining'), [GROWTH.falling.number]);
      assert.deepEqual(await numbers('turnover_trend=stable'), [GROWTH.flat.number]);
    });

    test('min_ and max_turnover_growth bound the percent change; no previous turnover matches neither', async () => {
      assert.deepEqual(await numbers('min_turnover_growth=0'), [GROWTH.flat.number, GROWTH.rising.number]);
      assert.deepEqual(await numbers('max_turnover_growth=-10'), [GROWTH.falling.number]);
      assert.deepEqual(await numbers('min_turnover_growth=-30&max_turnover_growth=5'), [
        GROWTH.falling.number,
        GROWTH.flat.number,
      ]);
      const both = await search('min_turnover_growth=-100&employees_trend=growing');
      assert.deepEqual(both.body.results[0].growth.employees.change_pct, 50);
      assert.deepEqual(Object.keys(both.body.results[0].growth), ['turnover', 'employees']);
      // Nothing asked about growth: no growth given.
      assert.deepEqual((await search('')).body.results[0].growth, {});
    });

    test('the Markdown answer has a growth column per figure asked', async () => {
      const text = markdown(await call(world, '/v1/search?post_town=YORK&turnover_trend=declining', { key }));
      assert.match(text, /\| turnover growth \|/);
      assert.match(text, /-25% declining \(£2m to £1\.5m\)/);
    });

    test('bad growth filters are 400s naming the parameter', async () => {
      const trend = await search('turnover_trend=up');
      assert.equal(trend.status, 400);
      assert.match(trend.body.error, /turnover_trend/);
      assert.match(trend.body.error, /growing, stable, declining/);
      const order = await search('min_turnover_growth=10&max_turnover_growth=5');
      assert.equal(order.status, 400);
      assert.match(order.body.error, /min_turnover_growth.*greater than max_turnover_growth/);
      assert.equal((await search('min_profit_growth=lots')).status, 400);
    });

    test('the OpenAPI document lists the growth filters of every figure', async () => {
      const doc = await call(world, '/openapi.json');
      const names = (doc.body.paths['/v1/search'].get.parameters as { name: string }[]).map((p) => p.name);
      for (const figure of ['turnover', 'profit', 'net_assets', 'total_assets', 'cash', 'employees'])
        for (const name of [`${figure}_trend`, `min_${figure}_growth`, `max_${figure}_growth`])
          assert.ok(names.includes(name), name);
    });
  });
}
