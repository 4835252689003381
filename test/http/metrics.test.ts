/**
 * GET /metrics end to end over real HTTP, on the embedded default (PGlite with the Postgres search)
 * and on a real PostgreSQL with a real Elasticsearch: requests and latency by operation and status
 * (REST and MCP), quota and free-key refusals, loads from the journal while they run and after,
 * the process's own metrics, the optional token, and a scrape that still answers when the store
 * does not. The text is read by a strict parser, never by looking for substrings.
 */
import assert from 'node:assert/strict';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPgPeopleIndex } from '../../src/adapters/pg-search/pg-people-index.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import { keyPrefix } from '../../src/domain/api-keys.ts';
import { buildApp } from '../../src/app/app.ts';
import { createHttpMetrics, LATENCY_BUCKETS, operationLabel, STORE_TIMEOUT_MS } from '../../src/app/metrics.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { call, filings, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import type { Exposition } from '../support/prometheus-text.ts';
import { parsePrometheusText, samplesOf, valueOf } from '../support/prometheus-text.ts';
import { testWebhookDeps } from '../support/webhook-deps.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const ROUTE_LABELS = ['healthz', 'readyz', 'openapi', 'free_key', 'mcp', 'metrics', 'preflight', 'unmatched'];
const LABELS = new Set([...OPERATIONS.map((operation) => operation.name), ...ROUTE_LABELS]);

describe('operationLabel: the bounded `operation` label of a request', () => {
  const cases = [
    { name: 'a REST operation', input: ['GET', 'lookup_company', 'lookup_company', true], want: 'lookup_company' },
    { name: 'an MCP tool call', input: ['POST', 'search_by_name', 'mcp', true], want: 'search_by_name' },
    { name: 'MCP that is not a tool call', input: ['POST', 'mcp', 'mcp', true], want: 'mcp' },
    { name: 'a named route', input: ['GET', undefined, 'healthz', true], want: 'healthz' },
    { name: 'an operation that is not a string', input: ['GET', 42, 'readyz', true], want: 'readyz' },
    { name: 'a route registered without a name', input: ['GET', undefined, undefined, true], want: 'other' },
    { name: 'no route (404)', input: ['GET', undefined, undefined, false], want: 'unmatched' },
    { name: 'a method no route has (405)', input: ['DELETE', undefined, undefined, false], want: 'unmatched' },
    { name: 'refused before routing (413)', input: ['POST', undefined, undefined, undefined], want: 'unmatched' },
    { name: 'a CORS preflight', input: ['OPTIONS', undefined, undefined, undefined], want: 'preflight' },
  ] as const;
  for (const { name, input, want } of cases) {
    test(name, () => {
      const [method, operation, routeName, routeMatched] = input;
      assert.equal(operationLabel({ method, operation, routeName, routeMatched }), want);
    });
  }
});

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Exposition> {
  const response = await fetch(`${url}/metrics`, { headers });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.equal(response.headers.get('content-type'), CONTENT_TYPE);
  return parsePrometheusText(text);
}

/** Each series of a metric as "label=value,…" -> value. */
function seriesOf(exposition: Exposition, name: string): Map<string, number> {
  return new Map(
    samplesOf(exposition, name).map((s) => [
      Object.entries(s.labels)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => `${key}=${value}`)
        .join(','),
      s.value,
    ]),
  );
}

/** How much each series of a counter grew between two scrapes (series that did not grow left out). */
function growth(before: Exposition, after: Exposition, name: string): Record<string, number> {
  const was = seriesOf(before, name);
  const grew: Record<string, number> = {};
  for (const [series, value] of seriesOf(after, name)) {
    const delta = value - (was.get(series) ?? 0);
    if (delta !== 0) grew[series] = delta;
  }
  return grew;
}

