/**
 * The webhook sender end to end: real receivers on 127.0.0.1, the real store on PGlite and on
 * PostgreSQL, the HTTP transport, and the `standardwebhooks` package as the receiver's verifier.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type { WebhookStore } from '../../src/ports/webhooks.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';
import { createWebhookSender, type WebhookSenderOptions } from '../../src/webhooks/sender.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { freshPostgres, testStores, useStore } from '../support/databases.ts';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 answering each request with the next of `answers` (the last repeats). */
async function receiver(
  answers: readonly { status: number; delayMs?: number; headers?: Record<string, string> }[],
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      const answer = answers[Math.min(received.length - 1, answers.length - 1)]!;
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers ?? {});
        response.end('ok');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let keys = 0;
async function newKey(sql: Sql): Promise<number> {
  keys += 1;
  const result = await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'pro') RETURNING id`,
    [`sender-hash-${process.pid}-${keys}`, `ukcd_s${String(keys).padStart(7, '0')}`],
  );
  return result.rows[0]!.id;
}

/** An endpoint at `url` with one alert delivery enqueued. */
async function endpointWithDelivery(store: WebhookStore, sql: Sql, url: string) {
  const keyId = await newKey(sql);
  const secret = newWebhookSecret();
  const created = await store.createEndpoint({ keyId, url, events: null, description: null, secret }, 10);
  assert.ok(created.endpoint);
  const endpointId = created.endpoint.id;
  const [deliveryId] = await store.enqueue([
    {
      endpointId,
      eventKey: `00000001:status_change:${endpointId}`,
      eventType: 'alert.status_change',
      payload: { alert: { company_number: '00000001', kind: 'status_change' }, company: { name: 'ACME LTD' } },
    },
  ]);
  assert.ok(deliveryId);
  return { keyId, endpointId, secret, deliveryId };
}

/** Runs sender rounds until `done` holds (or `rounds` pass). */
async function roundsUntil(
  sender: { runOnce(): Promise<number> },
  done: () => Promise<boolean>,
  rounds = 20,
): Promise<void> {
  for (let i = 0; i < rounds && !(await done()); i++) await sender.runOnce();
}

for (const kind of testStores) {
  describe(`${kind.name}: webhook sender`, () => {
    const db = useStore(kind);
    let store: WebhookStore;
    before(() => {
      store = createWebhookStore(db.sql, createSecretSealer(randomBytes(32)));
    });
    const sender = (options: Partial<WebhookSenderOptions> = {}) =>
      createWebhookSender({ store, transport: createHttpWebhookTransport(), allowPrivate: true, ...options });
    const last = async (keyId: number, endpointId: string) => (await store.recentDeliveries(keyId, endpointId, 1))[0]!;

    test('a delivery reaches the receiver once, signed so that standardwebhooks verifies it', async () => {
      const hook = await receiver([{ status: 204 }]);
      try {
        const { keyId, endpointId, secret, deliveryId } = await endpointWithDelivery(store, db.sql, hook.url);
        const s = sender();
        await roundsUntil(s, async () => (await last(keyId, endpointId)).status !== 'pending');
        assert.equal(hook.received.length, 1);
        const [got] = hook.received;
        assert.equal(got!.headers['webhook-id'], deliveryId);
        const verified = new Webhook(secret).verify(got!.body, {
          'webhook-id': String(got!.headers['webhook-id']),
          'webhook-timestamp': String(got!.headers['webhook-timestamp']),
          'webhook-signature': String(got!.headers['webhook-signature']),
        }) as { type: string; timestamp: string; data: { company: { name: string } } };
        assert.equal(verified.type, 'alert.status_change');
        assert.equal(verified.data.company.name, 'ACME LTD');
        assert.equal(got!.headers['content-type'], 'application/json');
        const record = await last(keyId, endpointId);
        assert.equal(record.status, 'delivered');
        assert.equal(record.attempts, 1);
        assert.equal(record.last_response_code, 204);
        // Delivered is done: another round sends nothing more.
        await s.runOnce();
        assert.equal(hook.received.length, 1);
        await store.deleteEndpoint(keyId, endpointId);
      } finally {
        await hook.close();
      }
    });

    test('500 twice then 200: three attempts with the same webhook-id', async () => {
      const hook = await receiver([{ status: 500 }, { status: 500 }, { status: 200 }]);
      try {
        const { keyId, endpointId, deliveryId } = await endpointWithDelivery(store, db.sql, hook.url);
        const scheduled: number[] = [];
        const s = sender({
          retryDelayMs: (_attempt, scheduledMs) => {
            scheduled.push(scheduledMs);
            return 0;
          },
        });
        await roundsUntil(s, async () => (await last(keyId, endpointId)).status !== 'pending');
        assert.equal(hook.received.length, 3);
        assert.deepEqual(
          hook.received.map((r) => r.headers['webhook-id']),
          [deliveryId, deliveryId, deliveryId],
        );
        // The schedule's first two delays (5 s and 5 min, ±20 %) were asked for.
        assert.equal(scheduled.length, 2);
        assert.ok(scheduled[0]! >= 4000 && scheduled[0]! <= 6000, `first delay ${scheduled[0]}`);
        assert.ok(scheduled[1]! >= 240_000 && scheduled[1]! <= 360_000, `second delay ${scheduled[1]}`);
        const record = await last(keyId, endpointId);
        assert.equal(record.status, 'delivered');
        assert.equal(record.attempts, 3);
        const endpoint = await store.getEndpoint(keyId, endpointId);
        assert.equal(endpoint!.failing_since, null, 'a success clears failing_since');
        await store.deleteEndpoint(keyId, endpointId);
      } finally {
        await hook.close();
      }
    });

    test('410 Gone disables the endpoint', async () => {
      const hook = await receiver([{ status: 410 }]);
      try {
        const { keyId, endpointId } = await endpointWithDelivery(store, db.sql, hook.url);
        await roundsUntil(sender(), async () => (await last(keyId, endpointId)).status !== 'pending');
        assert.equal(hook.received.length, 1);
        assert.equal((await last(keyId, endpointId)).status, 'failed');
        const endpoint = await store.getEndpoint(keyId, endpointId);
        assert.ok(endpoint!.disabled_at, 'disabled');
        assert.match(endpoint!.disabled_reason ?? '', /410/);
        await store.deleteEndpoint(keyId, endpointId);
      } finally {
        await hook.close();
      }
    });

    test('a slow receiver times out and is retried', async () => {
      const hook = await receiver([{ status: 200, delayMs: 1500 }, { status: 200 }]);
      try {
        const { keyId, endpointId, deliveryId } = await endpointWithDelivery(store, db.sql, hook.url);
        const s = sender({ timeoutMs: 200, leaseMs: 10_000, retryDelayMs: () => 0 });
        await s.runOnce();
        const first = await last(keyId, endpointId);
        assert.equal(first.status, 'pending');
        assert.equal(first.last_response_code, null);
        assert.match(first.last_error ?? '', /No answer within 200 ms/);
        await roundsUntil(s, async () => (await last(keyId, endpointId)).status !== 'pending');
        const record = await last(keyId, endpointId);
        assert.equal(record.status, 'delivered');
        assert.equal(record.attempts, 2);
        assert.deepEqual(
          hook.received.map((r) => r.headers['webhook-id']),
          [deliveryId, deliveryId],
        );
        await store.deleteEndpoint(keyId, endpointId);
      } finally {
        await hook.close();
      }
    });

    test('a redirect is not followed: it is a failed attempt', async () => {
      const hook = await receiver([{ status: 302, headers: { location: '/elsewhere' } }]);
      try {
        const { keyId, endpointId } = await endpointWithDelivery(store, db.sql, hook.url);
        await sender().runOnce();
        assert.deepEqual(
          hook.received.map((r) => r.path),
          ['/hook'],
        );
        const record = await last(keyId, endpointId);
        assert.equal(record.status, 'pending', 'to be retried');
        assert.equal(record.last_response_code, 302);
        assert.ok(record.next_attempt_at, 'a retry is scheduled');
        await store.deleteEndpoint(keyId, endpointId);
      } finally {
        await hook.close();
      }
    });

    test('a receiver that takes its time holds up only its own slot', async () => {
      const slow = await receiver([{ status: 200, delayMs: 6000 }]);
      const fast = await receiver([{ status: 200 }]);
      const running = sender({ concurrency: 4, pollMs: 20 });
      try {
        // Queued first, so they are claimed first: two of the four slots wait on them.
        const held = [
          await endpointWithDelivery(store, db.sql, slow.url),
          await endpointWithDelivery(store, db.sql, slow.url),
        ];
        const quick = [];
        for (let i = 0; i < 12; i++) quick.push(await endpointWithDelivery(store, db.sql, fast.url));
        const started = Date.now();
        running.start();
        while (fast.received.length < quick.length && Date.now() - started < 10_000) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const elapsed = Date.now() - started;
        assert.equal(fast.received.length, quick.length, 'every quick delivery sent');
        assert.ok(elapsed < 4000, `the quick ones arrived in ${elapsed} ms, not after the slow receiver's 6 s`);
        assert.equal(slow.received.length, 2);
        await running.stop();
        for (const { keyId, endpointId } of [...held, ...quick]) {
          assert.equal((await last(keyId, endpointId)).status, 'delivered');
          await store.deleteEndpoint(keyId, endpointId);
        }
      } finally {
        await running.stop();
        await slow.close();
        await fast.close();
      }
    });

    test('a private address is refused at send time without allowPrivate', async () => {
      const hook = await receiver([{ status: 200 }]);
      try {
        const { keyId, endpointId } = await endpointWithDelivery(store, db.sql, hook.url);
        await sender({ allowPrivate: false }).runOnce();
        assert.equal(hook.received.length, 0, 'nothing sent');
        const record = await last(keyId, endpointId);
        assert.equal(record.status, 'pending');
        assert.match(record.last_error ?? '', /Not sent: The URL must use https/);
        await store.deleteEndpoint(keyId, endpointId);
      } finally {
        await hook.close();
      }
    });
  });
}

