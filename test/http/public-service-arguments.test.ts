/**
 * Issue 13: an agent or app configured for the public "UK Company Data" MCP service works against
 * ours unchanged. Its argument names (sort_by/sort_order, size_class, trajectory, min_employees,
 * insolvency_proxy, min_/max_total_assets, negative_net_assets; recent_changes' and get_alerts'
 * defaults) are sent through the SDK's own MCP client and over REST, on the embedded default and
 * on PostgreSQL with Elasticsearch, and the answers are checked against ours asked with our names.
 * Two spellings of one argument in a call are a 400 (an MCP tool error) naming both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { FilingFixture, RegisterFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

/**
 * Beside the shared fixtures (ACME and DELTA growing, BETA with negative net assets and EPSILON
 * declining), two companies filing total assets less current liabilities: one steady, one small.
 */
const moreCompanies: RegisterFixture[] = [
  { number: '00000101', name: 'STEADY STATE LTD', nextDue: '2025-09-30', sic: '70229 - Management consultancy' },
  { number: '00000102', name: 'SMALL BALANCE LTD', nextDue: '2025-09-30', sic: '70229 - Management consultancy' },
];
const moreFilings: FilingFixture[] = [
  {
    number: '00000101',
    name: 'STEADY STATE LTD',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 400_000, cash: 100_000, totalAssetsLessCurrentLiabilities: 450_000 },
    prior: { netAssets: 395_000, cash: 98_000, totalAssetsLessCurrentLiabilities: 440_000 },
  },
  {
    number: '00000102',
    name: 'SMALL BALANCE LTD',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 20_000, totalAssetsLessCurrentLiabilities: 25_000 },
  },
];

