/**
 * While following the streams, the search indexes are brought up to date with what the streams
 * applied: a company's status change on the companies stream is found by search_companies with the
 * new status and by its new name; an appointment on the officers stream is found by search_people.
 * The follower is the one `ukcd start` and `ukcd follow` run (followStreams), on the embedded
 * store with the Postgres search, and on PostgreSQL with the Postgres search and with Elasticsearch.
 * With Elasticsearch not answering, each run fails, says so in the log, and the follower goes on.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createPeopleSource } from '../../src/adapters/postgres/people-source.ts';
import { createHttpMetrics } from '../../src/app/metrics.ts';
import { followStreams } from '../../src/composition/follow-streams.ts';
import { loadConfig } from '../../src/config.ts';
import type { Follower } from '../../src/follow/follower.ts';
import { call, NOW } from '../support/api-fixtures.ts';
import { startWorld } from '../support/api-world.ts';
import type { World } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { parsePrometheusText, valueOf } from '../support/prometheus-text.ts';
import { startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { companyEvent, waitFor } from '../support/stream-world.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL, Postgres search', store: testStores[1]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const ACME = '01234567';
const OFFICERS_LINE = readFileSync(join(import.meta.dirname, '../support/streams/officers.jsonl'), 'utf8').split(
  '\n',
)[0]!;

/** The follower as followStreams builds it, on the world's store and search indexes. */
function follow(world: World, server: FakeStreamServer, env: Record<string, string>, log: string[]) {
  const metrics = createHttpMetrics({ store: world.store });
  const config = loadConfig({
    CH_STREAM_KEY: 'k',
    CH_STREAM_URL: server.url,
    CH_STREAMS: 'companies,officers',
    UKCD_STREAM_INDEX_SECONDS: '1',
    ...world.searchEnv,
    ...env,
  });
  const opened = {
    sql: world.sql,
    store: world.store,
    ownership: world.ownership,
    alertDetections: createAlertDetectionStore(world.sql),
    peopleSource: createPeopleSource(world.sql),
  };
  const follower = followStreams(config, opened, { log: (line) => log.push(line), observer: metrics.streams })!;
  return { follower, metrics };
}

for (const setup of setups) {
  describe(`${setup.name}: stream changes reach search`, () => {
    let world: World;
    let server: FakeStreamServer;
    let follower: Follower;
    let metrics: ReturnType<typeof createHttpMetrics>;
    let key: string;
    const log: string[] = [];

    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await world.loadRegister([{ number: ACME, name: 'ACME WIDGETS LIMITED', status: 'Active' }], '2026-11-01');
      key = await world.issueKey('pro');
      server = await startFakeStreamServer({ key: 'k' });
      ({ follower, metrics } = follow(world, server, {}, log));
      await waitFor('the follower to connect', async () => server.connected('companies') > 0);
    });
    after(async () => {
      await follower.stop();
      await server.close();
      await world.close();
    });

    const numbers = async (path: string) => {
      const answer = await call(world, path, { key });
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
      return (answer.body.results as { company_number: string }[]).map((r) => r.company_number);
    };

    test('a status change and a new name on the companies stream are found by search and name search', async () => {
      assert.deepEqual(await numbers('/v1/search?format=json&status=liquidation'), []);
      server.publish('companies', [
        companyEvent(5, '2026-11-27T09:00:00', ACME, {
          company_name: 'ACME GADGETS LIMITED',
          company_status: 'liquidation',
        }),
      ]);
      await waitFor('search_companies to find it in liquidation', async () =>
        (await numbers('/v1/search?format=json&status=liquidation')).includes(ACME),
      );
      assert.deepEqual(await numbers('/v1/search-by-name?format=json&name=ACME%20GADGETS'), [ACME]);
      assert.deepEqual(await numbers('/v1/search?format=json&status=active'), []);
      // The people index follows the companies index in the same run: the run has ended once it says when.
      await waitFor('/metrics to say when the indexes were brought up to date', async () => {
        const scraped = parsePrometheusText(await metrics.registry.metrics());
        return (valueOf(scraped, 'ukcd_stream_index_updated_timestamp_seconds') ?? 0) > Date.now() / 1000 - 60;
      });
    });

    test('an appointment on the officers stream is found by search_people', async () => {
      await waitFor('the follower to connect to officers', async () => server.connected('officers') > 0);
      server.publish('officers', [OFFICERS_LINE]);
      await waitFor('search_people to find the officer', async () => {
        const answer = await call(world, '/v1/search-people?format=json&name=Grace%20Hopper', { key });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return JSON.stringify(answer.body).includes('09123456');
      });
    });
  });
}

describe('Elasticsearch not answering: the index runs fail, the follower goes on', () => {
  let world: World;
  let server: FakeStreamServer;
  let follower: Follower;
  let metrics: ReturnType<typeof createHttpMetrics>;
  const log: string[] = [];

  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    server = await startFakeStreamServer({ key: 'k' });
    // Port 9 (discard) on loopback: nothing listens, every connection is refused.
    ({ follower, metrics } = follow(world, server, { ELASTICSEARCH_URL: 'http://127.0.0.1:9' }, log));
    await waitFor('the follower to connect', async () => server.connected('companies') > 0);
  });
  after(async () => {
    await follower.stop();
    await server.close();
    await world.close();
  });

  test('each batch is applied, the failure is logged and counted, and tried again', async () => {
    server.publish('companies', [companyEvent(5, '2026-11-27T09:00:00', ACME)]);
    await waitFor('a failed run logged', async () =>
      log.some((line) => line.startsWith('streams: search indexes not brought up to date')),
    );
    server.publish('companies', [companyEvent(6, '2026-11-27T09:01:00', '07654321')]);
    await waitFor('the next event applied', async () => (await world.store.getCompanies(['07654321'])).length === 1);
    await waitFor('a second failed run', async () => {
      const scraped = parsePrometheusText(await metrics.registry.metrics());
      return (valueOf(scraped, 'ukcd_stream_index_failures_total') ?? 0) >= 2;
    });
    const scraped = parsePrometheusText(await metrics.registry.metrics());
    assert.ok((valueOf(scraped, 'ukcd_stream_index_lag_seconds') ?? 0) > 0);
  });
});
