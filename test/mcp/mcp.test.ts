/**
 * The MCP server end to end over real HTTP, with the SDK's own client and streamable HTTP
 * transport, on the embedded default (PGlite with the Postgres search) and on a real PostgreSQL
 * with a real Elasticsearch: the tool list without a key, every tool with one, the refusals (key,
 * quota, arguments, the operation's own) as tool errors with the REST texts, what counts against
 * the quota, the quota headers, the raw HTTP rules of /mcp, and that MCP, REST and the operation
 * table list the same operations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { NOTE, SOURCE, withEnvelope } from '../../src/operations/envelope.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { call, FIXTURES_AS_OF, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import { addFixtureOfficer, FIXTURE_OFFICER_ID } from '../support/officer-records.ts';
import type { Answer } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { restJson } from '../support/rest-json.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const MISSING_KEY = 'Missing API key. Send Authorization: Bearer <API_KEY>.';
const INVALID_KEY = 'Invalid or revoked API key.';
const MONTH = usageMonth(NOW);
const RESET = String(Date.UTC(2025, 6, 1) / 1000);
/** How every successful answer ends (src/operations/envelope.ts). */
const ENDING = `\n\n_Source: ${SOURCE}._  \n_${NOTE}_\n`;

/** The arguments each tool requires, by name: exactly those, and nothing else required. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  lookup_company: ['company_number'],
  lookup_companies: ['company_numbers'],
  search_by_name: ['name'],
  search_companies: [],
  search_people: ['name'],
  get_ownership: ['company_number'],
  get_officers: ['company_number'],
  get_appointments: ['officer_id'],
  compare_companies: ['company_a', 'company_b'],
  market_stats: [],
  find_triggers: ['trigger'],
  recent_changes: [],
  watch_list: [],
  watch_add: ['company_numbers'],
  watch_remove: ['company_numbers'],
  webhook_create: ['url'],
  webhook_list: [],
  webhook_test: ['id'],
  webhook_rotate_secret: ['id'],
  webhook_deliveries: ['id'],
  webhook_retry_delivery: ['id', 'delivery'],
  webhook_delete: ['id'],
  get_alerts: [],
};

/** The tools that change something (the watchlist, webhook endpoints); every other tool only reads. */
const WRITES: readonly string[] = [
  'watch_add',
  'watch_remove',
  'webhook_create',
  'webhook_test',
  'webhook_rotate_secret',
  'webhook_retry_delivery',
  'webhook_delete',
];
/** Calling these twice does more than calling them once: a second endpoint, test event or secret. */
const NOT_IDEMPOTENT: readonly string[] = ['webhook_create', 'webhook_test', 'webhook_rotate_secret'];

interface Property {
  type?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
}

function propertiesOf(tool: Tool): Record<string, Property> {
  return (tool.inputSchema.properties ?? {}) as Record<string, Property>;
}

/** The one text block of a tool result. */
function textOf(result: CallToolResult): string {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  const [block] = result.content;
  assert.equal(block!.type, 'text', JSON.stringify(result));
  return (block as { text: string }).text;
}

/** The text of a successful tool result, checked to end with the source and note lines. */
function answerText(result: CallToolResult, label: string): string {
  assert.ok(!result.isError, `${label}: ${JSON.stringify(result)}`);
  const text = textOf(result);
  assert.ok(text.endsWith(ENDING), `${label} ends with the source and note: ${JSON.stringify(text.slice(-200))}`);
  return text;
}

/** The text of a refused tool result. */
function errorText(result: CallToolResult, label: string): string {
  assert.equal(result.isError, true, `${label}: ${JSON.stringify(result)}`);
  return textOf(result);
}