async function listen(app: ReturnType<typeof buildApp>): Promise<{ url: string; server: Server }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((ready) => server.once('listening', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const closeServer = (server: Server) => new Promise<void>((done) => server.close(() => done()));

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

for (const setup of setups) {
  describe(`/metrics on ${setup.name}`, () => {
    let world: World;
    let pro: string;
    let free: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      pro = await world.issueKey('pro');
      free = await world.issueKey('free');
    });
    after(() => world.close());

    const get = (path: string, key?: string) => call(world, path, key ? { key } : {});
    const mcp = (body: unknown, key: string) =>
      call(world, '/mcp', { key, body, headers: { accept: 'application/json, text/event-stream' } });
    const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });

    test('requests by operation and status, their latency, and refusals by plan and channel; no path or key in any label', async () => {
      const before = await scrape(world.url);
      const statuses = async (answers: Promise<{ status: number }>[]) =>
        (await Promise.all(answers)).map((a) => a.status);

      assert.deepEqual(await statuses([1, 2, 3].map(() => get('/v1/company?number=1', pro))), [200, 200, 200]);
      assert.equal((await get('/v1/company?number=x', pro)).status, 400);
      assert.equal((await get('/v1/company?number=7', pro)).status, 404);
      assert.equal((await get('/v1/nothing', pro)).status, 404);
      assert.equal((await get('/healthz')).status, 200);
      const preflight = await call(world, '/v1/company', {
        method: 'OPTIONS',
        headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.status, 204);
      const freeKeys = await statuses(Array.from({ length: 11 }, () => call(world, '/v1/keys/free', { body: {} })));
      assert.deepEqual(freeKeys.sort(), [...Array(10).fill(201), 429]);
      // Use up the free key's month, then one refusal over REST and one over MCP.
      for (let i = 0; i < 50; i += 10)
        assert.deepEqual(
          await statuses(Array.from({ length: 10 }, () => get('/v1/company?number=2', free))),
          Array(10).fill(200),
        );
      assert.equal((await get('/v1/company?number=2', free)).status, 429);
      const refused = await mcp(toolCall(1, 'lookup_company', { company_number: '2' }), free);
      assert.equal(refused.body.result.isError, true);
      assert.match(refused.body.result.content[0].text, /^Monthly quota exceeded/);
      const answered = await mcp(toolCall(2, 'lookup_company', { company_number: '1' }), pro);
      assert.equal(answered.body.result.isError, undefined);
      const list = await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, pro);
      assert.equal(list.body.result.tools.length, OPERATIONS.length);

      const after = await scrape(world.url);
      assert.deepEqual(growth(before, after, 'ukcd_http_requests_total'), {
        // 3 + 50 over REST, and the two MCP tool calls (refused or not, an MCP answer is HTTP 200).
        'operation=lookup_company,status=200': 55,
        'operation=lookup_company,status=400': 1,
        'operation=lookup_company,status=404': 1,
        'operation=lookup_company,status=429': 1,
        'operation=unmatched,status=404': 1,
        'operation=healthz,status=200': 1,
        'operation=preflight,status=204': 1,
        'operation=free_key,status=201': 10,
        'operation=free_key,status=429': 1,
        'operation=mcp,status=200': 1,
        // The first scrape, counted once it was answered.
        'operation=metrics,status=200': 1,
        // The tests' own check of every answer against /openapi.json reads it once per service
        // (test/support/openapi-conformance.ts), with this test's first call.
        'operation=openapi,status=200': 1,
      });
      assert.deepEqual(growth(before, after, 'ukcd_quota_refusals_total'), {
        'channel=rest,plan=free': 1,
        'channel=mcp,plan=free': 1,
      });
      assert.deepEqual(growth(before, after, 'ukcd_free_keys_refused_total'), { '': 1 });

      // The histogram counts what the counter counts, with cumulative buckets from 1 ms to 10 s.
      assert.equal(after.types.get('ukcd_http_request_duration_seconds'), 'histogram');
      for (const request of samplesOf(after, 'ukcd_http_requests_total')) {
        const labels = request.labels;
        const label = JSON.stringify(labels);
        const count = valueOf(after, 'ukcd_http_request_duration_seconds_count', labels);
        assert.equal(count, request.value, `count of ${label}`);
        const buckets = samplesOf(after, 'ukcd_http_request_duration_seconds_bucket', labels);
        assert.deepEqual(
          buckets.map((b) => b.labels.le),
          [...LATENCY_BUCKETS.map(String), '+Inf'],
          label,
        );
        const counts = buckets.map((b) => b.value);
        assert.deepEqual(
          counts,
          [...counts].sort((a, b) => a - b),
          `buckets of ${label} are cumulative`,
        );
        assert.equal(counts.at(-1), count, `+Inf of ${label}`);
        const sum = valueOf(after, 'ukcd_http_request_duration_seconds_sum', labels)!;
        assert.ok(sum > 0 && sum < count! * 10, `sum of ${label}: ${sum}`);
      }

      // Labels: operations and route names only; no path, no key, not even a key's prefix.
      const operations = new Set(samplesOf(after, 'ukcd_http_requests_total').map((s) => s.labels.operation!));
      assert.deepEqual(
        [...operations].filter((operation) => !LABELS.has(operation)),
        [],
      );
      const values = after.samples.flatMap((s) => Object.values(s.labels));
      assert.deepEqual(
        values.filter((value) => value.includes('/')),
        [],
      );
      // Every key the world holds, whole or by its prefix (the free keys issued above included).
      const keys = [pro, free, ...(await world.keys.listKeys('2025-06')).map((k) => k.prefix)];
      assert.deepEqual(
        values.filter((value) => keys.some((key) => value.includes(key))),
        [],
      );
    });

    test('a running load with the counts it reported, then how the last load of its kind ended', async () => {
      const source = 'BasicCompanyDataAsOneFile-2025-02-01.csv';
      const dbNow = Date.parse(await world.store.now()) / 1000;
      const id = await world.store.startLoad('register', source, { snapshotDate: '2025-02-01' });
      await world.store.reportLoadProgress(id, { rows_read: 1200, rows_written: 1100, rows_rejected: 3 });

      const running = await scrape(world.url);
      assert.equal(valueOf(running, 'ukcd_store_up'), 1);
      const load = { kind: 'register', source };
      assert.deepEqual(
        ['ukcd_load_running', 'ukcd_load_rows_read', 'ukcd_load_rows_written', 'ukcd_load_rows_rejected'].map((name) =>
          valueOf(running, name, load),
        ),
        [1, 1200, 1100, 3],
      );
      const started = valueOf(running, 'ukcd_load_started_timestamp_seconds', load)!;
      assert.ok(Math.abs(started - dbNow) < 60, `started ${started}, database now ${dbNow}`);
      assert.equal(running.types.get('ukcd_load_running'), 'gauge');
      // The fixtures' accounts load finished, and says how.
      assert.equal(
        valueOf(running, 'ukcd_load_last_rows_written', { kind: 'accounts', status: 'done' }),
        filings.length,
      );

      const why = '10 rows rejected: what they hold would be marked as no longer listed';
      await world.store.finishLoad(
        id,
        'done',
        { rows_read: 1500, rows_written: 1490, rows_rejected: 10 },
        { complete: false, partialBecause: why },
      );
      const finished = await scrape(world.url);
      assert.deepEqual(samplesOf(finished, 'ukcd_load_running', { source }), []);
      assert.deepEqual(samplesOf(finished, 'ukcd_load_rows_read', { source }), []);
      const ended = { kind: 'register', status: 'done' };
      const at = valueOf(finished, 'ukcd_load_last_finished_timestamp_seconds', ended)!;
      assert.ok(at >= started && at - dbNow < 60, `finished ${at}, started ${started}`);
      assert.equal(valueOf(finished, 'ukcd_load_last_rows_written', ended), 1490);
      assert.equal(valueOf(finished, 'ukcd_load_last_rows_rejected', ended), 10);
      assert.equal(
        valueOf(finished, 'ukcd_load_last_partial', { ...ended, reason: why }),
        1,
        'the reason a load was partial',
      );
    });

    test("the process's own metrics, each family declared once", async () => {
      const metrics = await scrape(world.url);
      for (const name of [
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
      ])
        assert.equal(samplesOf(metrics, name).length, 1, name);
      // The parser refuses a family declared twice; every sample belongs to a declared family.
      const families = [...metrics.types.keys()];
      for (const sample of metrics.samples)
        assert.ok(
          families.some((family) => sample.name === family || sample.name.startsWith(`${family}_`)),
          sample.name,
        );
    });

    test('open without METRICS_TOKEN, and never counted against a quota', async () => {
      const month = '2025-06';
      const used = async () => (await world.keys.listKeys(month, keyPrefix(pro)))[0]!.used;
      const before = await used();
      await scrape(world.url);
      await scrape(world.url, { authorization: `Bearer ${pro}` });
      assert.equal(await used(), before);
    });

    test('with METRICS_TOKEN, only that bearer token reads it', async () => {
      const token = 'metrics-token-0123456789';
      const { url, server } = await listen(
        buildApp({
          ...world.deps,
          streams: world.streams,
          keys: world.keys,
          log: () => {},
          metricsToken: token,
        }),
      );
      try {
        for (const authorization of [undefined, `Bearer ${pro}`, `Bearer ${token}x`, token, `Basic ${token}`]) {
          const response = await fetch(`${url}/metrics`, authorization ? { headers: { authorization } } : {});
          assert.equal(response.status, 401, String(authorization));
          assert.equal(response.headers.get('www-authenticate'), 'Bearer');
          assert.match(((await response.json()) as { error: string }).error, /METRICS_TOKEN/);
        }
        const metrics = await scrape(url, { authorization: `Bearer ${token}` });
        assert.equal(valueOf(metrics, 'ukcd_http_requests_total', { operation: 'metrics', status: '401' }), 5);
      } finally {
        await closeServer(server);
      }
    });
  });
}

