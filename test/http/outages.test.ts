/**
 * The service as operators run it (`ukcd start`, its own process, real PostgreSQL and
 * Elasticsearch), while those servers are stopped and frozen — servers of its own, so that no
 * other test is disturbed:
 * - Elasticsearch down or frozen: lookups, watchlists and alerts keep working; searches answer 503
 *   with a clear error within the set timeout, uncounted; when it is back, searches work again
 *   without a restart.
 * - PostgreSQL down or frozen: 503 with a clear error within the set timeout, never a hang; the
 *   service recovers by itself.
 * - SIGTERM: the request in flight finishes, new connections are refused, the process exits 0.
 */
// run-tests: alone (it stops and freezes servers of its own and asserts how soon the service answers).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client as EsClient } from '@elastic/elasticsearch';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { indexSearch } from '../../loaders/index-search.ts';
import { loadAccounts } from '../../loaders/load-accounts.ts';
import { loadRegister } from '../../loaders/load-register.ts';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../../src/domain/api-keys.ts';
import { writeBulkZips } from '../../src/synthetic/bulk-zip.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import { writeRegisterSnapshot } from '../../src/synthetic/register-files.ts';
import { outageElasticsearch, outagePostgres } from '../support/outage-servers.ts';
import type { Service } from '../support/ukcd-start.ts';
import { startService } from '../support/ukcd-start.ts';
import { connectMcp } from '../support/mcp-client.ts';

/** The service's bounds on waiting, set low so that the test is quick; the assertions allow for them. */
const DATABASE_TIMEOUT_MS = 2_000;
const SEARCH_TIMEOUT_MS = 2_000;
const quiet = () => {};

