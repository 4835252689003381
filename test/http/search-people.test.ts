/**
 * GET /v1/search-people (tool search_people) end to end over real HTTP, on the embedded default and
 * on PostgreSQL with Elasticsearch: PSC records loaded into the store reach the people index through
 * the indexer that follows a load; one result per person with its companies; a corporate PSC found
 * by name; the birth filters; paging by cursor; the same answer over MCP; one request counted a
 * call; and 400s naming the parameter, with nothing counted twice.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { call, companies, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const MONTH = usageMonth(NOW);
const jane = { forename: 'Jane', surname: 'Doe', birthYear: 1975, birthMonth: 3 };

for (const setup of setups) {
  describe(`search_people on ${setup.name}`, () => {
    let world: World;
    let key: string;
    let client: Client;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.pscs.upsertPscs(
        [
          individualPsc('00000001', jane, { notified_on: '2018-02-01' }),
          // Verified, as the snapshot files it; the record at 00000001 carries no verification.
          individualPsc('00000002', jane, {
            notified_on: '2020-09-01',
            data: {
              name: 'Mr Jane Doe',
              identity_verification_details: {
                identity_verified_on: '2025-11-20',
                appointment_verification_statement_date: '2025-11-18',
                appointment_verification_statement_due_on: '2026-03-01',
              },
            },
          }),
          individualPsc('00000003', { ...jane, birthYear: 1990 }),
          individualPsc('00000005', { forename: 'Janet', surname: 'Doe-Smith', birthYear: 1961, birthMonth: 12 }),
          corporatePsc('00000003', { name: 'DOE FAMILY HOLDINGS LIMITED', registeredNumber: '00000004' }),
          pscStatement('00000006', 'no-individual-or-entity-with-signficant-control'),
        ],
        '2025-06-01',
      );
      // The register load after them brings both indexes up to date, as `ukcd load` does.
      await world.loadRegister(companies, '2025-06-01');
      key = await world.issueKey('pro');
      client = await connectMcp(world.url, key);
    });
    after(async () => {
      await client.close();
      await world.close();
    });

    const get = (query: string, format = 'json') =>
      call(world, `/v1/search-people?${query}${format ? `&format=${format}` : ''}`, { key });
    const usage = async () =>
      (await world.keys.listKeys(MONTH, keyPrefix(key))).find((k) => k.prefix === keyPrefix(key))!.used;

    test('one result per person, ranked, each with its companies and natures of control in words', async () => {
      const answer = await get('name=jane%20doe');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { query, total, total_is_lower_bound, next, results } = answer.body;
      assert.deepEqual([query, total, total_is_lower_bound, next], ['jane doe', 3, false, null]);
      assert.deepEqual(
        results.map((r: { name: string; birth_year: number; current_companies: number }) => [
          r.name,
          r.birth_year,
          r.current_companies,
        ]),
        [
          ['Mr Jane Doe', 1975, 2],
          ['Mr Jane Doe', 1990, 1],
          // Every word starts a word of the name: ranked after the exact ones.
          ['Mr Janet Doe-Smith', 1961, 1],
        ],
      );
      const [first] = results;
      assert.deepEqual([first.kind, first.birth_month, first.nationality], ['individual', 3, 'British']);
      assert.deepEqual(first.companies, [
        {
          company_number: '00000002',
          company_name: 'BETA BUILDERS LTD',
          natures: [{ code: 'ownership-of-shares-75-to-100-percent', words: 'owns 75–100% of shares' }],
          notified_on: '2020-09-01',
          ceased_on: null,
          ceased: false,
          identity_verification: {
            identity_verified_on: '2025-11-20',
            appointment_verification_start_on: null,
            appointment_verification_end_on: null,
            appointment_verification_statement_date: '2025-11-18',
            appointment_verification_statement_due_on: '2026-03-01',
            authorised_corporate_service_provider_name: null,
            preferred_name: null,
          },
        },
        {
          company_number: '00000001',
          company_name: 'ACME WIDGETS LIMITED',
          natures: [{ code: 'ownership-of-shares-75-to-100-percent', words: 'owns 75–100% of shares' }],
          notified_on: '2018-02-01',
          ceased_on: null,
          ceased: false,
          identity_verification: null,
        },
      ]);
      assert.doesNotMatch(JSON.stringify(answer.body), /address|date_of_birth/);
    });

    test('a company controlling others is found by name, with its kind', async () => {
      const { results } = (await get('name=doe%20family%20holdings%20ltd')).body;
      assert.deepEqual(
        results.map((r: { kind: string; name: string; registered_company_number: string }) => [
          r.kind,
          r.name,
          r.registered_company_number,
        ]),
        [['corporate', 'DOE FAMILY HOLDINGS LIMITED', '00000004']],
      );
    });

    test('birth_year and birth_month narrow the people', async () => {
      const names = async (query: string) =>
        (await get(query)).body.results.map((r: { name: string; birth_year: number }) => `${r.name} ${r.birth_year}`);
      assert.deepEqual(await names('name=doe&birth_year=1990'), ['Mr Jane Doe 1990']);
      assert.deepEqual(await names('name=doe&birth_year=1975&birth_month=3'), ['Mr Jane Doe 1975']);
      assert.deepEqual(await names('name=doe&birth_year=1975&birth_month=4'), []);
    });

    test('pages by cursor: the same people as one page, without repeats', async () => {
      const all = (await get('name=doe')).body;
      assert.equal(all.total, 4);
      const first = (await get('name=doe&limit=3')).body;
      assert.equal(first.results.length, 3);
      assert.ok(first.next);
      const second = (await get(`name=doe&limit=3&cursor=${encodeURIComponent(first.next)}`)).body;
      assert.equal(second.next, null);
      assert.deepEqual([...first.results, ...second.results], all.results);
      // A cursor belongs to its query.
      const other = await get(`name=jane&cursor=${encodeURIComponent(first.next)}`);
      assert.equal(other.status, 400);
      assert.match(other.body.error, /"cursor".*another query/);
    });

    test('Markdown by default; the same answer over MCP, one request each', async () => {
      const before = await usage();
      const rest = await get('name=jane%20doe&birth_year=1975', '');
      assert.equal(rest.status, 200);
      const text = markdown(rest);
      assert.match(text, /^# People named like "jane doe" born 1975/);
      assert.match(text, /## Mr Jane Doe/);
      assert.match(text, /\*\*Born:\*\* March 1975/);
      assert.match(text, /\| Notified \| Ceased \| Identity \|/);
      assert.match(
        text,
        /\| 00000002 \| BETA BUILDERS LTD \| owns 75–100% of shares \| 2020-09-01 \| — \| verified 2025-11-20 \|/,
      );
      assert.match(
        text,
        /\| 00000001 \| ACME WIDGETS LIMITED \| owns 75–100% of shares \| 2018-02-01 \| — \| not given \|/,
      );
      const tool = (await client.callTool({
        name: 'search_people',
        arguments: { name: 'jane doe', birth_year: 1975 },
      })) as CallToolResult;
      assert.ok(!tool.isError, JSON.stringify(tool));
      assert.equal((tool.content[0] as { text: string }).text, text);
      const json = (await get('name=jane%20doe&birth_year=1975')).body;
      assert.deepEqual(tool.structuredContent, json);
      assert.equal(await usage(), before + 3);
    });

    test('bad arguments are 400s naming the parameter, over REST and MCP', async () => {
      const thisYear = NOW.getUTCFullYear();
      const cases: [query: string, parameter: RegExp][] = [
        ['name=doe&limit=0', /"limit": must be at least 1/],
        ['name=doe&limit=101', /"limit": must be at most 100/],
        ['name=doe&limit=ten', /"limit": must be a number/],
        ['name=doe&birth_year=1899', /"birth_year": must be 1900 or later/],
        [`name=doe&birth_year=${thisYear + 2}`, /"birth_year": must not be after this year/],
        ['name=doe&birth_year=1975.5', /"birth_year": must be an int/],
        ['name=doe&birth_year=1975&birth_month=13', /"birth_month": must be 1 to 12/],
        ['name=doe&birth_year=1975&birth_month=0', /"birth_month": must be 1 to 12/],
        ['name=doe&birth_month=3', /"birth_month": needs birth_year/],
        ['name=%20%20', /"name": must not be blank/],
        ['limit=5', /Missing required parameter "name"/],
        ['name=doe&born=1975', /Unknown parameter "born"/],
      ];
      for (const [query, message] of cases) {
        const answer = await get(query);
        assert.equal(answer.status, 400, query);
        assert.match(answer.body.error, message, query);
      }
      const tool = (await client.callTool({
        name: 'search_people',
        arguments: { name: 'doe', birth_month: 3 },
      })) as CallToolResult;
      assert.equal(tool.isError, true);
      assert.match((tool.content[0] as { text: string }).text, /"birth_month": needs birth_year/);
    });
  });
}
