/**
 * Every operation's answer is exactly what its output schema (src/operations/outputs.ts) says, on
 * the end-to-end fixtures, on the embedded default and on PostgreSQL with Elasticsearch: `run`'s
 * result parses with the zod schema and loses nothing in parsing (no key the schema does not
 * name), and its JSON, with the envelope, validates against the JSON Schema MCP clients are given
 * as the tool's outputSchema. A table of calls, at least one per operation, covering the shapes
 * that vary: a company with and without accounts, every trigger, an empty and a full watchlist,
 * alerts with values.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { TRIGGERS } from '../../src/domain/triggers.ts';
import { parseInput } from '../../src/call/input.ts';
import { outputSchemaOf } from '../../src/mcp/server.ts';
import { withEnvelope } from '../../src/operations/envelope.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import type { CallContext, OperationDeps } from '../../src/operations/operation.ts';
import { companies, FIXTURES_AS_OF, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { addFixtureOfficer, FIXTURE_OFFICER_ID } from '../support/officer-records.ts';
import { corporatePsc, individualPsc } from '../support/psc-records.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

/** Stands for an id made by an earlier call: the endpoint webhook_create made, the delivery webhook_test queued. */
const MADE = Symbol('made earlier');

/** In order: the watchlist calls build on each other (add, list, alerts after a change, remove). */
const CALLS: readonly [name: string, args: Record<string, unknown>][] = [
  ['lookup_company', { company_number: '1' }],
  ['lookup_company', { company_number: '6' }], // no accounts: latest null, trajectory insufficient
  ['lookup_company', { company_number: '3', include_ceased: true }], // a corporate PSC on the register
  ['lookup_companies', { company_numbers: ['1', '6', '99'] }],
  ['search_by_name', { name: 'ltd', limit: 3 }],
  ['search_by_name', { name: 'nothing like it' }],
  ['search_companies', {}],
  ['search_people', { name: 'doe' }],
  ['search_people', { name: 'jane doe', birth_year: 1975, birth_month: 3, limit: 1 }],
  ['get_ownership', { company_number: '3' }], // up to DOE HOLDINGS LIMITED (00000004), then none
  ['get_ownership', { company_number: '4', direction: 'down', depth: 1 }],
  ['get_ownership', { company_number: '6' }], // no PSC records
  ['get_officers', { company_number: '1' }], // none held
  ['get_officers', { company_number: '1', include_resigned: true }],
  ['search_people', { name: 'doe', role: 'psc' }],
  ['search_people', { name: 'grace hopper' }], // an officer only: appointments, no companies
  ['get_officers', { company_number: '2', include_resigned: true }],
  ['get_appointments', { officer_id: FIXTURE_OFFICER_ID }],
  [
    'search_companies',
    {
      status: 'any',
      type: 'ltd',
      sic: '6',
      post_town: 'leeds',
      incorporated_from: '2000-01-01',
      incorporated_to: '2025-01-01',
      min_net_assets: 1,
      max_cash: 10_000_000,
      size: 'medium',
      risk_band: 'low',
      signal: 'cash_rich',
      sort: 'name',
      limit: 5,
    },
  ],
  ['compare_companies', { company_a: '1', company_b: '6' }],
  ['market_stats', {}],
  ['market_stats', { post_town: 'leeds', type: 'plc', incorporated_from: '2010-01-01' }],
  ...TRIGGERS.map((trigger): [string, Record<string, unknown>] => ['find_triggers', { trigger }]),
  ['find_triggers', { trigger: 'distress', post_town: 'manchester', limit: 1 }],
  ['recent_changes', {}],
  ['recent_changes', { days: 30, limit: 2 }],
  ['watch_list', {}],
  ['get_alerts', {}],
  ['watch_add', { company_numbers: ['2', '5', '99'] }],
  ['watch_add', { company_numbers: ['2'] }],
  ['watch_list', {}],
  ['get_alerts', {}], // after the register changes (see below): alerts with from and to
  ['watch_remove', { company_numbers: ['5', '4'] }],
  ['webhook_create', { url: 'http://127.0.0.1:9/hook', events: ['alert.status_change'] }],
  ['webhook_list', {}],
  // The endpoint just created, and the delivery webhook_test queues (filled in as they are made).
  ['webhook_test', { id: MADE }],
  ['webhook_deliveries', { id: MADE }],
  ['webhook_retry_delivery', { id: MADE, delivery: MADE }],
  ['webhook_rotate_secret', { id: MADE }],
  ['webhook_delete', { id: MADE }],
];

