/**
 * Elasticsearch up but its shards not ready (a node starting, recovering, or an index whose
 * primary cannot be allocated) answers searches with "all shards failed": that is search being
 * unavailable, not a fault of ours. The adapter says so with the port's error, whichever method
 * met it, and the API answers 503 with Retry-After, uncounted. Reproduced here on the real
 * Elasticsearch with an index whose primary shard may only live on a node that does not exist.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPgPeopleIndex } from '../../src/adapters/pg-search/pg-people-index.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import { generateApiKey, hashApiKey, keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { AppError } from '../../src/errors.ts';
import { buildApp } from '../../src/app/app.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { AS_OF } from '../support/search-fixtures.ts';
import { testWebhookDeps } from '../support/webhook-deps.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';

const alias = `companies_unallocated_${process.pid}`;
let client: Client;
let index: SearchIndex;

before(async () => {
  client = new Client({ node: elasticsearchUrl() });
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await client.indices.create({
    index: `${alias}_v1`,
    settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'nowhere' },
    aliases: { [alias]: {} },
    wait_for_active_shards: 0,
  });
  index = createEsSearchIndex({ client, alias });
});
after(async () => {
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await client.close();
});

const unavailable = (error: unknown) => {
  assert.ok(error instanceof AppError, `an AppError, not ${String(error)}`);
  assert.equal(error.code, 'UPSTREAM_UNAVAILABLE');
  assert.equal(error.headers['Retry-After'], '5');
  return true;
};

describe('the adapter, on an index whose shards are not ready', () => {
  const query = {
    filters: { status: 'active' as const },
    sort: { field: 'net_assets' as const, descending: true },
    limit: 10,
    asOf: AS_OF,
  };
  test('name search', () => assert.rejects(index.searchByName('tesco', 10), unavailable));
  test('name search by tiers', () =>
    assert.rejects(createEsSearchIndex({ client, alias, scoredNameSearchUpTo: 0 }).searchByName('t', 10), unavailable));
  test('criteria search', () => assert.rejects(index.findCompanies(query), unavailable));
  test('triggers', () => assert.rejects(index.findCompanies({ ...query, trigger: 'cash_rich' }), unavailable));
  test('stats', () => assert.rejects(index.stats({ status: 'any' }, AS_OF), unavailable));
  test('count (readiness)', () => assert.rejects(index.count(), unavailable));
});

describe('the API, on an index whose shards are not ready', () => {
  let sql: Sql;
  let url: string;
  let key: string;
  let close: () => Promise<void>;
  before(async () => {
    sql = await createPgliteSql();
    await migrate(sql);
    const keys = createKeyStore(sql);
    key = generateApiKey();
    await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan: 'pro', email: null, clientIp: null });
    const app = buildApp({
      store: createCompanyStore(sql),
      search: index,
      keys,
      watchlists: createWatchlistStore(sql),
      ownership: createOwnershipReader(sql),
      officers: createOfficerStore(sql),
      pdfEstimates: createPdfEstimateStore(sql),
      people: createPgPeopleIndex(sql),
      streams: createStreamLedger(sql),
      webhooks: testWebhookDeps(sql),
      log: () => {},
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((ready) => server.once('listening', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await sql.close();
    };
  });
  after(async () => close());

  test('every search answers 503 with Retry-After, and none is counted', async () => {
    for (const path of [
      '/v1/search-by-name?name=tesco&format=json',
      '/v1/search?format=json',
      '/v1/triggers?trigger=cash_rich&format=json',
      '/v1/stats?format=json',
    ]) {
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await response.json()) as { error: string };
      assert.equal(response.status, 503, `${path}: ${JSON.stringify(body)}`);
      assert.equal(response.headers.get('retry-after'), '5', path);
      assert.match(body.error, /^Search is unavailable right now/, path);
    }
    const [record] = await createKeyStore(sql).listKeys(usageMonth(new Date()), keyPrefix(key));
    assert.equal(record?.used, 0, 'the 503s were not counted against the quota');
  });
});
