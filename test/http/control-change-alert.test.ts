/**
 * control_change end to end, on the embedded default (PGlite with the Postgres search) and on a real
 * PostgreSQL with a real Elasticsearch: companies are watched over HTTP (their PSC registers
 * snapshotted), a later PSC snapshot is stored as the PSC loader stores one (upsertPscs, then
 * markMissingCeased for a complete snapshot), and get_alerts reports who was notified and who
 * ceased, over REST and MCP. The operations read the PSCs in one query each (counted on the reader).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { hashApiKey } from '../../src/domain/api-keys.ts';
import { getAlerts, watchAdd } from '../../src/operations/watchlist.ts';
import type { CallContext, OperationDeps } from '../../src/operations/operation.ts';
import type { OwnershipReader } from '../../src/ports/ownership.ts';
import { call, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const ADA = { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 };
const GRACE = { forename: 'Grace', surname: 'Hopper', birthYear: 1966, birthMonth: 12 };
const NO_PSC = 'no-individual-or-entity-with-signficant-control';

/** The PSC register before the companies are watched (NOW is 2025-06-15). */
const FIRST_SNAPSHOT = '2025-06-01';
const firstPscs = [
  individualPsc('00000001', ADA),
  corporatePsc('00000001', { name: 'DELTA HOLDINGS PLC', registeredNumber: '00000004' }),
  pscStatement('00000002', NO_PSC),
  individualPsc('00000005', GRACE),
];

/**
 * A month later, complete: ACME's parent is gone (not listed) and a new owner notified; BETA's
 * statement is withdrawn as Grace Hopper is notified; GAMMA, which had no PSC on file when watched,
 * gets one (nothing to compare: no alert); EPSILON is as it was.
 */
const LATER_SNAPSHOT = '2025-07-01';
const laterPscs = [
  individualPsc('00000001', ADA),
  corporatePsc(
    '00000001',
    { name: 'NEW OWNER LIMITED', country: 'Jersey' },
    { notified_on: '2025-06-20', content_hash: 'new-owner' },
  ),
  pscStatement('00000002', NO_PSC, { ceased: true, ceased_on: '2025-06-25', content_hash: 'withdrawn' }),
  individualPsc('00000002', GRACE, { notified_on: '2025-06-25' }),
  individualPsc('00000003', ADA, { notified_on: '2025-06-28' }),
  individualPsc('00000005', GRACE),
];

const expected = [
  {
    company_number: '00000001',
    name: 'ACME WIDGETS LIMITED',
    kind: 'control_change',
    severity: 'medium',
    message:
      'Persons with significant control changed: notified NEW OWNER LIMITED (2025-06-20); ceased DELTA HOLDINGS PLC.',
    // The parent has no ceased date: the complete snapshot that no longer listed it marked it.
    detected: LATER_SNAPSHOT,
    from: 'DELTA HOLDINGS PLC; Mr Ada Lovelace',
    to: 'NEW OWNER LIMITED; Mr Ada Lovelace',
  },
  {
    company_number: '00000002',
    name: 'BETA BUILDERS LTD',
    kind: 'control_change',
    severity: 'medium',
    message: `Persons with significant control changed: notified Mr Grace Hopper (2025-06-25); ceased statement ${NO_PSC} (2025-06-25).`,
    detected: '2025-06-25',
    from: `statement ${NO_PSC}`,
    to: 'Mr Grace Hopper',
  },
];

/** The reader the operations get, counting its calls (the real one does the work). */
function countingReader(reader: OwnershipReader): { reader: OwnershipReader; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    reader: {
      ...reader,
      currentPscsOf: (numbers) => (calls.push(`currentPscsOf ${numbers.length}`), reader.currentPscsOf(numbers)),
      pscsOf: (number, ceased) => (calls.push(`pscsOf ${number}`), reader.pscsOf(number, ceased)),
    },
  };
}

for (const setup of setups) {
  describe(`control_change on ${setup.name}`, () => {
    let world: World;
    let key: string;

    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.pscs.upsertPscs(firstPscs, FIRST_SNAPSHOT);
      await world.pscs.markMissingCeased(FIRST_SNAPSHOT);
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    test('watched companies keep their PSC sets; nothing changed, no alert', async () => {
      const added = await call(world, '/v1/watchlist/add', {
        key,
        body: { company_numbers: ['00000001', '00000002', '00000003', '00000005'] },
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      const body = (await call(world, '/v1/alerts?format=json', { key })).body;
      assert.deepEqual(body.alerts, []);
    });

    test('a later complete PSC snapshot: who was notified and who ceased, per company, over REST', async () => {
      await world.pscs.upsertPscs(laterPscs, LATER_SNAPSHOT);
      assert.equal(await world.pscs.markMissingCeased(LATER_SNAPSHOT), 1);
      world.setNow(new Date('2025-07-05T10:00:00Z'));

      const answer = await call(world, '/v1/alerts?format=json', { key });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.alerts, expected);
      assert.deepEqual(
        (await call(world, '/v1/alerts?format=json&since=2025-06-30', { key })).body.alerts,
        expected.filter((a) => a.detected >= '2025-06-30'),
      );
      assert.deepEqual((await call(world, '/v1/alerts?format=json&severity=high', { key })).body.alerts, []);
      const rows = markdown(await call(world, '/v1/alerts', { key }))
        .split('\n')
        .filter((line) => /^\| medium \|/.test(line));
      assert.deepEqual(
        rows,
        expected.map(
          (a) => `| medium | ${a.company_number} | ${a.name} | control_change | ${a.message} | ${a.detected} |`,
        ),
      );
    });

    test('the same over MCP, structured and in Markdown', async () => {
      const client = await connectMcp(world.url, key);
      try {
        const result = (await client.callTool({
          name: 'get_alerts',
          arguments: { severity: 'medium' },
        })) as CallToolResult;
        assert.equal(result.isError, undefined);
        assert.deepEqual((result.structuredContent as { alerts: unknown[] }).alerts, expected);
        assert.match(
          (result.content[0] as { text: string }).text,
          /\| control_change \| Persons with significant control changed: notified NEW OWNER LIMITED/,
        );
      } finally {
        await client.close();
      }
    });

    test('watch_add reads the PSCs of every company added in one query; get_alerts in one, plus one per company with a PSC ceased', async () => {
      const { reader, calls } = countingReader(world.ownership);
      const deps: OperationDeps = { ...world.deps, ownership: reader };
      const context: CallContext = {
        keyId: await keyIdOf(world, await world.issueKey('pro')),
        plan: 'pro',
        today: '2025-07-05',
        now: new Date('2025-07-05T10:00:00Z'),
      };
      await watchAdd.run(
        deps,
        { company_numbers: ['00000001', '00000002', '00000005', '00000006'], over_limit: 'refuse' },
        context,
      );
      assert.deepEqual(calls.splice(0), ['currentPscsOf 4']);
      assert.deepEqual((await getAlerts.run(deps, { severity: 'info' }, context)).alerts, []);
      assert.deepEqual(calls.splice(0), ['currentPscsOf 3']);
      // On the first key's list ACME's parent ceased since its snapshot: its ceased records are read.
      await getAlerts.run(deps, { severity: 'info' }, { ...context, keyId: await keyIdOf(world, key) });
      assert.deepEqual(calls.splice(0), ['currentPscsOf 3', 'pscsOf 00000001', 'pscsOf 00000002']);
    });
  });
}

async function keyIdOf(world: World, key: string): Promise<number> {
  const record = await world.keys.findByHash(hashApiKey(key));
  assert.ok(record, 'the key was issued');
  return record.id;
}