for (const setup of setups) {
  describe(`MCP over HTTP on ${setup.name}`, () => {
    let world: World;
    const clients: Client[] = [];
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await addFixtureOfficer(world.sql);
    });
    after(async () => {
      for (const client of clients) await client.close();
      await world.close();
    });

    /** A connected client (initialize done) sending `authorization` as given; none when undefined. */
    async function connect(authorization?: string): Promise<Client> {
      const client = new Client({ name: 'ukcd-test', version: '0.0.0' });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), {
          requestInit: authorization === undefined ? {} : { headers: { authorization } },
        }),
      );
      return client;
    }
    const connectWith = (key: string) => connect(`Bearer ${key}`);
    const callTool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    /** The key's record as the operator CLI lists it, with this month's usage. */
    async function keyRecord(key: string) {
      const found = (await world.keys.listKeys(MONTH, keyPrefix(key))).filter((k) => k.prefix === keyPrefix(key));
      assert.equal(found.length, 1, `one key with the prefix ${keyPrefix(key)}`);
      return found[0]!;
    }
    const usage = async (key: string) => (await keyRecord(key)).used;

    /** A raw JSON-RPC POST to /mcp, as an MCP client sends it. */
    async function rawMcp(body: unknown, key?: string): Promise<Answer> {
      return call(world, '/mcp', {
        ...(key ? { key } : {}),
        body,
        headers: { accept: 'application/json, text/event-stream' },
      });
    }
    let rpcId = 0;
    const toolsCall = (name: string, args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: ++rpcId,
      method: 'tools/call',
      params: { name, arguments: args },
    });

    test('initialize and tools/list need no key: one tool per operation, described, with its schema', async () => {
      const client = await connect();
      assert.deepEqual(client.getServerVersion(), { name: 'ukcd', version: '0.2.0' });
      assert.ok(client.getServerCapabilities()?.tools);
      assert.match(client.getInstructions() ?? '', /search_by_name/);
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        OPERATIONS.map((o) => o.name),
      );
      assert.equal(tools.length, 23);
      for (const tool of tools) {
        const operation = OPERATIONS.find((o) => o.name === tool.name)!;
        assert.equal(tool.description, operation.description, tool.name);
        assert.ok((tool.description ?? '').length >= 80, `${tool.name} says what it is for and what comes back`);
        assert.equal(tool.inputSchema.type, 'object', tool.name);
        assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), [...REQUIRED[tool.name]!].sort(), tool.name);
        for (const [argument, property] of Object.entries(propertiesOf(tool)))
          assert.ok((property.description ?? '').length > 0, `${tool.name}.${argument} is described`);
        assert.deepEqual(
          tool.annotations,
          {
            title: operation.title,
            readOnlyHint: !WRITES.includes(tool.name),
            // What loses something for good: an endpoint deleted, snapshots dropped, a secret replaced.
            destructiveHint: ['webhook_delete', 'watch_remove', 'webhook_rotate_secret'].includes(tool.name),
            idempotentHint: !NOT_IDEMPOTENT.includes(tool.name),
            // What sends to, or registers, a URL on the internet.
            openWorldHint: ['webhook_create', 'webhook_test', 'webhook_retry_delivery'].includes(tool.name),
          },
          tool.name,
        );
        assert.match(tool.description ?? '', /monthly quota/, `${tool.name} says what it costs`);
        // The answer's shape: a plain object schema (no $ref at the top), naming the envelope.
        const output = tool.outputSchema as Record<string, unknown> | undefined;
        assert.equal(output?.type, 'object', tool.name);
        assert.ok(!('$ref' in output!), tool.name);
        assert.deepEqual(
          [...((output!.required as string[] | undefined) ?? [])].filter((k) => k === 'source' || k === 'note'),
          ['source', 'note'],
          tool.name,
        );
      }
      const byName = new Map(tools.map((t) => [t.name, propertiesOf(t)]));
      assert.deepEqual(Object.keys(byName.get('lookup_company')!), [
        'company_number',
        'include_ceased',
        'include_estimates',
      ]);
      assert.deepEqual(Object.keys(byName.get('get_ownership')!), ['company_number', 'direction', 'depth']);
      assert.deepEqual(byName.get('get_ownership')!.direction!.enum, ['up', 'down', 'both']);
      assert.deepEqual(
        [
          byName.get('get_ownership')!.depth!.default,
          byName.get('get_ownership')!.depth!.minimum,
          byName.get('get_ownership')!.depth!.maximum,
        ],
        [5, 1, 10],
      );
      const { type, default: fallback, minimum, maximum } = byName.get('search_by_name')!.limit!;
      assert.deepEqual(
        { type, fallback, minimum, maximum },
        { type: 'integer', fallback: 20, minimum: 1, maximum: 100 },
      );
      assert.equal(byName.get('search_by_name')!.name!.type, 'string');
      const search = byName.get('search_companies')!;
      assert.equal(search.limit!.default, 20);
      assert.equal(search.limit!.maximum, 50);
      // sort has no schema default, so that sort with sort_by or sort_order can be refused; it says it.
      assert.match(search.sort!.description as string, /default -net_assets/);
      assert.deepEqual(search.sort_by!.enum, [
        'net_assets',
        'cash',
        'turnover',
        'employees',
        'incorporated',
        'name',
        'total_assets',
      ]);
      assert.deepEqual(search.sort_order!.enum, ['asc', 'desc']);
      assert.deepEqual(search.size_class!.enum, search.size!.enum);
      assert.deepEqual(search.trajectory!.enum, ['growing', 'stable', 'declining']);
      assert.ok(search.min_employees && search.min_total_assets && search.max_total_assets);
      assert.equal(search.insolvency_proxy!.type, 'boolean');
      assert.equal(search.negative_net_assets!.type, 'boolean');
      const alertArguments = byName.get('get_alerts')!;
      assert.equal(alertArguments.severity!.default, 'info');
      assert.deepEqual(alertArguments.severity!.enum, ['high', 'medium', 'low', 'info']);
      assert.equal(alertArguments.since!.type, 'string');
      assert.equal(search.status!.default, 'active');
      assert.ok(search.min_net_assets && search.max_profit && search.signal && search.risk_band && search.size);
      assert.deepEqual(byName.get('find_triggers')!.trigger!.enum, [
        'cash_rich',
        'rapid_growth',
        'hiring',
        'turned_profitable',
        'recently_filed',
        'accounts_overdue',
        'distress',
        'young_and_funded',
      ]);
      assert.equal(byName.get('find_triggers')!.limit!.maximum, 50);
      assert.deepEqual(
        [byName.get('recent_changes')!.days!.default, byName.get('recent_changes')!.days!.maximum],
        [30, 90],
      );
      assert.deepEqual(
        [byName.get('recent_changes')!.limit!.default, byName.get('recent_changes')!.limit!.maximum],
        [30, 200],
      );
      assert.equal(byName.get('watch_add')!.company_numbers!.type, 'array');
      assert.equal(byName.get('lookup_companies')!.company_numbers!.type, 'array');
      assert.equal(tools.find((t) => t.name === 'lookup_companies')!.annotations?.readOnlyHint, true);
      assert.deepEqual(byName.get('watch_list'), {});
    });

    test('initialize and tools/list cost a keyed client nothing', async () => {
      const key = await world.issueKey('free');
      const client = await connectWith(key);
      await client.listTools();
      await client.listTools();
      await client.ping();
      assert.equal(await usage(key), 0);
    });

    test('tools/call without a key, with a bogus key or a revoked one: a tool error with the REST text, not counted', async () => {
      const anonymous = await connect();
      for (const [name, args] of [
        ['lookup_company', { company_number: '1' }],
        ['search_by_name', { name: 'acme' }],
        ['watch_list', {}],
      ] as const)
        assert.equal(errorText(await callTool(anonymous, name, args), name), MISSING_KEY);
      for (const header of ['Bearer ukcd_nope', 'Basic abc', 'Bearer']) {
        const bogus = await connect(header);
        assert.equal(errorText(await callTool(bogus, 'lookup_company', { company_number: '1' }), header), INVALID_KEY);
      }
      const revoked = await world.issueKey('free');
      const client = await connectWith(revoked);
      answerText(await callTool(client, 'lookup_company', { company_number: '1' }), 'before revoking');
      assert.equal(await usage(revoked), 1);
      await world.keys.revokeKeys(keyPrefix(revoked));
      assert.equal(
        errorText(await callTool(client, 'lookup_company', { company_number: '1' }), 'revoked'),
        INVALID_KEY,
      );
      // A refused key is refused before its arguments are looked at.
      assert.equal(errorText(await callTool(client, 'search_by_name', { name: '' }), 'revoked, bad args'), INVALID_KEY);
      assert.equal(await usage(revoked), 1);
      // Still nothing written for the refused key: its watchlist is untouched.
      assert.equal(errorText(await callTool(client, 'watch_add', { company_numbers: ['1'] }), 'revoked'), INVALID_KEY);
      const watched = await world.sql.query('SELECT 1 FROM watchlist_entries WHERE key_id = $1', [
        (await keyRecord(revoked)).id,
      ]);
      assert.equal(watched.rowCount, 0);
    });

    test('with a key, every tool answers in Markdown ending with the source and note; each call counts one', async () => {
      const key = await world.issueKey('free');
      const client = await connectWith(key);
      // The webhook tools after webhook_create take its endpoint's id, and webhook_test's delivery.
      let hook = '';
      let delivery = '';
      const calls: [
        name: string,
        args: Record<string, unknown> | (() => Record<string, unknown>),
        expected: RegExp[],
      ][] = [
        [
          'lookup_company',
          { company_number: '1' },
          [
            /^# ACME WIDGETS LIMITED \(00000001\)/,
            /\| 2024-12-31 \| 2025-06-01 \| FRS 102 \| £2m \| £900k \| £5m \| £300k \| 40 \|/,
            /\| low \| charges_outstanding \|/,
          ],
        ],
        // A repeat counts once: one company, one request.
        [
          'lookup_companies',
          { company_numbers: ['1', '00000001'] },
          [/^# 1 of 1 company found/, /\| 00000001 \| ACME/],
        ],
        [
          'search_by_name',
          { name: 'acme widgets', limit: 5 },
          [/^# Companies named like "acme widgets"/, /\| 00000001 \| ACME WIDGETS LIMITED \| Active \|/],
        ],
        [
          'search_companies',
          { post_town: 'leeds', min_net_assets: 100_000, sort: 'name' },
          [/^# 2 companies match/, /\| 00000001 \| ACME WIDGETS LIMITED \|/, /\| 00000003 \| GAMMA CAFE LTD \|/],
        ],
        [
          'search_people',
          { name: 'smith', birth_year: 1970 },
          [/^# People named like "smith" born 1970/, /_No one found\._/],
        ],
        [
          'get_ownership',
          { company_number: '1' },
          [/^# Ownership of ACME WIDGETS LIMITED \(00000001\)/, /_No PSC records held\._/],
        ],
        [
          'get_officers',
          { company_number: '1' },
          [/^# Officers of ACME WIDGETS LIMITED \(00000001\)/, /_No current officers are held for this company\._/],
        ],
        [
          'get_appointments',
          { officer_id: FIXTURE_OFFICER_ID },
          [
            /^# Appointments of HOPPER, Grace Brewster/,
            /\| 00000002 \| BETA BUILDERS LTD \| Active \| director \| 2021-04-01 \| current \|/,
          ],
        ],
        [
          'compare_companies',
          { company_a: '1', company_b: '00000004' },
          [/^# ACME WIDGETS LIMITED vs DELTA HOLDINGS PLC/, /\| net_assets \| £2m \| £9m \| -£7m \| 0\.222 \|/],
        ],
        ['market_stats', {}, [/^# Market statistics: 6 companies/, /\| net_assets \| 5 \|/]],
        [
          'find_triggers',
          { trigger: 'cash_rich' },
          [
            /^# Trigger cash_rich: 2 companies/,
            /\| 00000004 \| DELTA HOLDINGS PLC \|/,
            /\| 00000001 \| ACME WIDGETS LIMITED \| LEEDS \| Cash £900k, up 50% on 2023; 60% of current assets at 2024-12-31 \|/,
          ],
        ],
        [
          'recent_changes',
          { days: 30 },
          [/^# Accounts published since 2025-05-16 \(30 days\)/, /\| 2025-06-01 \| 00000005 \| EPSILON TRADING LTD \|/],
        ],
        ['watch_list', {}, [/^# Watchlist: 0 of 5 \(free plan\)/]],
        ['watch_add', { company_numbers: ['1', '2'] }, [/^# Watchlist updated/, /Added \(2\):\*\* 00000001, 00000002/]],
        [
          'watch_remove',
          { company_numbers: ['2', '00000005'] },
          [/Removed \(1\):\*\* 00000002/, /Not watched \(1\):\*\* 00000005/],
        ],
        ['webhook_create', { url: 'http://127.0.0.1:9/hook' }, [/^# Webhook endpoint wh_\S+ registered/, /`whsec_/]],
        ['webhook_list', {}, [/^# Webhook endpoints: 1 of 1 \(free plan\)/, /http:\/\/127\.0\.0\.1:9\/hook/]],
        [
          'webhook_test',
          () => ({ id: hook }),
          [/^# Test event queued for wh_/, /Delivery `msg_\S+` \(webhook\.test\)/],
        ],
        ['webhook_rotate_secret', () => ({ id: hook }), [/^# New signing secret for wh_/, /`whsec_/]],
        [
          'webhook_deliveries',
          () => ({ id: hook }),
          [/^# Deliveries to wh_\S+: the 1 most recent/, /\| webhook\.test \| pending \|/],
        ],
        ['webhook_retry_delivery', () => ({ id: hook, delivery }), [/^# Delivery msg_\S+ is due now/]],
        ['webhook_delete', () => ({ id: hook }), [/^# Webhook endpoint wh_\S+ deleted/]],
        ['get_alerts', {}, [/^# Alerts since \d{4}-\d{2}-\d{2} on 1 watched company/, /No changes\./]],
      ];
      assert.deepEqual(
        calls.map(([name]) => name),
        OPERATIONS.map((o) => o.name),
        'every tool is called',
      );
      for (const [name, args, expected] of calls) {
        const text = answerText(await callTool(client, name, typeof args === 'function' ? args() : args), name);
        for (const pattern of expected) assert.match(text, pattern, name);
        if (name === 'webhook_create') hook = /wh_[A-Za-z0-9_-]{22}/.exec(text)![0];
        if (name === 'webhook_test') delivery = /msg_[A-Za-z0-9_-]{22}/.exec(text)![0];
      }
      assert.equal(await usage(key), calls.length);
      assert.equal(calls.length, 23);
      const list = answerText(await callTool(client, 'watch_list'), 'watch_list after');
      assert.match(list, /^# Watchlist: 1 of 5 \(free plan\)/);
      assert.match(list, /00000001/);
      assert.doesNotMatch(list, /00000002/);
    });

    test('each read-only tool returns exactly the Markdown that REST gives for the same arguments', async () => {
      const client = await connectWith(await world.issueKey('pro'));
      const rest = await world.issueKey('pro');
      for (const [name, args, path] of [
        ['lookup_company', { company_number: '4' }, '/v1/company?number=4'],
        ['search_by_name', { name: 'ltd', limit: 3 }, '/v1/search-by-name?name=ltd&limit=3'],
        ['search_companies', { sic: '62' }, '/v1/search?sic=62'],
        ['search_people', { name: 'acme' }, '/v1/search-people?name=acme'],
        ['get_ownership', { company_number: '1', direction: 'up' }, '/v1/ownership?number=1&direction=up'],
        ['compare_companies', { company_a: '2', company_b: '3' }, '/v1/compare?a=2&b=3'],
        ['market_stats', { post_town: 'leeds' }, '/v1/stats?post_town=leeds'],
        ['find_triggers', { trigger: 'distress' }, '/v1/triggers?trigger=distress'],
        ['recent_changes', { days: 30, limit: 2 }, '/v1/recent-changes?days=30&limit=2'],
      ] as const) {
        const viaMcp = answerText(await callTool(client, name, args), name);
        const viaRest = await call(world, path, { key: rest });
        assert.equal(viaRest.status, 200, path);
        assert.equal(viaMcp, markdown(viaRest), name);
      }
    });

    test('every tool returns structuredContent beside the Markdown: what REST gives with format=json, valid against its outputSchema', async () => {
      const key = await world.issueKey('pro');
      const client = await connectWith(key);
      // Listed first: the SDK's Client then checks each structuredContent against the tool's outputSchema
      // itself (callTool throws on a mismatch); Ajv checks it here too, not relying on that.
      const { tools } = await client.listTools();
      const ajv = new Ajv({ strict: false, allErrors: true, formats: { date: /^\d{4}-\d{2}-\d{2}$/ } });
      const validators = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema!)]));
      const called = new Set<string>();
      const structured = async (name: string, args: Record<string, unknown>) => {
        const result = await callTool(client, name, args);
        answerText(result, name);
        assert.ok(result.structuredContent, `${name} returns structuredContent`);
        const validate = validators.get(name)!;
        assert.ok(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
        called.add(name);
        return result.structuredContent;
      };
      // The same call over REST, with format=json and the same key (so the same watchlist).
      const sameAsRest = async (name: string, args: Record<string, unknown>) =>
        assert.deepEqual(
          await structured(name, args),
          await restJson(
            world,
            key,
            OPERATIONS.find((o) => o.name === name)!,
            args,
          ),
          `${name} ${JSON.stringify(args)}`,
        );

      await sameAsRest('lookup_company', { company_number: '1' });
      await sameAsRest('lookup_company', { company_number: '6' }); // no accounts: latest null
      await sameAsRest('lookup_companies', { company_numbers: ['1', '6', '99'] });
      await sameAsRest('search_by_name', { name: 'ltd', limit: 3 });
      await sameAsRest('search_companies', { post_town: 'leeds', min_net_assets: 100_000, sort: 'name' });
      await sameAsRest('search_people', { name: 'smith', limit: 2 });
      await sameAsRest('get_ownership', { company_number: '1' });
      await sameAsRest('get_officers', { company_number: '1', include_resigned: true });
      await sameAsRest('get_officers', { company_number: '2' });
      await sameAsRest('get_appointments', { officer_id: FIXTURE_OFFICER_ID });
      await sameAsRest('compare_companies', { company_a: '1', company_b: '4' });
      await sameAsRest('market_stats', { post_town: 'leeds' });
      await sameAsRest('find_triggers', { trigger: 'cash_rich' });
      await sameAsRest('recent_changes', { days: 30, limit: 2 });
      await sameAsRest('watch_list', {});
      // The watchlist's writes answer REST in Markdown only; over MCP their lists come structured too.
      // Beside the lists, each company found as it stands now (overdue already? its risk band).
      const lists = async (args: Record<string, unknown>) => {
        const { companies, ...rest } = (await structured('watch_add', args)) as {
          companies: { company_number: string }[];
        };
        return { ...rest, now: companies.map((c) => c.company_number) };
      };
      assert.deepEqual(
        await lists({ company_numbers: ['1', '2', '99'] }),
        withEnvelope(
          {
            added: ['00000001', '00000002'],
            already_watched: [],
            not_found: ['00000099'],
            over_limit: [],
            now: ['00000001', '00000002'],
          },
          FIXTURES_AS_OF,
        ),
      );
      assert.deepEqual(
        await lists({ company_numbers: ['00000002'] }),
        withEnvelope(
          { added: [], already_watched: ['00000002'], not_found: [], over_limit: [], now: ['00000002'] },
          FIXTURES_AS_OF,
        ),
      );
      await sameAsRest('watch_list', {});
      await sameAsRest('get_alerts', {});
      assert.deepEqual(
        await structured('watch_remove', { company_numbers: ['2', '5'] }),
        withEnvelope({ removed: ['00000002'], not_watched: ['00000005'] }, FIXTURES_AS_OF),
      );
      const restAdd = await call(world, '/v1/watchlist/add?format=json', { key, body: { company_numbers: ['3'] } });
      assert.match(markdown(restAdd), /^# Watchlist updated/);
      const created = (await structured('webhook_create', { url: 'http://127.0.0.1:9/hook' })) as {
        secret: string;
      };
      assert.match(created.secret, /^whsec_/);
      await sameAsRest('webhook_list', {});
      const id = (created as unknown as { endpoint: { id: string } }).endpoint.id;
      const queued = (await structured('webhook_test', { id })) as { delivery_id: string };
      await sameAsRest('webhook_deliveries', { id });
      // Not compared with REST: each retry makes the delivery due at a new now.
      await structured('webhook_retry_delivery', { id, delivery: queued.delivery_id });
      assert.match(((await structured('webhook_rotate_secret', { id })) as { secret: string }).secret, /^whsec_/);
      assert.equal(((await structured('webhook_delete', { id })) as { deleted: boolean }).deleted, true);
      assert.deepEqual([...called].sort(), OPERATIONS.map((o) => o.name).sort(), 'every tool is called');

      // A refusal carries no structuredContent: there is no answer to describe.
      const refused = await callTool(client, 'lookup_company', { company_number: '99' });
      assert.equal(errorText(refused, 'not found'), 'Company 00000099 not found.');
      assert.equal(refused.structuredContent, undefined);
      const anonymous = await callTool(await connect(), 'watch_list');
      assert.equal(errorText(anonymous, 'no key'), MISSING_KEY);
      assert.equal(anonymous.structuredContent, undefined);
    });

    test('tools/list stays small enough for a model’s context: descriptions compact, the whole list bounded', async () => {
      const answer = await rawMcp({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/list', params: {} });
      const tools = answer.body.result.tools as Tool[];
      for (const tool of tools)
        assert.ok(tool.description!.length <= 2_000, `${tool.name}: ${tool.description!.length}`);
      // What a model reads to choose a tool: names, descriptions and argument schemas.
      const forModels = JSON.stringify(
        tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      );
      // Issue 15's five endpoint tools (test, rotate-secret, deliveries, retry, delete) add about 2,000 characters,
      // 330 to 500 each, as little as watch_list's: 32,000 became 34,000 (about 32,800 then). The per-figure
      // growth criteria of search_companies and find_triggers and get_officers took it to about 40,600, and
      // watch_add's over_limit adds about 300: about 40,900, bound 42,000.
      assert.ok(forModels.length <= 42_000, `descriptions and input schemas: ${forModels.length} characters`);
      // About 101 KB for fourteen tools (issue 14 added search_people, get_ownership and the lookups' controllers);
      // issue 15's webhook_create and webhook_list took the descriptions and input schemas past 30,000 to about 31,000;
      // its five endpoint tools add about 8 KB (mostly their outputSchemas, the delivery log's and the endpoint's
      // shapes): about 114 KB, so the bound went from 110,000 to 120,000. Figures as objects of named fields (so
      // that every required field is defined), get_alerts' severity and the watchlist's current state made it
      // about 124 KB; get_officers and the lookup's officers add about 3.5 KB: about 128 KB. The per-figure growth
      // criteria (in the input schemas of search_companies and find_triggers) and what came with them took it to
      // about 151 KB, watch_add's over_limit (input and output) about 0.5 KB more: bound 155,000. Every answer's
      // as_of (one object schema, about 640 bytes, in each of the 22 outputSchemas) made it about 160 KB:
      // bound 163,000. Estimates from scanned PDFs (each accounts entry's source kind, document id and
      // confidence, the lookup's include_estimates and pending estimate) and the MCP App's _meta on the two
      // lookups add about 4 KB, less the shorter criteria texts; officers in search_people (each person's
      // appointments, in its outputSchema), get_officers' other_appointments and a 23rd tool, get_appointments
      // (about 7 KB with its outputSchema and as_of), about 9 KB more; include_estimates and estimates_used on
      // search_companies, find_triggers and market_stats (inputs, criteria echoes and outputs) about 2.5 KB: bound
      // 183,000. identity_verification on search_people's companies and appointments and on get_appointments'
      // appointments adds about 2.7 KB (about 179 KB). A chosen toolset leaves
      // the outputSchemas out (BENCHMARKS.md), so `core` is unchanged by output fields.
      assert.ok(JSON.stringify(answer.body).length <= 183_000, `tools/list: ${JSON.stringify(answer.body).length}`);
    });

    test('bad arguments and the operation’s own refusals are tool errors with the REST texts; each counts one', async () => {
      const key = await world.issueKey('free');
      const client = await connectWith(key);
      let counted = 0;
      const refused = async (name: string, args: Record<string, unknown>) => {
        counted++;
        return errorText(await callTool(client, name, args), `${name} ${JSON.stringify(args)}`);
      };
      for (const [name, args, pattern] of [
        ['search_by_name', { name: '' }, /"name"/],
        ['search_by_name', { name: 'x'.repeat(201) }, /"name"/],
        ['search_by_name', {}, /^Missing required parameter "name"/],
        ['search_by_name', { name: 'a', limit: 0 }, /"limit"/],
        ['search_by_name', { name: 'a', limit: 101 }, /"limit"/],
        ['search_by_name', { name: 'a', limit: 2.5 }, /"limit"/],
        ['search_by_name', { name: 'a', limit: 'ten' }, /"limit": must be a number/],
        ['find_triggers', {}, /^Missing required parameter "trigger": one of cash_rich, .*young_and_funded\.$/],
        ['find_triggers', { trigger: 'lucky' }, /"trigger"/],
        ['find_triggers', { trigger: 'hiring', limit: 60 }, /"limit"/],
        ['lookup_company', {}, /^Missing required parameter "company_number"/],
        ['lookup_company', { company_number: 'ABC-123' }, /"company_number"/],
        ['compare_companies', { company_a: '1' }, /"company_b"/],
        ['search_companies', { sort: 'size' }, /"sort"/],
        ['search_companies', { min_cash: 10, max_cash: 5 }, /"min_cash"/],
        ['search_companies', { incorporated_from: '2020-02-30' }, /"incorporated_from"/],
        ['market_stats', { status: 'alive' }, /"status"/],
        ['recent_changes', { days: 91 }, /"days"/],
        ['watch_add', {}, /"company_numbers"/],
        ['watch_add', { company_numbers: [] }, /"company_numbers"/],
        ['watch_add', { company_numbers: ['3', 'no!'] }, /"company_numbers\[1\]"/],
        [
          'search_by_name',
          { name: 'acme', colour: 'red' },
          /^Unknown argument "colour"\. Accepted: name, limit, cursor\.$/,
        ],
      ] as const)
        assert.match(await refused(name, args), pattern, `${name} ${JSON.stringify(args)}`);
      assert.equal(await refused('lookup_company', { company_number: '99' }), 'Company 00000099 not found.');
      assert.equal(
        await refused('compare_companies', { company_a: '1', company_b: '7' }),
        'Company 00000007 not found.',
      );
      assert.equal(await usage(key), counted);

      // The free plan watches 5: an addition past it adds none (409 on REST) and counts one.
      answerText(await callTool(client, 'watch_add', { company_numbers: ['1', '2', '3'] }), 'watch_add 3');
      assert.equal(
        await refused('watch_add', { company_numbers: ['4', '5', '6'] }),
        'Watchlist limit of 5 companies reached for plan free.',
      );
      assert.match(
        answerText(await callTool(client, 'watch_list'), 'watch_list'),
        /^# Watchlist: 3 of 5 \(free plan\)/,
      );
      assert.equal(await usage(key), counted + 2);

      // An unknown tool is not an operation: refused with the list of tools, and not counted.
      const unknown = errorText(await callTool(client, 'lookup_person', { company_number: '1' }), 'unknown tool');
      assert.match(unknown, /^Unknown tool "lookup_person"\. Tools: lookup_company, lookup_companies, search_by_name/);
      assert.equal(await usage(key), counted + 2);
    });

    test('quota: the 50th call of a free key answers, the 51st is refused with the reset date and not counted', async () => {
      const key = await world.issueKey('free');
      const { id } = await keyRecord(key);
      for (let i = 0; i < 49; i++) assert.equal(await world.keys.consumeRequest(id, MONTH, 50), i + 1);
      const client = await connectWith(key);
      const last = answerText(await callTool(client, 'lookup_company', { company_number: '1' }), '50th');
      assert.match(last, /^# ACME WIDGETS LIMITED/);
      assert.equal(await usage(key), 50);
      for (const [name, args] of [
        ['lookup_company', { company_number: '1' }],
        ['search_by_name', { name: '' }],
      ] as const) {
        const text = errorText(await callTool(client, name, args), `51st: ${name}`);
        assert.ok(text.startsWith('Monthly quota exceeded'), text);
        assert.ok(text.includes('2025-07-01T00:00:00Z'), text);
      }
      assert.equal(await usage(key), 50);
      // Listing the tools still works and costs nothing.
      assert.equal((await client.listTools()).tools.length, OPERATIONS.length);
      // The next month starts afresh.
      world.setNow(new Date('2025-07-01T00:00:01Z'));
      try {
        answerText(await callTool(client, 'lookup_company', { company_number: '1' }), 'July');
      } finally {
        world.setNow(NOW);
      }
      assert.equal(await usage(key), 50);
      assert.equal((await world.keys.listKeys('2025-07', keyPrefix(key)))[0]!.used, 1);
    });

    test('quota: of N concurrent tool calls with R requests left, exactly min(N, R) answer', async () => {
      const key = await world.issueKey('free');
      const { id } = await keyRecord(key);
      for (let i = 0; i < 47; i++) await world.keys.consumeRequest(id, MONTH, 50);
      const client = await connectWith(key);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => callTool(client, 'search_by_name', { name: 'gamma' })),
      );
      const answered = results.filter((r) => !r.isError);
      const refused = results.filter((r) => r.isError);
      assert.equal(answered.length, 3);
      for (const r of answered) assert.match(answerText(r, 'answered'), /GAMMA CAFE LTD/);
      for (const r of refused) assert.match(errorText(r, 'refused'), /^Monthly quota exceeded/);
      assert.equal(await usage(key), 50);
    });

    test('servers are reused across requests: interleaved callers each get their own answers and counts', async () => {
      const [first, second] = [await world.issueKey('free'), await world.issueKey('free')];
      const [a, b, anonymous] = [await connectWith(first), await connectWith(second), await connect()];
      answerText(await callTool(a, 'watch_add', { company_numbers: ['1'] }), 'first adds');
      answerText(await callTool(b, 'watch_add', { company_numbers: ['2'] }), 'second adds');
      const rounds = Array.from({ length: 8 }, () => [
        callTool(a, 'watch_list'),
        callTool(b, 'watch_list'),
        callTool(anonymous, 'watch_list'),
      ]);
      for (const [ofFirst, ofSecond, ofNobody] of await Promise.all(rounds.map((round) => Promise.all(round)))) {
        const listed = [answerText(ofFirst!, 'first'), answerText(ofSecond!, 'second')];
        assert.match(listed[0]!, /00000001/);
        assert.doesNotMatch(listed[0]!, /00000002/);
        assert.match(listed[1]!, /00000002/);
        assert.doesNotMatch(listed[1]!, /00000001/);
        assert.equal(errorText(ofNobody!, 'anonymous'), MISSING_KEY);
      }
      assert.deepEqual([await usage(first), await usage(second)], [9, 9]);
    });

    test('the HTTP answer to a counted tools/call carries the quota headers; others do not', async () => {
      const key = await world.issueKey('pro');
      const first = await rawMcp(toolsCall('lookup_company', { company_number: '1' }), key);
      assert.equal(first.status, 200);
      assert.match(first.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(first.body.jsonrpc, '2.0');
      assert.equal(first.body.id, rpcId);
      assert.match(first.body.result.content[0].text, /^# ACME WIDGETS LIMITED \(00000001\)/);
      assert.deepEqual(
        ['limit', 'remaining', 'reset'].map((h) => first.headers.get(`x-ratelimit-${h}`)),
        ['5000', '4999', RESET],
      );
      // A refusal by the operation counts, and says so in the headers, as a REST 400 or 404 does.
      const bad = await rawMcp(toolsCall('lookup_company', { company_number: '99' }), key);
      assert.equal(bad.body.result.isError, true);
      assert.equal(bad.headers.get('x-ratelimit-remaining'), '4998');
      assert.equal(await usage(key), 2);

      const list = await rawMcp({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/list', params: {} }, key);
      assert.equal(list.status, 200);
      assert.equal(list.body.result.tools.length, OPERATIONS.length);
      assert.equal(list.headers.get('x-ratelimit-limit'), null);
      const init = await rawMcp(
        {
          jsonrpc: '2.0',
          id: ++rpcId,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        },
        key,
      );
      assert.equal(init.status, 200);
      assert.equal(init.body.result.serverInfo.name, 'ukcd');
      assert.equal(init.headers.get('x-ratelimit-limit'), null);
      assert.equal(await usage(key), 2);

      const anonymous = await rawMcp(toolsCall('lookup_company', { company_number: '1' }));
      assert.equal(anonymous.status, 200);
      assert.deepEqual(anonymous.body.result, { isError: true, content: [{ type: 'text', text: MISSING_KEY }] });
      assert.equal(anonymous.headers.get('x-ratelimit-limit'), null);
    });

    test('raw HTTP: GET and DELETE /mcp are 405; a body over 64 KiB is 413 and not counted', async () => {
      for (const method of ['GET', 'DELETE']) {
        const answer = await call(world, '/mcp', { method, headers: { accept: 'text/event-stream' } });
        assert.equal(answer.status, 405, method);
        assert.equal(answer.headers.get('allow'), 'POST', method);
      }
      const key = await world.issueKey('pro');
      const big = await rawMcp(
        toolsCall('watch_add', { company_numbers: ['00000001'], padding: 'x'.repeat(70 * 1024) }),
        key,
      );
      assert.equal(big.status, 413);
      assert.match(big.body.error, /64 KiB/);
      const notJson = await rawMcp('{"jsonrpc":', key);
      assert.equal(notJson.status, 400);
      assert.equal(await usage(key), 0);
      const client = await connectWith(key);
      assert.match(answerText(await callTool(client, 'watch_list'), 'watch_list'), /^# Watchlist: 0 of 50/);
    });

    test('the three surfaces list the same operations: MCP tools, REST operationIds, the operation table', async () => {
      const { tools } = await (await connect()).listTools();
      const doc = await call(world, '/openapi.json');
      assert.equal(doc.status, 200);
      const restOperations = Object.entries(
        doc.body.paths as Record<string, Record<string, { operationId: string }>>,
      ).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ id: operation.operationId, method, path })),
      );
      const sorted = (names: Iterable<string>) => [...names].sort();
      const table = sorted(OPERATIONS.map((o) => o.name));
      assert.deepEqual(sorted(tools.map((t) => t.name)), table);
      assert.deepEqual(sorted(restOperations.map((o) => o.id).filter((id) => id !== 'create_free_key')), table);
      for (const operation of OPERATIONS) {
        const rest = restOperations.find((o) => o.id === operation.name);
        assert.deepEqual(
          [rest?.method, rest?.path],
          [operation.http.method.toLowerCase(), operation.http.path],
          operation.name,
        );
      }
    });
  });
}
