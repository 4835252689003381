/**
 * The webhook delivery metrics on GET /metrics, over real HTTP, on PGlite and on PostgreSQL: the
 * sender's outcomes counted through its onOutcome (real receivers answering 200, 500 and 410),
 * the outbox's depth, the age of its oldest delivery and the endpoints disabled, read at scrape
 * time; and a scrape that answers within its bound when the store does not.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { createPgPeopleIndex } from '../../src/adapters/pg-search/pg-people-index.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import { buildApp } from '../../src/app/app.ts';
import { createHttpMetrics, STORE_TIMEOUT_MS } from '../../src/app/metrics.ts';
import type { HttpMetrics } from '../../src/app/metrics.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type { WebhookStore } from '../../src/ports/webhooks.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { testStores, useStore } from '../support/databases.ts';
import type { Exposition } from '../support/prometheus-text.ts';
import { parsePrometheusText, valueOf } from '../support/prometheus-text.ts';
import { queueDeliveries, startReceiver } from './receivers.ts';
import type { Receiver } from './receivers.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';

/** The app of `ukcd start` on `sql`, serving `metrics` (as main.ts passes them), listening on 127.0.0.1. */
async function serve(
  sql: Sql,
  webhooks: WebhookStore,
  metrics?: HttpMetrics,
): Promise<{ url: string; server: Server }> {
  const app = buildApp({
    store: createCompanyStore(sql),
    search: createPgSearchIndex(sql),
    keys: createKeyStore(sql),
    watchlists: createWatchlistStore(sql),
    ownership: createOwnershipReader(sql),
    officers: createOfficerStore(sql),
    pdfEstimates: createPdfEstimateStore(sql),
    people: createPgPeopleIndex(sql),
    streams: createStreamLedger(sql),
    webhooks: { store: webhooks, allowPrivate: true },
    ...(metrics ? { metrics } : {}),
    log: () => {},
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((ready) => server.once('listening', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const closeServer = (server: Server) => new Promise<void>((done) => server.close(() => done()));

async function scrape(url: string): Promise<Exposition> {
  const response = await fetch(`${url}/metrics`);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return parsePrometheusText(text);
}

const outcomes = (metrics: Exposition) =>
  Object.fromEntries(
    ['delivered', 'retry', 'failed', 'disabled'].map((outcome) => [
      outcome,
      valueOf(metrics, 'ukcd_webhook_deliveries_total', { outcome }),
    ]),
  );

for (const kind of testStores) {
  describe(`${kind.name}: webhook delivery metrics`, () => {
    const db = useStore(kind);
    const receivers: Receiver[] = [];
    after(async () => {
      for (const receiver of receivers) await receiver.close();
    });

    test('outcomes by kind, the outbox depth and age, and the endpoints disabled', async () => {
      const store = createWebhookStore(db.sql, createSecretSealer(randomBytes(32)));
      const metrics = createHttpMetrics({ store: createCompanyStore(db.sql), webhooks: store });
      const { url, server } = await serve(db.sql, store, metrics);
      try {
        const empty = await scrape(url);
        assert.deepEqual(outcomes(empty), { delivered: 0, retry: 0, failed: 0, disabled: 0 });
        assert.equal(valueOf(empty, 'ukcd_webhook_queue_up'), 1);
        assert.equal(valueOf(empty, 'ukcd_webhook_deliveries_pending'), 0);
        assert.equal(valueOf(empty, 'ukcd_webhook_oldest_pending_age_seconds'), 0);
        assert.equal(valueOf(empty, 'ukcd_webhook_endpoints_disabled'), 0);
        assert.equal(empty.types.get('ukcd_webhook_deliveries_total'), 'counter');
        assert.equal(empty.types.get('ukcd_webhook_deliveries_pending'), 'gauge');

        // One endpoint that answers 200, one that is gone (410), one that is down (500 every time).
        for (const status of [200, 410, 500]) {
          const secret = newWebhookSecret();
          const receiver = await startReceiver({ secret, delayMs: 0, status });
          receivers.push(receiver);
          await queueDeliveries(store, db.sql, { url: receiver.url, secret, count: 1 });
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        const queued = await scrape(url);
        assert.equal(valueOf(queued, 'ukcd_webhook_deliveries_pending'), 3);
        const age = valueOf(queued, 'ukcd_webhook_oldest_pending_age_seconds')!;
        assert.ok(age >= 0.25 && age < 60, `oldest pending ${age} s`);
        assert.deepEqual(outcomes(queued), { delivered: 0, retry: 0, failed: 0, disabled: 0 });

        const sender = createWebhookSender({
          store,
          transport: createHttpWebhookTransport(),
          allowPrivate: true,
          retryDelayMs: () => 0,
          onOutcome: (status) => metrics.webhookOutcome(status),
        });
        for (let round = 0; round < 40 && (await store.queueStats()).pending > 0; round++) await sender.runOnce();

        const done = await scrape(url);
        // The down endpoint: eleven retries, then given up at the twelfth attempt.
        assert.deepEqual(outcomes(done), { delivered: 1, retry: 11, failed: 1, disabled: 1 });
        assert.deepEqual(
          receivers.map((r) => r.received.length),
          [1, 1, 12],
        );
        assert.equal(valueOf(done, 'ukcd_webhook_deliveries_pending'), 0);
        assert.equal(valueOf(done, 'ukcd_webhook_oldest_pending_age_seconds'), 0);
        assert.equal(valueOf(done, 'ukcd_webhook_endpoints_disabled'), 1);
      } finally {
        await closeServer(server);
      }
    });

    test('metrics made without a webhook store serve no outbox gauges, and the outcome counter at 0', async () => {
      // Every app serves the webhook operations now; the metrics given to it are what is tested.
      const store = createCompanyStore(db.sql);
      const app = buildApp({
        store,
        search: createPgSearchIndex(db.sql),
        keys: createKeyStore(db.sql),
        watchlists: createWatchlistStore(db.sql),
        ownership: createOwnershipReader(db.sql),
        officers: createOfficerStore(db.sql),
        pdfEstimates: createPdfEstimateStore(db.sql),
        people: createPgPeopleIndex(db.sql),
        streams: createStreamLedger(db.sql),
        webhooks: { store: createWebhookStore(db.sql, createSecretSealer(randomBytes(32))), allowPrivate: true },
        metrics: createHttpMetrics({ store }),
        log: () => {},
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise<void>((ready) => server.once('listening', ready));
      try {
        const metrics = await scrape(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
        assert.equal(valueOf(metrics, 'ukcd_webhook_queue_up'), undefined);
        assert.equal(valueOf(metrics, 'ukcd_webhook_deliveries_pending'), undefined);
        assert.deepEqual(outcomes(metrics), { delivered: 0, retry: 0, failed: 0, disabled: 0 });
      } finally {
        await closeServer(server);
      }
    });
  });
}

describe('webhook outbox gauges when the store does not answer', () => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  let sql: Sql;
  before(async () => {
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    const port = (silent.address() as AddressInfo).port;
    sql = createPgSql({ connectionString: `postgres://ukcd:ukcd@127.0.0.1:${port}/ukcd`, connectionTimeoutMs: 30_000 });
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await sql.close().catch(() => undefined);
    await new Promise<void>((done) => silent.close(() => done()));
  });

  test('a server that accepts and never answers: the scrape waits no longer than its bound; the figures are unknown, not 0', async () => {
    const { url, server } = await serve(sql, createWebhookStore(sql, createSecretSealer(randomBytes(32))));
    try {
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        const metrics = await scrape(url);
        const ms = performance.now() - started;
        assert.ok(ms >= STORE_TIMEOUT_MS * 0.9 && ms < STORE_TIMEOUT_MS + 1500, `scrape ${i} took ${ms} ms`);
        assert.equal(valueOf(metrics, 'ukcd_webhook_queue_up'), 0);
        for (const name of [
          'ukcd_webhook_deliveries_pending',
          'ukcd_webhook_oldest_pending_age_seconds',
          'ukcd_webhook_endpoints_disabled',
        ]) {
          assert.ok(Number.isNaN(valueOf(metrics, name)), `${name} is NaN`);
        }
        assert.deepEqual(outcomes(metrics), { delivered: 0, retry: 0, failed: 0, disabled: 0 });
      }
    } finally {
      await closeServer(server);
    }
  });
});
