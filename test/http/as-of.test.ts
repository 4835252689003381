/**
 * `as_of` on every answer, end to end over real HTTP on the embedded default: each operation's
 * REST answer (JSON, or Markdown where REST answers only Markdown) and its MCP tool result
 * (structuredContent and the text) say how fresh the data is, as the web pages' footer does, and
 * the values move when a load or a stream batch lands, once the short cache has run out (by the
 * app's clock: no sleeping).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createOfficersApplier } from '../../src/adapters/postgres/officer-appliers.ts';
import { companiesApplier } from '../../src/adapters/postgres/stream-companies.ts';
import { AS_OF_TTL_MS } from '../../src/call/as-of.ts';
import type { AsOf } from '../../src/operations/envelope.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import type { StreamEvent } from '../../src/ports/stream-appliers.ts';
import { companies, FIXTURES_AS_OF, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { restJson } from '../support/rest-json.ts';
import { officerItem, syntheticOfficerId } from '../../src/synthetic/officers.ts';
import { companyEvent } from '../support/stream-world.ts';
import { connectMcp } from '../support/mcp-client.ts';

/** The seed of the one officer appointment stored, so that get_appointments has someone to show. */
const OFFICER_SEED = 5;

/** One director of company 00000001, written as the officers stream's applier writes it. */
function officerEvent(): StreamEvent {
  const data = officerItem(OFFICER_SEED, { companyNumber: '00000001', personId: 1, appointedOn: '2015-04-01' });
  const self = (data.links as { self: string }).self;
  return {
    resource_kind: 'company-officers',
    resource_uri: self,
    resource_id: self.slice(self.lastIndexOf('/') + 1),
    data,
    event: { timepoint: 1, published_at: '2025-06-01T10:00:00', type: 'changed' },
  };
}

/** Stands for an id made by an earlier call: the endpoint webhook_create made, the delivery webhook_test queued. */
const MADE = Symbol('made earlier');

/** One call per operation, in an order where each finds what it needs (the webhook calls build on each other). */
const CALLS: readonly [name: string, args: Record<string, unknown>][] = [
  ['lookup_company', { company_number: '1' }],
  ['lookup_companies', { company_numbers: ['1', '6'] }],
  ['search_by_name', { name: 'acme' }],
  ['search_companies', {}],
  ['search_people', { name: 'doe' }],
  ['get_ownership', { company_number: '1' }],
  ['get_officers', { company_number: '1' }],
  ['get_appointments', { officer_id: syntheticOfficerId(OFFICER_SEED, 1) }],
  ['compare_companies', { company_a: '1', company_b: '2' }],
  ['market_stats', {}],
  ['find_triggers', { trigger: 'cash_rich' }],
  ['recent_changes', {}],
  ['watch_add', { company_numbers: ['1'] }],
  ['watch_list', {}],
  ['get_alerts', {}],
  ['watch_remove', { company_numbers: ['1'] }],
  ['webhook_create', { url: 'http://127.0.0.1:9/hook' }],
  ['webhook_list', {}],
  ['webhook_test', { id: MADE }],
  ['webhook_deliveries', { id: MADE }],
  ['webhook_retry_delivery', { id: MADE, delivery: MADE }],
  ['webhook_rotate_secret', { id: MADE }],
  ['webhook_delete', { id: MADE }],
];

/** The Markdown line of the fixtures' as_of. */
const FIXTURES_LINE = '_Data as of: register 2025-01-01, accounts 2025-06-01, PSC none loaded, stream not followed._';