for (const setup of setups) {
  describe(`the public service's arguments, ${setup.name}`, () => {
    let world: World;
    let key: string;
    const clients: Client[] = [];
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.loadRegister(moreCompanies, '2025-01-01');
      await world.loadAccounts(moreFilings, '2025-06-01');
      key = await world.issueKey('pro');
    });
    after(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await world?.close();
    });

    async function connect(): Promise<Client> {
      const client = new Client({ name: 'public-service-agent', version: '0.0.0' });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      return client;
    }
    const tool = async (client: Client, name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;
    /** The Markdown answer without its criteria line, which echoes the names the caller used. */
    const withoutCriteria = (markdown: string) => markdown.replace(/^Criteria: .*$/m, '');
    const query = (args: Record<string, unknown>) =>
      new URLSearchParams(
        Object.entries(args).map(([name, value]): [string, string] => [name, String(value)]),
      ).toString();
    const rest = async (path: string, args: Record<string, unknown>) => {
      const answer = await call(world, `${path}?${query({ ...args, format: 'json' })}`, { key });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };
    const numbers = (body: { results: { company_number: string }[] }) => body.results.map((r) => r.company_number);

    // [the public service's arguments, ours that mean the same, the companies expected in order]
    const same: [theirs: Record<string, unknown>, ours: Record<string, unknown>, want: string[]][] = [
      [
        { sort_by: 'net_assets', sort_order: 'desc' },
        { sort: '-net_assets' },
        ['00000004', '00000001', '00000101', '00000003', '00000005', '00000102', '00000002', '00000006'],
      ],
      [
        { sort_by: 'cash', sort_order: 'asc' },
        { sort: 'cash' },
        ['00000002', '00000005', '00000003', '00000101', '00000001', '00000004', '00000006', '00000102'],
      ],
      [{ sort_by: 'name', limit: 3 }, { sort: '-name', limit: 3 }, ['00000006', '00000101', '00000102']],
      [{ sort_order: 'asc', limit: 2 }, { sort: 'net_assets', limit: 2 }, ['00000002', '00000102']],
      [{ size_class: 'small' }, { size: 'small' }, ['00000001']],
      [{ size_class: 'large', sort_by: 'employees' }, { size: 'large', sort: '-employees' }, ['00000004']],
      [{ min_employees: 30 }, { min_employees: 30 }, ['00000004', '00000001']],
      [{ sort_by: 'total_assets', limit: 2 }, { sort: '-total_assets', limit: 2 }, ['00000101', '00000102']],
      [
        { sort_by: 'total_assets', sort_order: 'asc', limit: 2 },
        { sort: 'total_assets', limit: 2 },
        ['00000102', '00000101'],
      ],
      [{ trajectory: 'declining' }, { signal: 'declining' }, ['00000005', '00000002']],
      [{ trajectory: 'growing' }, { signal: 'growing' }, ['00000004', '00000001', '00000003']],
      [{ negative_net_assets: true }, { signal: 'negative_net_assets' }, ['00000002']],
      [
        { negative_net_assets: false, max_net_assets: 100_000 },
        { min_net_assets: 0, max_net_assets: 100_000 },
        ['00000005', '00000102'],
      ],
    ];

    for (const [theirs, ours, want] of same) {
      test(`${query(theirs)} answers as ${query(ours)}, over REST and MCP`, async () => {
        const [theirAnswer, ourAnswer] = [await rest('/v1/search', theirs), await rest('/v1/search', ours)];
        assert.deepEqual(numbers(theirAnswer), want);
        assert.deepEqual(theirAnswer.results, ourAnswer.results);
        assert.equal(theirAnswer.total, ourAnswer.total);
        const client = await connect();
        const [theirTool, ourTool] = [
          await tool(client, 'search_companies', theirs),
          await tool(client, 'search_companies', ours),
        ];
        assert.equal(theirTool.isError, undefined, text(theirTool));
        assert.equal(withoutCriteria(text(theirTool)), withoutCriteria(text(ourTool)));
        for (const number of want) assert.ok(text(theirTool).includes(number));
      });
    }

    test('filters only the public service has: trajectory stable, total assets, insolvency proxy', async () => {
      const client = await connect();
      const cases: [Record<string, unknown>, string[]][] = [
        [{ trajectory: 'stable' }, ['00000101']],
        // Total assets less current liabilities, as filed (only the two new companies file it).
        [{ min_total_assets: 100_000 }, ['00000101']],
        [{ max_total_assets: 100_000 }, ['00000102']],
        [{ min_total_assets: 25_000, max_total_assets: 450_000 }, ['00000101', '00000102']],
        [{ min_total_assets: 25_001, max_total_assets: 449_999 }, []],
        // BETA: negative net assets; the others show no distress.
        [{ insolvency_proxy: true }, ['00000002']],
        [
          { insolvency_proxy: false, sort_by: 'name', sort_order: 'asc', limit: 3 },
          ['00000001', '00000004', '00000005'],
        ],
      ];
      for (const [args, want] of cases) {
        assert.deepEqual(numbers(await rest('/v1/search', args)), want, query(args));
        const result = await tool(client, 'search_companies', args);
        assert.equal(result.isError, undefined, text(result));
        for (const number of want) assert.ok(text(result).includes(number), `${query(args)}: ${number}`);
      }
      // Booleans over REST are the words true and false.
      const yes = await call(world, '/v1/search?insolvency_proxy=yes', { key });
      assert.equal(yes.status, 400);
      assert.match(yes.body.error, /"insolvency_proxy"/);
    });

    test('find_triggers takes the new filters too; market_stats does not', async () => {
      const triggers = await rest('/v1/triggers', { trigger: 'rapid_growth', size_class: 'small' });
      assert.deepEqual(numbers(triggers), ['00000001']);
      assert.deepEqual(numbers(await rest('/v1/triggers', { trigger: 'distress', insolvency_proxy: true })), [
        '00000002',
      ]);
      const stats = await call(world, '/v1/stats?trajectory=growing', { key });
      assert.equal(stats.status, 400);
      assert.match(stats.body.error, /Unknown parameter "trajectory"/);
    });

    test('pages read the same under either spelling, and a cursor from one serves the other', async () => {
      const [theirFirst, ourFirst] = [
        await rest('/v1/search', { sort_by: 'cash', sort_order: 'asc', limit: 3 }),
        await rest('/v1/search', { sort: 'cash', limit: 3 }),
      ];
      assert.deepEqual(numbers(theirFirst), ['00000002', '00000005', '00000003']);
      assert.equal(theirFirst.next, ourFirst.next);
      const second = await rest('/v1/search', { sort_by: 'cash', sort_order: 'asc', limit: 3, cursor: ourFirst.next });
      assert.deepEqual(numbers(second), ['00000101', '00000001', '00000004']);
    });

    test('limit: default 20, at most 50, as the public service', async () => {
      const client = await connect();
      assert.equal((await rest('/v1/search', {})).criteria.limit, 20);
      assert.equal((await rest('/v1/search', { limit: 50 })).criteria.limit, 50);
      const over = await tool(client, 'search_companies', { limit: 51 });
      assert.equal(over.isError, true);
      assert.match(text(over), /"limit": must be at most 50/);
    });

    test('two spellings of one argument in a call: 400 naming both, over REST and MCP', async () => {
      const client = await connect();
      const conflicts: [Record<string, unknown>, RegExp][] = [
        [{ sort: '-cash', sort_by: 'cash' }, /"sort_by": conflicts with "sort"/],
        [{ sort: '-cash', sort_order: 'asc' }, /"sort_order": conflicts with "sort"/],
        [{ size: 'small', size_class: 'small' }, /"size_class": conflicts with "size"/],
      ];
      for (const [args, message] of conflicts) {
        const answer = await call(world, `/v1/search?${query(args)}`, { key });
        assert.equal(answer.status, 400, query(args));
        assert.match(answer.body.error, message);
        const result = await tool(client, 'search_companies', args);
        assert.equal(result.isError, true);
        assert.match(text(result), message);
      }
      const triggers = await call(world, '/v1/triggers?trigger=cash_rich&size=small&size_class=micro', { key });
      assert.equal(triggers.status, 400);
      assert.match(triggers.body.error, /"size_class": conflicts with "size"/);
      for (const [args] of [[{ sort_by: 'turnover_growth' }], [{ sort_order: 'up' }], [{ trajectory: 'flat' }]]) {
        const answer = await call(world, `/v1/search?${query(args!)}`, { key });
        assert.equal(answer.status, 400, query(args!));
        assert.match(answer.body.error, new RegExp(`"${Object.keys(args!)[0]}"`));
      }
    });

    test('market_stats group_by=size_class groups as group_by=size', async () => {
      const theirs = await rest('/v1/stats', { status: 'any', group_by: 'size_class' });
      const ours = await rest('/v1/stats', { status: 'any', group_by: 'size' });
      assert.equal(theirs.group_by, 'size');
      assert.deepEqual(theirs.groups, ours.groups);
      assert.ok(theirs.groups.length > 0);
      const result = await tool(await connect(), 'market_stats', { group_by: 'size_class' });
      assert.equal(result.isError, undefined, text(result));
    });

    test("REST takes the tools' argument names beside its own: company_number, company_a and company_b", async () => {
      for (const [theirs, ours] of [
        ['/v1/company?company_number=1', '/v1/company?number=1'],
        ['/v1/ownership?company_number=1', '/v1/ownership?number=1'],
        ['/v1/compare?company_a=1&company_b=4', '/v1/compare?a=1&b=4'],
        ['/v1/compare?company_a=1&b=4', '/v1/compare?a=1&b=4'],
      ] as const) {
        const [a, b] = [
          await call(world, `${theirs}&format=json`, { key }),
          await call(world, `${ours}&format=json`, { key }),
        ];
        assert.equal(a.status, 200, `${theirs}: ${JSON.stringify(a.body)}`);
        assert.deepEqual(a.body, b.body, theirs);
      }
      const both = await call(world, '/v1/company?number=1&company_number=1', { key });
      assert.equal(both.status, 400);
      assert.match(both.body.error, /"number" and "company_number" are one parameter/);
      const bad = await call(world, '/v1/company?company_number=x!', { key });
      assert.equal(bad.status, 400);
    });

    test('recent_changes: 30 days and 30 rows unless asked', async () => {
      const body = await rest('/v1/recent-changes', {});
      assert.equal(body.days, 30);
      assert.equal(body.since, '2025-05-16');
      assert.equal(body.filings.length, 7);
      const client = await connect();
      const result = await tool(client, 'recent_changes', {});
      assert.equal(result.isError, undefined, text(result));
      assert.match(text(result), /STEADY STATE LTD/);
      assert.equal((await rest('/v1/recent-changes', { limit: 2 })).filings.length, 2);
    });
  });
}
