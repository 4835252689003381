/**
 * The ownership filters over HTTP and MCP, on the embedded default (PGlite with the Postgres search)
 * and on a real PostgreSQL with a real Elasticsearch: PSC records are stored as the PSC loader
 * stores them, the indexer brings the search index up to date, and search, triggers and stats
 * filter on them; bad values are 400s naming the parameter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { readOfficer } from '../../src/domain/officers.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import type { OfficerRecord } from '../../src/domain/officers.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const ADA = { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 };

/**
 * ACME: an individual and a UK parent (DELTA, on the register); BETA: a parent in Jersey; GAMMA: a
 * statement only; DELTA: an individual and a US parent; EPSILON and ZETA: no PSC record.
 */
const pscs = [
  individualPsc('00000001', ADA),
  corporatePsc('00000001', { name: 'DELTA HOLDINGS PLC', registeredNumber: '00000004' }),
  corporatePsc('00000002', { name: 'ISLAND HOLDINGS LTD', country: 'Jersey' }),
  pscStatement('00000003', 'no-individual-or-entity-with-signficant-control'),
  individualPsc('00000004', ADA),
  corporatePsc('00000004', { name: 'DELTA GLOBAL INC', country: 'USA' }),
];

for (const setup of setups) {
  describe(`ownership filters on ${setup.name}`, () => {
    let world: World;
    let key: string;

    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.pscs.upsertPscs(pscs, '2025-06-01');
      await world.reindex();
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    const get = async (path: string) => {
      const answer = await call(world, path, { key });
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const numbers = async (query: string) =>
      (await get(`/v1/search?format=json&sort=name&${query}`)).results.map(
        (r: { company_number: string }) => r.company_number,
      );

    test('search: a corporate parent or none, by country, by the count of PSCs', async () => {
      assert.deepEqual(await numbers('has_corporate_parent=true'), ['00000001', '00000002', '00000004']);
      assert.deepEqual(await numbers('has_corporate_parent=FALSE'), ['00000003']);
      assert.deepEqual(await numbers('parent_country=overseas'), ['00000002', '00000004']);
      assert.deepEqual(await numbers('parent_country=%20JERSEY%20'), ['00000002']);
      assert.deepEqual(await numbers('parent_country=U.S.A.'), ['00000004']);
      assert.deepEqual(await numbers('parent_country=uk'), ['00000001']);
      assert.deepEqual(await numbers('parent_country=England'), ['00000001']);
      assert.deepEqual(await numbers('parent_country=France'), []);
      assert.deepEqual(await numbers('min_controller_count=2'), ['00000001', '00000004']);
      assert.deepEqual(await numbers('max_controller_count=0'), ['00000003']);
      assert.deepEqual(await numbers('min_controller_count=1&max_controller_count=1'), ['00000002']);
      const body = await get('/v1/search?format=json&parent_country=Jersey&min_controller_count=1');
      assert.deepEqual(body.criteria, {
        status: 'active',
        parent_country: 'Jersey',
        min_controller_count: 1,
        sort: '-net_assets',
        limit: 20,
      });
    });

    test('triggers and stats take the same filters', async () => {
      const triggered = await get('/v1/triggers?format=json&trigger=recently_filed&parent_country=overseas');
      assert.deepEqual(
        triggered.results.map((r: { company_number: string }) => r.company_number),
        ['00000002', '00000004'],
      );
      const stats = await get('/v1/stats?format=json&has_corporate_parent=true');
      assert.equal(stats.companies, 3);
      assert.deepEqual(stats.filters, { status: 'active', has_corporate_parent: true });
      assert.equal((await get('/v1/stats?format=json&max_controller_count=0')).companies, 1);
      const grouped = await get('/v1/stats?format=json&parent_country=overseas&group_by=post_town');
      assert.deepEqual(
        grouped.groups.map((g: { key: string; companies: number }) => [g.key, g.companies]),
        [
          ['LONDON', 1],
          ['MANCHESTER', 1],
        ],
      );
    });

    test('a PSC change reaches the filters with the next index update', async () => {
      await world.pscs.upsertPscs(
        [corporatePsc('00000003', { name: 'NEW PARENT LIMITED', registeredNumber: '00000001' })],
        '2025-06-10',
      );
      await world.reindex();
      assert.deepEqual(await numbers('has_corporate_parent=true'), ['00000001', '00000002', '00000004', '00000003']);
      assert.deepEqual(await numbers('has_corporate_parent=false'), []);
    });

    test('identity_unverified: a director or PSC past their verification due date, on search, triggers and stats', async () => {
      const due = (date: string) => ({
        appointment_verification_statement_date: '2025-05-01',
        appointment_verification_statement_due_on: date,
      });
      // ACME: its PSC due before NOW (2025-06-15), the same record as before bar verification;
      // DELTA: a director due after NOW; BETA: a director due before it who has verified.
      await world.pscs.upsertPscs(
        [
          individualPsc('00000001', ADA, {
            // A new etag, as Companies House gives a record whose verification details change.
            content_hash: 'etag-with-verification',
            data: {
              kind: 'individual-person-with-significant-control',
              identity_verification_details: due('2025-06-01'),
            },
          }),
        ],
        '2025-06-12',
      );
      const director = (number: string, block: Record<string, string>): OfficerRecord =>
        readOfficer(number, `dir-${number}`, {
          name: 'DIRECTOR, Dee',
          officer_role: 'director',
          identity_verification_details: block,
        }) as OfficerRecord;
      const officers = createOfficerStore(world.sql);
      await officers.replaceCompanyOfficers('00000004', [director('00000004', due('2025-07-01'))], NOW.toISOString());
      await officers.replaceCompanyOfficers(
        '00000002',
        [director('00000002', { ...due('2025-06-01'), identity_verified_on: '2025-05-20' })],
        NOW.toISOString(),
      );
      await world.reindex();
      assert.deepEqual(await numbers('identity_unverified=true'), ['00000001']);
      assert.ok(!(await numbers('identity_unverified=false')).includes('00000001'));
      assert.equal((await get('/v1/stats?format=json&identity_unverified=true')).companies, 1);
      const triggered = await get('/v1/triggers?format=json&trigger=recently_filed&identity_unverified=true');
      assert.deepEqual(
        triggered.results.map((r: { company_number: string }) => r.company_number),
        ['00000001'],
      );
      const refused = await call(world, '/v1/search?identity_unverified=maybe', { key });
      assert.equal(refused.status, 400);
      assert.match(JSON.stringify(refused.body), /identity_unverified/);
    });

    test('bad values are 400s naming the parameter, on search, stats and triggers alike', async () => {
      for (const [query, param, why] of [
        ['has_corporate_parent=yes', 'has_corporate_parent', /boolean/],
        ['parent_country=', 'parent_country', /blank/],
        ['parent_country=%20%20', 'parent_country', /blank/],
        ['parent_country=...', 'parent_country', /must name a country/],
        ['parent_country=' + 'x'.repeat(101), 'parent_country', /at most 100/],
        ['min_controller_count=-1', 'min_controller_count', /0 or more/],
        ['min_controller_count=1.5', 'min_controller_count', /must be an int/],
        ['max_controller_count=many', 'max_controller_count', /number/],
        ['max_controller_count=1000000', 'max_controller_count', /at most 100000/],
        ['min_controller_count=3&max_controller_count=2', 'min_controller_count', /greater than max_controller_count/],
        ['controller_count=2', 'controller_count', /Unknown parameter/],
      ] as const) {
        for (const path of ['/v1/search', '/v1/stats', '/v1/triggers?trigger=distress&']) {
          const answer = await call(world, `${path}${path.endsWith('&') ? '' : '?'}${query}`, { key });
          assert.equal(answer.status, 400, `${path} ${query}: ${JSON.stringify(answer.body)}`);
          assert.match(answer.body.error, new RegExp(`"${param}"`), `${path} ${query}`);
          assert.match(answer.body.error, why, `${path} ${query}`);
        }
      }
    });

    test('over MCP: the same arguments, structured answers, and refusals as tool errors', async () => {
      const client = await connectMcp(world.url, key);
      try {
        const found = (await client.callTool({
          name: 'search_companies',
          arguments: { parent_country: 'overseas', has_corporate_parent: true, sort: 'name' },
        })) as CallToolResult;
        assert.equal(found.isError, undefined);
        assert.deepEqual(
          (found.structuredContent as { results: { company_number: string }[] }).results.map((r) => r.company_number),
          ['00000002', '00000004'],
        );
        const stats = (await client.callTool({
          name: 'market_stats',
          arguments: { min_controller_count: 2 },
        })) as CallToolResult;
        assert.equal((stats.structuredContent as { companies: number }).companies, 2);
        const refused = (await client.callTool({
          name: 'search_companies',
          arguments: { parent_country: '  ' },
        })) as CallToolResult;
        assert.equal(refused.isError, true);
        assert.match((refused.content[0] as { text: string }).text, /"parent_country"/);
      } finally {
        await client.close();
      }
    });
  });
}
