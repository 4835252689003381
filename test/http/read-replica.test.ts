/**
 * The service with a read replica (DATABASE_READ_URL): a real primary and a real streaming hot
 * standby of it, servers of their own. Lookups and Postgres search read the standby; keys, quotas
 * and watchlists write the primary (a standby refuses writes, so a counted lookup proves it); with
 * the standby stopped, reads answer 503 while the primary's work goes on, and /readyz says which.
 */
// run-tests: alone (it starts, stops and restarts a primary and a standby of its own).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { indexSearch } from '../../loaders/index-search.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import { loadConfig } from '../../src/config.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../../src/domain/api-keys.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { replicaPair } from '../support/outage-servers.ts';
import { company, filing } from '../support/store-records.ts';
import type { Service } from '../support/ukcd-start.ts';
import { startService } from '../support/ukcd-start.ts';

const quiet = () => {};

describe('a read replica', { concurrency: false, timeout: 600_000 }, () => {
  let work: string;
  let primary: Sql;
  let standbyUrl: string;
  let service: Service;
  let key: string;

  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${service.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, text, body: text.startsWith('{') ? JSON.parse(text) : null };
  };
  const usage = async () =>
    (await primary.query<{ n: number }>('SELECT coalesce(sum(used), 0)::int AS n FROM api_usage')).rows[0]!.n;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'ukcd-replica-'));
    const servers = await replicaPair.start();
    standbyUrl = servers.standby;
    primary = createPgSql({ connectionString: servers.primary });
    await migrate(primary);
    const store = createCompanyStore(primary);
    await store.upsertCompanies(
      [company('00000001', { name: 'REPLICATED WIDGETS LIMITED' }), company('00000002'), company('00000003')],
      '2024-06-01',
    );
    await store.saveFilings(
      [filing('00000001', 'Accounts_Bulk_Data-2024-02-01.zip', 'a.html', '2023-12-31', 5_000)],
      [],
    );
    await indexSearch(
      store,
      { index: createPgSearchIndex(primary), target: 'postgres:company_search' },
      { log: quiet },
    );
    key = generateApiKey();
    await createKeyStore(primary).createKey({
      hash: hashApiKey(key),
      prefix: keyPrefix(key),
      plan: 'pro',
      email: null,
      clientIp: null,
    });
    service = await startService({
      DATABASE_URL: servers.primary,
      DATABASE_READ_URL: standbyUrl,
      ELASTICSEARCH_URL: '',
      PORT: '0',
      DATA_DIR: work,
      DATABASE_TIMEOUT_MS: '2000',
    });
  });

  after(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await primary?.close();
    await replicaPair.remove();
    await rm(work, { recursive: true, force: true });
  });

  test('reads come from the standby, counts and watchlists go to the primary', async () => {
    assert.match(service.output.join(''), /reads: 127\.0\.0\.1:54350 \(read replica\)/);
    const before = await usage();
    const lookup = await call('/v1/company?number=00000001&format=json');
    assert.equal(lookup.status, 200, lookup.text);
    assert.equal(lookup.body.company.name, 'REPLICATED WIDGETS LIMITED');
    assert.equal((await usage()) - before, 1, 'the lookup was counted on the primary');

    const found = await call('/v1/search-by-name?name=replicated%20widgets&format=json');
    assert.equal(found.status, 200, found.text);
    assert.equal(found.body.results[0]?.company_number, '00000001');

    const added = await call('/v1/watchlist/add', { method: 'POST', body: '{"company_numbers":["00000002"]}' });
    assert.equal(added.status, 200, added.text);

    const ready = await call('/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual([ready.body.store, ready.body.replica], [{ ok: true }, { ok: true }]);
  });

  test('what the primary changes reaches the service through the standby', async () => {
    await createCompanyStore(primary).upsertCompanies(
      [company('00000004', { name: 'STREAMED LATER LIMITED' })],
      '2024-06-01',
    );
    let status = 0;
    for (let tries = 0; tries < 40 && status !== 200; tries++) {
      status = (await call('/v1/company?number=00000004&format=json')).status;
      if (status !== 200) await sleep(250);
    }
    assert.equal(status, 200);
  });

  test('standby down: reads answer 503, the primary’s work goes on, /readyz names the replica; back by itself', async () => {
    await replicaPair.stopStandby();
    const lookup = await call('/v1/company?number=00000001&format=json');
    assert.equal(lookup.status, 503, lookup.text);
    assert.match(lookup.body.error, /^The service cannot reach its database right now/);
    assert.equal((await call('/v1/search-by-name?name=replicated&format=json')).status, 503);

    const ready = await call('/readyz');
    assert.equal(ready.status, 503);
    assert.deepEqual([ready.body.store, ready.body.replica], [{ ok: true }, { ok: false }]);
    // A free key is the primary's alone.
    const free = await fetch(`${service.url}/v1/keys/free`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"replica@example.com"}',
    });
    assert.equal(free.status, 201, await free.text());

    await replicaPair.startStandby();
    let status = 0;
    for (let tries = 0; tries < 40 && status !== 200; tries++) {
      status = (await call('/v1/company?number=00000001&format=json')).status;
      if (status !== 200) await sleep(250);
    }
    assert.equal(status, 200);
    assert.equal((await call('/readyz')).status, 200);
  });
});

describe('DATABASE_READ_URL', () => {
  test('is refused without DATABASE_URL, naming the variable', () => {
    assert.throws(
      () => loadConfig({ DATABASE_READ_URL: 'postgres://ukcd@replica:5432/ukcd' }),
      /DATABASE_READ_URL[\s\S]*a replica of DATABASE_URL: set DATABASE_URL too/,
    );
    const both = loadConfig({ DATABASE_URL: 'postgres://p:5432/u', DATABASE_READ_URL: 'postgres://r:5432/u' });
    assert.equal(both.DATABASE_READ_URL, 'postgres://r:5432/u');
  });
});