for (const setup of setups) {
  describe(`output schemas on ${setup.name}`, () => {
    let world: World;
    let deps: OperationDeps;
    let context: CallContext;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      const jane = { forename: 'Jane', surname: 'Doe', birthYear: 1975, birthMonth: 3 };
      await world.pscs.upsertPscs(
        [
          individualPsc('00000001', jane),
          individualPsc('00000002', jane, { ceased: true, ceased_on: '2024-05-01' }),
          corporatePsc('00000003', { name: 'DOE HOLDINGS LIMITED', registeredNumber: '00000004' }),
          corporatePsc('77777777', { name: 'DOE OVERSEAS INC', country: 'Jersey' }),
        ],
        '2025-01-01',
      );
      await loadFixtures(world);
      await addFixtureOfficer(world.sql);
      await world.reindex();
      deps = world.deps;
      const key = await world.issueKey('free');
      const [record] = await world.keys.listKeys(usageMonth(NOW), keyPrefix(key));
      context = { keyId: record!.id, plan: 'free', today: NOW.toISOString().slice(0, 10), now: NOW };
    });
    after(() => world.close());

    test('the table calls every operation', () => {
      assert.deepEqual(new Set(CALLS.map(([name]) => name)), new Set(OPERATIONS.map((o) => o.name)));
    });

    test('each answer parses with its output schema, losing nothing, and validates as the tool’s outputSchema', async () => {
      const ajv = new Ajv({ strict: false, allErrors: true, formats: { date: /^\d{4}-\d{2}-\d{2}$/ } });
      const validators = new Map(OPERATIONS.map((o) => [o.name, ajv.compile(outputSchemaOf(o))]));
      let alertsSeen = 0;
      const made: Record<string, string> = {};
      for (const [index, [name, given]] of CALLS.entries()) {
        const args = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === MADE ? made[k] : v]));
        const label = `${name} ${JSON.stringify(args)}`;
        if (name === 'get_alerts' && index > CALLS.findIndex(([n]) => n === 'watch_add')) {
          // A watched company goes into liquidation and its accounts fall overdue.
          await world.loadRegister(
            [{ ...companies.find((c) => c.number === '00000002')!, status: 'Liquidation', nextDue: '2025-05-01' }],
            '2025-06-01',
          );
        }
        const operation = OPERATIONS.find((o) => o.name === name)!;
        const result = await operation.run(
          deps,
          parseInput(operation, args, (key) => key),
          context,
        );
        // As it travels: JSON, where an undefined key is no key.
        const json = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
        const parsed = operation.output.safeParse(json);
        assert.ok(parsed.success, `${label}: ${parsed.error?.message}`);
        assert.deepEqual(parsed.data, json, `${label}: the schema names every key`);
        const validate = validators.get(name)!;
        assert.ok(validate(withEnvelope(json, FIXTURES_AS_OF)), `${label}: ${ajv.errorsText(validate.errors)}`);
        if (name === 'get_alerts') alertsSeen += (json.alerts as unknown[]).length;
        if (name === 'webhook_create') made.id = (json.endpoint as { id: string }).id;
        if (name === 'webhook_test') made.delivery = json.delivery_id as string;
      }
      assert.ok(alertsSeen > 0, 'some alerts were checked');
    });

    test('a key the schema does not name, or a value of the wrong type, fails the outputSchema', () => {
      const ajv = new Ajv({ strict: false, formats: { date: /^\d{4}-\d{2}-\d{2}$/ } });
      const watchAdd = OPERATIONS.find((o) => o.name === 'watch_add')!;
      const validate = ajv.compile(outputSchemaOf(watchAdd));
      const good = withEnvelope(
        {
          added: ['00000001'],
          already_watched: [],
          not_found: [],
          over_limit: [],
          companies: [
            {
              company_number: '00000001',
              name: 'ACME LIMITED',
              status: 'Active',
              accounts_next_due: '2025-03-31',
              accounts_overdue: true,
              risk_band: 'medium',
            },
          ],
        },
        FIXTURES_AS_OF,
      );
      assert.ok(validate(good));
      assert.ok(!validate({ ...good, extra: 1 }));
      assert.ok(!validate({ ...good, added: [1] }));
      assert.ok(!validate({ ...good, source: 'elsewhere' }));
      const { note: _note, ...withoutNote } = good;
      assert.ok(!validate(withoutNote));
    });
  });
}