describe('/metrics when the store does not answer', () => {
  /** The app on a pg pool whose server is at `url`, with one request made before the scrape. */
  async function appOn(sql: Sql): Promise<{ url: string; server: Server }> {
    const store = createCompanyStore(sql);
    const served = await listen(
      buildApp({
        store,
        search: createPgSearchIndex(sql),
        keys: createKeyStore(sql),
        watchlists: createWatchlistStore(sql),
        ownership: createOwnershipReader(sql),
        officers: createOfficerStore(sql),
        pdfEstimates: createPdfEstimateStore(sql),
        people: createPgPeopleIndex(sql),
        streams: createStreamLedger(sql),
        webhooks: testWebhookDeps(sql),
        // The company store's metrics only: the outbox's gauges (delivery-metrics.test.ts) would query too.
        metrics: createHttpMetrics({ store }),
        log: () => {},
      }),
    );
    assert.equal((await fetch(`${served.url}/healthz`)).status, 200);
    return served;
  }

  function assertWithoutStore(metrics: Exposition) {
    assert.equal(valueOf(metrics, 'ukcd_store_up'), 0);
    assert.deepEqual(
      metrics.samples.filter((s) => s.name.startsWith('ukcd_load_')).map((s) => s.name),
      [],
    );
    assert.equal(valueOf(metrics, 'ukcd_http_requests_total', { operation: 'healthz', status: '200' }), 1);
    assert.equal(samplesOf(metrics, 'process_resident_memory_bytes').length, 1);
  }

  test('a server that refuses connections: answered at once, with ukcd_store_up 0', async () => {
    const closed = createServer();
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const sql = createPgSql({ connectionString: `postgres://ukcd:ukcd@127.0.0.1:${port}/ukcd` });
    const { url, server } = await appOn(sql);
    try {
      assertWithoutStore(await scrape(url));
    } finally {
      await closeServer(server);
      await sql.close();
    }
  });

  test('a server that accepts and never answers: the scrape waits no longer than its timeout, every time', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    const port = (silent.address() as AddressInfo).port;
    const sql = createPgSql({
      connectionString: `postgres://ukcd:ukcd@127.0.0.1:${port}/ukcd`,
      connectionTimeoutMs: 30_000,
    });
    const { url, server } = await appOn(sql);
    try {
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        assertWithoutStore(await scrape(url));
        const ms = performance.now() - started;
        assert.ok(ms >= STORE_TIMEOUT_MS * 0.9 && ms < STORE_TIMEOUT_MS + 1500, `scrape ${i} took ${ms} ms`);
      }
      // One query waits on the silent server, not one per scrape.
      assert.equal(sockets.size, 1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
      await sql.close().catch(() => undefined);
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });
});