describe('outages, on servers of its own', { concurrency: false, timeout: 900_000 }, () => {
  let work: string;
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;
  let service: Service;
  let key: string;
  let company: { number: string; name: string };
  const alias = `companies_outage_${process.pid}`;

  const get = async (path: string, init: RequestInit = {}) => {
    const started = performance.now();
    const response = await fetch(`${service.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, ms: performance.now() - started };
  };
  const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
  const lookup = () => get(`/v1/company?number=${company.number}&format=json`);
  const searchByName = () => get(`/v1/search-by-name?name=${encodeURIComponent(company.name)}&format=json`);
  /**
   * A name search never asked before, so that Elasticsearch must answer it: the service keeps the
   * pages it has found under the index's generation, which it reads at most every 500 ms, so a
   * page asked again just after an outage began may come from its cache (docs/search.md).
   */
  let asked = 0;
  const freshSearchByName = () =>
    get(`/v1/search-by-name?name=${encodeURIComponent(`${company.name} ${++asked}`)}&format=json`);
  /** Ask until the answer is `status`, as a client retrying after a 503 would. */
  async function until(ask: () => Promise<{ status: number }>, status: number, seconds: number): Promise<number> {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const answer = await ask();
      if (answer.status === status) return answer.status;
      if (Date.now() > deadline) return answer.status;
      await sleep(500);
    }
  }

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'ukcd-outage-'));
    const [serverUrl, elasticsearchUrl] = await Promise.all([outagePostgres.start(), outageElasticsearch.start()]);
    const admin = createPgSql({ connectionString: serverUrl, max: 1 });
    const name = `ukcd_outage_${process.pid}`;
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.exec(`CREATE DATABASE ${name}`);
    databaseUrl = serverUrl.replace(/\/[^/]*$/, `/${name}`);
    dropDatabase = async () => {
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    };

    // Data in the real formats, through the real loaders, then the real index.
    const sql = createPgSql({ connectionString: databaseUrl });
    await migrate(sql);
    const store = createCompanyStore(sql);
    const register = await writeRegisterSnapshot({ seed: 5, companies: 300, snapshotDate: '2024-06-01', outDir: work });
    const accounts = await writeBulkZips(
      syntheticFilings({ seed: 5, companies: 300, yearsPerCompany: 1, fromYear: 2023 }),
      join(work, 'accounts'),
    );
    await loadRegister({ companies: store, journal: store }, register.files, { reportDir: work, log: quiet });
    await loadAccounts({ filings: store, journal: store }, accounts.zips, { reportDir: work, workers: 1, log: quiet });
    const es = new EsClient({ node: elasticsearchUrl });
    await es.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
    await ensureIndex({ client: es, alias });
    await indexSearch(
      store,
      { index: createEsSearchIndex({ client: es, alias }), target: `elasticsearch:${alias}` },
      { log: quiet },
    );
    await es.close();
    const found = await sql.query<{ company_number: string; name: string }>(
      `SELECT c.company_number, c.name FROM companies c
       WHERE EXISTS (SELECT 1 FROM accounts_history h WHERE h.company_number = c.company_number)
       ORDER BY c.company_number LIMIT 1`,
    );
    company = { number: found.rows[0]!.company_number, name: found.rows[0]!.name };
    key = generateApiKey();
    await createKeyStore(sql).createKey({
      hash: hashApiKey(key),
      prefix: keyPrefix(key),
      plan: 'pro',
      email: null,
      clientIp: null,
    });
    await sql.close();

    service = await startService({
      DATABASE_URL: databaseUrl,
      ELASTICSEARCH_URL: elasticsearchUrl,
      ELASTICSEARCH_INDEX: alias,
      PORT: '0',
      DATA_DIR: work,
      DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
      SEARCH_TIMEOUT_MS: String(SEARCH_TIMEOUT_MS),
      SHUTDOWN_GRACE_MS: '10000',
    });
    assert.equal((await lookup()).status, 200);
    assert.equal((await searchByName()).status, 200);
  });

  after(async () => {
    await outagePostgres.thaw().catch(() => undefined);
    await outageElasticsearch.thaw().catch(() => undefined);
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await outagePostgres.start();
    await dropDatabase?.();
    await Promise.all([outageElasticsearch.stop(), outagePostgres.stop()]);
    await rm(work, { recursive: true, force: true });
  });

  test('Elasticsearch stopped: lookups, watchlists and alerts work; searches answer 503, uncounted; back by itself', async () => {
    const before = await lookup();
    assert.equal(before.status, 200);
    await outageElasticsearch.stop();

    const search = await freshSearchByName();
    assert.equal(search.status, 503, search.text);
    assert.match(String(json(search.text).error), /^Search is unavailable right now/);
    assert.match(String(json(search.text).error), /lookups, watchlists and alerts still work/);
    assert.equal(search.headers.get('retry-after'), '5');
    assert.ok(search.ms < SEARCH_TIMEOUT_MS + 1_000, `answered in ${search.ms} ms`);
    assert.doesNotMatch(search.text, /9399|127\.0\.0\.1|ECONNREFUSED/, 'no internals in the answer');
    assert.equal((await get('/v1/search?status=active&format=json')).status, 503);
    assert.equal((await get('/v1/stats?format=json')).status, 503);
    assert.equal((await get('/v1/triggers?trigger=rapid_growth&format=json')).status, 503);

    const after = await lookup();
    assert.equal(after.status, 200);
    assert.equal(
      Number(after.headers.get('x-ratelimit-remaining')),
      Number(before.headers.get('x-ratelimit-remaining')) - 1,
      'the 503s were not counted against the quota',
    );
    const added = await get('/v1/watchlist/add', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ company_numbers: [company.number] }),
    });
    assert.equal(added.status, 200, added.text);
    assert.equal((await get('/v1/watchlist?format=json')).status, 200);
    assert.equal((await get('/v1/alerts?format=json')).status, 200);
    assert.equal((await get(`/v1/compare?a=${company.number}&b=${company.number}&format=json`)).status, 200);
    assert.equal((await get('/healthz')).status, 200);
    const ready = await get('/readyz');
    assert.equal(ready.status, 503);
    assert.deepEqual(json(ready.text).search, { ok: false });

    // An agent over MCP is told the same, as a tool error it can read.
    const client = await connectMcp(service.url, key);
    try {
      const result = (await client.callTool({
        name: 'search_by_name',
        arguments: { name: company.name },
      })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.content), /Search is unavailable right now/);
      const looked = (await client.callTool({
        name: 'lookup_company',
        arguments: { company_number: company.number },
      })) as CallToolResult;
      assert.notEqual(looked.isError, true);
    } finally {
      await client.close();
    }

    await outageElasticsearch.start();
    assert.equal(await until(freshSearchByName, 200, 60), 200, 'searches work again without a restart');
    assert.equal((await get('/readyz')).status, 200);
  });

  test('Elasticsearch frozen: searches answer 503 within the timeout; lookups do not wait; thawed, it answers', async () => {
    await outageElasticsearch.freeze();
    try {
      const search = await freshSearchByName();
      assert.equal(search.status, 503, search.text);
      assert.ok(search.ms < SEARCH_TIMEOUT_MS + 1_500, `answered in ${search.ms} ms, past the timeout`);
      const looked = await lookup();
      assert.equal(looked.status, 200);
      assert.ok(looked.ms < 1_000, `a lookup took ${looked.ms} ms`);
    } finally {
      await outageElasticsearch.thaw();
    }
    assert.equal(await until(freshSearchByName, 200, 60), 200);
  });

  test('PostgreSQL stopped: 503 with a clear error at once; alive but not ready; back by itself', async () => {
    await outagePostgres.stop();
    const looked = await lookup();
    assert.equal(looked.status, 503, looked.text);
    assert.equal(
      json(looked.text).error,
      'The service cannot reach its database right now. Try again in a few seconds.',
    );
    assert.equal(looked.headers.get('retry-after'), '5');
    assert.ok(looked.ms < DATABASE_TIMEOUT_MS + 1_000, `answered in ${looked.ms} ms`);
    assert.equal((await searchByName()).status, 503, 'the key cannot be checked either');
    assert.equal((await get('/healthz')).status, 200);
    const ready = await get('/readyz');
    assert.equal(ready.status, 503);
    assert.deepEqual(json(ready.text).store, { ok: false });

    await outagePostgres.start();
    assert.equal(await until(lookup, 200, 30), 200);
    assert.equal((await searchByName()).status, 200);
  });

  test('PostgreSQL frozen: 503 within the set timeout, never a hang; thawed, it answers', async () => {
    assert.equal((await lookup()).status, 200);
    await outagePostgres.freeze();
    try {
      const looked = await lookup();
      assert.equal(looked.status, 503, looked.text);
      // A pooled connection gives up a second after the statement timeout; a new one within it.
      assert.ok(looked.ms < DATABASE_TIMEOUT_MS + 2_500, `answered in ${looked.ms} ms`);
    } finally {
      await outagePostgres.thaw();
    }
    assert.equal(await until(lookup, 200, 30), 200);
  });

  test('SIGTERM: the request in flight finishes, new connections are refused, the process exits 0', async () => {
    await outagePostgres.freeze();
    let inFlight: Promise<Awaited<ReturnType<typeof lookup>>>;
    try {
      inFlight = lookup();
      await sleep(300);
      service.child.kill('SIGTERM');
      await sleep(300);
      await assert.rejects(
        fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(5_000) }),
        'a closing service takes no new connections',
      );
    } finally {
      await outagePostgres.thaw();
    }
    const answered = await inFlight;
    assert.equal(answered.status, 200, answered.text);
    const code = await Promise.race([service.exited, sleep(15_000).then(() => 'still running')]);
    assert.equal(code, 0, service.output.join(''));
    assert.match(service.output.join(''), /shutting down/);
  });
});