describe('postgres: two senders on one database', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  const pools: Sql[] = [];
  before(async () => {
    db = await freshPostgres();
  });
  after(async () => {
    for (const sql of pools) await sql.close();
    await db?.drop();
  });

  test('never send the same attempt twice', async () => {
    const hook = await receiver([{ status: 200, delayMs: 5 }]);
    try {
      const sealer = createSecretSealer(randomBytes(32));
      const setup = createWebhookStore(db!.sql, sealer);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push((await endpointWithDelivery(setup, db!.sql, hook.url)).deliveryId);
      const one = createPgSql({ connectionString: db!.url, max: 3 });
      const two = createPgSql({ connectionString: db!.url, max: 3 });
      pools.push(one, two);
      const senders = [one, two].map((sql) =>
        createWebhookSender({
          store: createWebhookStore(sql, sealer),
          transport: createHttpWebhookTransport(),
          allowPrivate: true,
          concurrency: 3,
          pollMs: 20,
        }),
      );
      for (const s of senders) s.start();
      const deadline = Date.now() + 30_000;
      while (hook.received.length < ids.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(senders.map((s) => s.stop()));
      const sent = hook.received.map((r) => String(r.headers['webhook-id']));
      assert.equal(new Set(sent).size, sent.length, 'no delivery sent twice');
      assert.deepEqual([...sent].sort(), [...ids].sort(), 'every delivery sent');
      assert.equal((await setup.queueStats()).pending, 0);
    } finally {
      await hook.close();
    }
  });
});