describe('as_of on every answer (PGlite, Postgres search)', () => {
  let world: World;
  let key: string;
  let client: Client;
  let now = NOW;
  /** The app's clock moved on past the as_of cache. */
  const cacheRunsOut = () => {
    now = new Date(now.getTime() + AS_OF_TTL_MS);
    world.setNow(now);
  };
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now });
    key = await world.issueKey('pro');
    client = await connectMcp(world.url, key);
  });
  after(async () => {
    await client.close();
    await world.close();
  });
  const operation = (name: string) => OPERATIONS.find((o) => o.name === name)!;
  const restAsOf = async (name: string, args: Record<string, unknown>) =>
    ((await restJson(world, key, operation(name), args)) as { as_of: AsOf }).as_of;
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    assert.ok(!result.isError, `${name}: ${JSON.stringify(result.content)}`);
    const [block] = result.content as [{ type: 'text'; text: string }];
    return { text: block.text, asOf: (result.structuredContent as { as_of: AsOf }).as_of };
  };

  test('before anything is loaded: nothing loaded, streams not followed', async () => {
    const empty = { register: null, accounts: null, psc: null, stream: null };
    assert.deepEqual(await restAsOf('search_companies', {}), empty);
    const { text, asOf } = await tool('search_companies', {});
    assert.deepEqual(asOf, empty);
    assert.ok(
      text.includes('_Data as of: register none loaded, accounts none loaded, PSC none loaded, stream not followed._'),
      text,
    );
  });

  test('every operation says it, over REST (JSON, or its Markdown) and MCP (structured and text)', async () => {
    await loadFixtures(world);
    // Straight into the store, not through the stream ledger: the stream's as_of stays unmoved.
    await world.sql.transaction((tx) => createOfficersApplier().apply(tx, [officerEvent()]));
    cacheRunsOut();
    assert.deepEqual(new Set(CALLS.map(([name]) => name)), new Set(OPERATIONS.map((o) => o.name)));
    for (const surface of ['rest', 'mcp'] as const) {
      const made: Record<string, string> = {};
      for (const [name, given] of CALLS) {
        const args = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === MADE ? made[k] : v]));
        const label = `${surface} ${name} ${JSON.stringify(args)}`;
        let structured: Record<string, unknown> | undefined;
        if (surface === 'rest') {
          const body = (await restJson(world, key, operation(name), args)) as Record<string, unknown>;
          if (operation(name).json) structured = body;
          else assert.ok(markdown({ status: 200, headers: new Headers(), body }).includes(FIXTURES_LINE), label);
        } else {
          const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
          assert.ok(!result.isError, `${label}: ${JSON.stringify(result.content)}`);
          assert.ok((result.content[0] as { text: string }).text.includes(FIXTURES_LINE), label);
          structured = result.structuredContent;
        }
        if (structured) assert.deepEqual(structured.as_of, FIXTURES_AS_OF, label);
        if (name === 'webhook_create') made.id = (structured!.endpoint as { id: string }).id;
        if (name === 'webhook_test') made.delivery = structured!.delivery_id as string;
      }
    }
  });

  test('a load and a stream batch move it, once the few seconds of cache have run out', async () => {
    await world.loadRegister(companies, '2025-06-10');
    await world.loadAccounts([], '2025-06-12');
    const psc = await world.store.startLoad('psc', 'persons-with-significant-control-snapshot-2025-06-11.zip', {
      snapshotDate: '2025-06-11',
    });
    await world.store.finishLoad(psc, 'done', { rows_read: 0, rows_written: 0, rows_rejected: 0 });
    const lease = { holder: 'as-of-test', seconds: 30 };
    assert.ok(await world.streams.claim('companies', lease));
    const events = [companyEvent(7, '2025-06-15T11:04:05', '00000001', { company_name: 'ACME WIDGETS LIMITED' })].map(
      (line) => JSON.parse(line) as StreamEvent,
    );
    assert.ok(await world.streams.applyBatch('companies', lease.holder, events, companiesApplier()));

    // Within the cache's few seconds, the reading already made stands.
    assert.deepEqual(await restAsOf('lookup_company', { company_number: '1' }), FIXTURES_AS_OF);
    cacheRunsOut();
    const moved: AsOf = {
      register: '2025-06-10',
      accounts: '2025-06-12',
      psc: '2025-06-11',
      stream: { name: 'companies', published_at: '2025-06-15T11:04:05Z' },
    };
    assert.deepEqual(await restAsOf('lookup_company', { company_number: '1' }), moved);
    const { text, asOf } = await tool('get_officers', { company_number: '1' });
    assert.deepEqual(asOf, moved);
    assert.ok(
      text.includes(
        '_Data as of: register 2025-06-10, accounts 2025-06-12, PSC 2025-06-11, stream 2025-06-15 11:04 UTC (companies)._',
      ),
      text,
    );
    // The web pages say it in their footer.
    for (const path of ['/', '/company/00000001']) {
      const page = await fetch(`${world.url}${path}`);
      assert.equal(page.status, 200, path);
      assert.match(
        await page.text(),
        /<p class="as-of">Data as of: register 2025-06-10, accounts 2025-06-12, PSC 2025-06-11, stream 2025-06-15 11:04 UTC \(companies\)\.<\/p>/,
        path,
      );
    }
  });
});
