/**
 * The WebhookStore contract, run against every store: PGlite and a real PostgreSQL server; and
 * concurrent claimers on the real server, each with its own connections, as several API
 * instances are.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createWebhookStore, enqueueDeliveries } from '../../src/adapters/postgres/webhook-store.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DeliveryRecord,
  NewDelivery,
  WebhookStore,
} from '../../src/ports/webhooks.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { freshPostgres, testStores, useStore } from '../support/databases.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Long enough that no test sees it run out unless it waits for that. */
const LEASE = 60_000;

let keys = 0;

/** A new API key row (the endpoints' foreign key); returns its id. */
async function newKey(sql: Sql): Promise<number> {
  keys += 1;
  const result = await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'pro') RETURNING id`,
    [`webhook-hash-${process.pid}-${keys}`, `ukcd_w${String(keys).padStart(7, '0')}`],
  );
  return result.rows[0]!.id;
}

/** An endpoint of a new key; returns both ids and the secret. */
async function newEndpoint(
  store: WebhookStore,
  sql: Sql,
  overrides: { keyId?: number; url?: string; events?: string[] | null } = {},
): Promise<{ keyId: number; endpointId: string; secret: string }> {
  const keyId = overrides.keyId ?? (await newKey(sql));
  const secret = newWebhookSecret();
  const created = await store.createEndpoint(
    {
      keyId,
      url: overrides.url ?? 'https://hooks.example.com/ukcd',
      events: overrides.events ?? null,
      description: null,
      secret,
    },
    10,
  );
  assert.ok(created.endpoint, 'created');
  return { keyId, endpointId: created.endpoint.id, secret };
}

const alert = (endpointId: string, company: string, state = 'Liquidation'): NewDelivery => ({
  endpointId,
  eventKey: `${company}:status_change:${state}`,
  eventType: 'alert.status_change',
  payload: { alert: { company_number: company, kind: 'status_change', to: state }, company: { name: 'ACME LTD' } },
});

const outcome = {
  delivered: { status: 'delivered', responseCode: 200, latencyMs: 42.4, error: null },
  retryNow: { status: 'retry', delayMs: 0, responseCode: 500, latencyMs: 7, error: 'HTTP 500' },
} satisfies Record<string, DeliveryOutcome>;

/** Claims everything due (in rounds of `limit`) and returns the claims. */
async function claimAll(store: WebhookStore, limit = 100): Promise<ClaimedDelivery[]> {
  const all: ClaimedDelivery[] = [];
  for (;;) {
    const claimed = await store.claimDue(limit, LEASE);
    if (claimed.length === 0) return all;
    all.push(...claimed);
  }
}

/** The claims of one endpoint: a claim also takes what earlier tests left due, which each test leaves aside. */
const of = (claims: ClaimedDelivery[], endpointId: string) => claims.filter((c) => c.endpoint_id === endpointId);

for (const kind of testStores) {
  describe(`${kind.name}: WebhookStore`, () => {
    const db = useStore(kind);
    const sealer = createSecretSealer(randomBytes(32));
    let store: WebhookStore;
    before(() => {
      store = createWebhookStore(db.sql, sealer);
    });

    test('create, get, list and delete endpoints, each key its own', async () => {
      const keyId = await newKey(db.sql);
      const other = await newKey(db.sql);
      const secret = newWebhookSecret();
      const created = await store.createEndpoint(
        {
          keyId,
          url: 'https://hooks.example.com/a',
          events: ['alert.status_change', 'alert.control_change'],
          description: 'ops channel',
          secret,
        },
        10,
      );
      assert.equal(created.limitReached, false);
      const endpoint = created.endpoint!;
      assert.match(endpoint.id, /^wh_[A-Za-z0-9_-]{22}$/);
      assert.match(endpoint.created_at, ISO);
      assert.ok(Math.abs(Date.parse(endpoint.created_at) - Date.now()) < 60_000, 'created about now');
      assert.deepEqual(
        { ...endpoint, id: '', created_at: '' },
        {
          id: '',
          key_id: keyId,
          url: 'https://hooks.example.com/a',
          events: ['alert.status_change', 'alert.control_change'],
          description: 'ops channel',
          created_at: '',
          previous_secret_expires_at: null,
          failing_since: null,
          disabled_at: null,
          disabled_reason: null,
        },
      );
      assert.ok(!JSON.stringify(endpoint).includes('whsec_'), 'no secret in what the owner sees');

      const second = (
        await store.createEndpoint(
          { keyId, url: 'https://hooks.example.com/b', events: null, description: null, secret },
          10,
        )
      ).endpoint!;
      assert.equal(second.events, null);
      assert.deepEqual(
        (await store.listEndpoints(keyId)).map((e) => e.id),
        [endpoint.id, second.id],
      );
      assert.deepEqual(await store.getEndpoint(keyId, endpoint.id), endpoint);

      // Another key sees, gets and deletes none of them.
      assert.deepEqual(await store.listEndpoints(other), []);
      assert.equal(await store.getEndpoint(other, endpoint.id), null);
      assert.equal(await store.deleteEndpoint(other, endpoint.id), false);

      assert.equal(await store.deleteEndpoint(keyId, endpoint.id), true);
      assert.equal(await store.deleteEndpoint(keyId, endpoint.id), false);
      assert.equal(await store.getEndpoint(keyId, endpoint.id), null);
      assert.deepEqual(
        (await store.listEndpoints(keyId)).map((e) => e.id),
        [second.id],
      );
    });

    test('the secret is stored sealed, bound to its endpoint, and the claim gets it back', async () => {
      const { endpointId, secret } = await newEndpoint(store, db.sql);
      const row = await db.sql.query<{ secret_sealed: string; previous_secret_sealed: string | null }>(
        'SELECT secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE id = $1',
        [endpointId],
      );
      const sealed = row.rows[0]!.secret_sealed;
      assert.ok(!sealed.includes(secret.slice(6)), 'not in clear');
      assert.equal(sealer.open(sealed, endpointId), secret);
      assert.throws(() => sealer.open(sealed, 'wh_another'), /does not open/);
      assert.equal(row.rows[0]!.previous_secret_sealed, null);

      await store.enqueue([alert(endpointId, '00000001')]);
      const [claim] = of(await claimAll(store), endpointId);
      assert.deepEqual(claim!.secrets, [secret]);
    });

    test('the plan limit: all endpoints of a key count, the key over it gets none more', async () => {
      const keyId = await newKey(db.sql);
      const make = () =>
        store.createEndpoint(
          { keyId, url: 'https://hooks.example.com/', events: null, description: null, secret: newWebhookSecret() },
          2,
        );
      assert.equal((await make()).limitReached, false);
      assert.equal((await make()).limitReached, false);
      assert.deepEqual(await make(), { endpoint: null, limitReached: true });
      assert.equal((await store.listEndpoints(keyId)).length, 2);
      // A lower limit than the key already has (a plan changed since): still nothing more.
      assert.deepEqual(
        await store.createEndpoint(
          { keyId, url: 'https://hooks.example.com/', events: null, description: null, secret: newWebhookSecret() },
          1,
        ),
        { endpoint: null, limitReached: true },
      );
      // Another key has its own count.
      const other = await newEndpoint(store, db.sql);
      assert.ok(other.endpointId);
    });

    test('registering for a key that does not exist fails and creates nothing', async () => {
      await assert.rejects(
        store.createEndpoint(
          {
            keyId: 987_654_321,
            url: 'https://x.example/',
            events: null,
            description: null,
            secret: newWebhookSecret(),
          },
          10,
        ),
        /does not exist/,
      );
      assert.deepEqual(await store.listEndpoints(987_654_321), []);
    });

    test('enqueueing the same event for the same endpoint is idempotent', async () => {
      const { endpointId } = await newEndpoint(store, db.sql);
      const { endpointId: otherEndpoint } = await newEndpoint(store, db.sql);
      const first = await store.enqueue([alert(endpointId, '00000001'), alert(endpointId, '00000002')]);
      assert.equal(first.length, 2);
      for (const id of first) assert.match(id, /^msg_[A-Za-z0-9_-]{22}$/);
      // Again, again within one batch, and beside a new one: only the new one is added.
      const second = await store.enqueue([
        alert(endpointId, '00000001'),
        alert(endpointId, '00000003'),
        alert(endpointId, '00000003'),
        alert(endpointId, '00000002'),
      ]);
      assert.equal(second.length, 1);
      // The same event for another endpoint, and another state of the same company, are new.
      assert.equal((await store.enqueue([alert(otherEndpoint, '00000001')])).length, 1);
      const dissolved = await store.enqueue([alert(endpointId, '00000001', 'Dissolved')]);
      assert.equal(dissolved.length, 1);
      // Events without a key (webhook.test) are never the same.
      const ping: NewDelivery = { endpointId, eventKey: null, eventType: 'webhook.test', payload: { hello: 'world' } };
      const pings = await store.enqueue([ping, ping]);
      assert.equal(pings.length, 2);
      assert.deepEqual(await store.enqueue([]), []);

      const mine = [...first, ...second, ...dissolved, ...pings];
      assert.equal(new Set(mine).size, 6);
      assert.deepEqual(
        of(await claimAll(store), endpointId)
          .map((c) => c.id)
          .sort(),
        mine.sort(),
      );
    });

    test('a delivery for an endpoint that does not exist is left out; one without a payload is refused', async () => {
      assert.deepEqual(await store.enqueue([alert('wh_missing', '00000001')]), []);
      const { endpointId } = await newEndpoint(store, db.sql);
      await assert.rejects(store.enqueue([{ ...alert(endpointId, '00000001'), payload: null }]), /no payload/);
      assert.deepEqual(of(await claimAll(store), endpointId), []);
    });

    test('enqueueing inside a transaction that rolls back leaves nothing', async () => {
      const { endpointId } = await newEndpoint(store, db.sql);
      await assert.rejects(
        db.sql.transaction(async (tx) => {
          assert.equal((await enqueueDeliveries(tx, [alert(endpointId, '00000001')])).length, 1);
          throw new Error('the load failed');
        }),
        /the load failed/,
      );
      assert.deepEqual(of(await claimAll(store), endpointId), []);
      // Committed with the detection, it is there once.
      await db.sql.transaction((tx) => enqueueDeliveries(tx, [alert(endpointId, '00000001')]));
      assert.equal(of(await claimAll(store), endpointId).length, 1);
    });

    test('a claim has what a sender needs, and leases the delivery', async () => {
      const { keyId, endpointId, secret } = await newEndpoint(store, db.sql, {
        url: 'https://hooks.example.com/c?x=1',
      });
      const [id] = await store.enqueue([alert(endpointId, '00000009')]);
      const claims = of(await claimAll(store), endpointId);
      assert.equal(claims.length, 1);
      const claim = claims[0]!;
      assert.match(claim.created_at, ISO);
      assert.deepEqual(
        { ...claim, created_at: '' },
        {
          id,
          endpoint_id: endpointId,
          url: 'https://hooks.example.com/c?x=1',
          event_type: 'alert.status_change',
          payload: alert(endpointId, '00000009').payload,
          created_at: '',
          attempt: 1,
          secrets: [secret],
          endpoint_failing_since: null,
        },
      );
      // Leased: no other claim gets it.
      assert.deepEqual(of(await claimAll(store), endpointId), []);
      const [listed] = await store.recentDeliveries(keyId, endpointId, 10);
      assert.equal(listed!.status, 'pending');
      assert.equal(listed!.attempts, 1);
    });

    test('claims take at most `limit`, oldest due first', async () => {
      const { endpointId } = await newEndpoint(store, db.sql);
      // Everything due from earlier tests is claimed first, so the rounds below see only these.
      await claimAll(store);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(...(await store.enqueue([alert(endpointId, `0000010${i}`)])));
      const first = await store.claimDue(2, LEASE);
      const rest = await store.claimDue(10, LEASE);
      assert.deepEqual(first.map((c) => c.id).sort(), ids.slice(0, 2).sort());
      assert.deepEqual(rest.map((c) => c.id).sort(), ids.slice(2).sort());
    });

    test('a lease that runs out without an outcome (the sender died) is claimed again, as the next attempt', async () => {
      const { endpointId } = await newEndpoint(store, db.sql);
      const [id] = await store.enqueue([alert(endpointId, '00000001')]);
      const [first] = of(await store.claimDue(100, 150), endpointId);
      assert.equal(first!.id, id);
      assert.deepEqual(of(await store.claimDue(100, LEASE), endpointId), [], 'leased');
      await sleep(300);
      const [again] = of(await store.claimDue(100, LEASE), endpointId);
      assert.equal(again!.id, id, 'the same webhook-id');
      assert.equal(again!.attempt, 2);
      // The dead sender's outcome, arriving late, is not recorded over the new attempt's.
      assert.equal(await store.recordOutcome(first!, outcome.delivered), false);
      assert.equal(await store.recordOutcome(again!, outcome.delivered), true);
    });

    test('delivered: recorded, never claimed again, and the endpoint is no longer failing', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      await store.enqueue([alert(endpointId, '00000001')]);
      const [failed] = of(await claimAll(store), endpointId);
      assert.equal(await store.recordOutcome(failed!, outcome.retryNow), true);
      const failing = (await store.getEndpoint(keyId, endpointId))!.failing_since;
      assert.match(failing!, ISO);

      const [claim] = of(await claimAll(store), endpointId);
      assert.equal(claim!.attempt, 2);
      assert.equal(claim!.endpoint_failing_since, failing);
      assert.equal(await store.recordOutcome(claim!, outcome.delivered), true);
      assert.equal(await store.recordOutcome(claim!, outcome.delivered), false, 'once');
      assert.deepEqual(of(await claimAll(store), endpointId), []);
      assert.equal((await store.getEndpoint(keyId, endpointId))!.failing_since, null);

      const [record] = await store.recentDeliveries(keyId, endpointId, 10);
      assert.match(record!.last_attempt_at!, ISO);
      assert.deepEqual(
        { ...record, created_at: '', last_attempt_at: '' },
        {
          id: claim!.id,
          event_type: 'alert.status_change',
          status: 'delivered',
          attempts: 2,
          created_at: '',
          last_attempt_at: '',
          last_response_code: 200,
          last_latency_ms: 42,
          last_error: null,
          next_attempt_at: null,
        },
      );
    });

    test('retry: due again after the delay, on the database clock', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      await store.enqueue([alert(endpointId, '00000001')]);
      const [claim] = of(await claimAll(store), endpointId);
      const recordedAt = Date.now();
      assert.equal(
        await store.recordOutcome(claim!, {
          status: 'retry',
          delayMs: 300_000,
          responseCode: null,
          latencyMs: 15_000,
          error: 'timed out after 15 s',
        }),
        true,
      );
      assert.deepEqual(of(await claimAll(store), endpointId), [], 'not due for five minutes');
      const [record] = await store.recentDeliveries(keyId, endpointId, 10);
      assert.equal(record!.status, 'pending');
      assert.equal(record!.last_response_code, null);
      assert.equal(record!.last_error, 'timed out after 15 s');
      const due = Date.parse(record!.next_attempt_at!);
      assert.ok(Math.abs(due - (recordedAt + 300_000)) < 30_000, `${record!.next_attempt_at} is about five minutes on`);
    });

    test('failed: given up, never claimed again', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      await store.enqueue([alert(endpointId, '00000001')]);
      const [claim] = of(await claimAll(store), endpointId);
      assert.equal(
        await store.recordOutcome(claim!, { status: 'failed', responseCode: 503, latencyMs: 3, error: 'HTTP 503' }),
        true,
      );
      assert.deepEqual(of(await claimAll(store), endpointId), []);
      const [record] = await store.recentDeliveries(keyId, endpointId, 10);
      assert.equal(record!.status, 'failed');
      assert.equal(record!.next_attempt_at, null);
      assert.equal((await store.getEndpoint(keyId, endpointId))!.disabled_at, null, 'the endpoint stays enabled');
    });

    test('disable: the endpoint is disabled with its reason, and nothing more is sent to it', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      const { endpointId: neighbour } = await newEndpoint(store, db.sql, { keyId });
      await store.enqueue([alert(endpointId, '00000001'), alert(neighbour, '00000001')]);
      const [claim] = of(await claimAll(store), endpointId);
      await store.enqueue([alert(endpointId, '00000002')]);
      assert.equal(
        await store.recordOutcome(claim!, {
          status: 'disable-endpoint',
          reason: 'The endpoint answered 410 Gone.',
          responseCode: 410,
          latencyMs: 5,
          error: 'HTTP 410',
        }),
        true,
      );
      const endpoint = (await store.getEndpoint(keyId, endpointId))!;
      assert.match(endpoint.disabled_at!, ISO);
      assert.equal(endpoint.disabled_reason, 'The endpoint answered 410 Gone.');
      assert.deepEqual(await store.enqueue([alert(endpointId, '00000003')]), [], 'nothing enqueued for it');
      assert.deepEqual(of(await claimAll(store), endpointId), [], 'nothing claimed for it');
      const records = await store.recentDeliveries(keyId, endpointId, 10);
      assert.deepEqual(
        records.map((r) => r.status),
        ['failed', 'failed'],
      );
      const other = records.find((r) => r.id !== claim!.id && r.status === 'failed')!;
      assert.match(other.last_error!, /endpoint was disabled/);
      // Its neighbour of the same key is untouched.
      assert.equal((await store.getEndpoint(keyId, neighbour))!.disabled_at, null);
    });

    test('rotating the secret: both sign until the previous one expires', async () => {
      const { keyId, endpointId, secret } = await newEndpoint(store, db.sql);
      const next = newWebhookSecret();
      assert.equal(await store.rotateSecret(keyId, endpointId, next, 24 * 3_600_000), true);
      const expires = (await store.getEndpoint(keyId, endpointId))!.previous_secret_expires_at;
      assert.ok(Math.abs(Date.parse(expires!) - (Date.now() + 24 * 3_600_000)) < 60_000, `${expires} is a day on`);
      await store.enqueue([alert(endpointId, '00000001')]);
      const [claim] = of(await claimAll(store), endpointId);
      assert.deepEqual(claim!.secrets, [next, secret]);

      // Rotated again with no grace: only the newest signs.
      const third = newWebhookSecret();
      assert.equal(await store.rotateSecret(keyId, endpointId, third, 0), true);
      await store.enqueue([alert(endpointId, '00000002')]);
      await sleep(5);
      const [later] = of(await claimAll(store), endpointId);
      assert.deepEqual(later!.secrets, [third]);

      assert.equal(await store.rotateSecret(await newKey(db.sql), endpointId, newWebhookSecret(), 1000), false);
      assert.equal(await store.rotateSecret(keyId, 'wh_missing', newWebhookSecret(), 1000), false);
    });

    test('deleting an endpoint deletes its deliveries', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      await store.enqueue([alert(endpointId, '00000001')]);
      assert.equal(await store.deleteEndpoint(keyId, endpointId), true);
      const left = await db.sql.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
      assert.equal(left.rowCount, 0);
    });

    test('a deleted key takes its endpoints and their deliveries with it', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      await store.enqueue([alert(endpointId, '00000001')]);
      await db.sql.query('DELETE FROM api_keys WHERE id = $1', [keyId]);
      assert.deepEqual(await store.listEndpoints(keyId), []);
      const left = await db.sql.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
      assert.equal(left.rowCount, 0);
    });

    test("recent deliveries: newest first, at most `limit`, only the key's own endpoint", async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(...(await store.enqueue([alert(endpointId, `0000020${i}`)])));
      assert.deepEqual(
        (await store.recentDeliveries(keyId, endpointId, 3)).map((r) => r.id),
        ids.slice(1).reverse(),
      );
      const [fresh] = await store.recentDeliveries(keyId, endpointId, 1);
      assert.equal(fresh!.status, 'pending');
      assert.equal(fresh!.attempts, 0);
      assert.equal(fresh!.last_attempt_at, null);
      assert.match(fresh!.next_attempt_at!, ISO);
      assert.deepEqual(await store.recentDeliveries(await newKey(db.sql), endpointId, 10), []);
    });

    test('deliveries queued together keep their queueing order: newest first when listed, oldest first when sent', async () => {
      // One enqueue writes them in one transaction, so they share created_at and next_attempt_at.
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      const ids = await store.enqueue(Array.from({ length: 8 }, (_, i) => alert(endpointId, `0000030${i}`)));
      assert.equal(ids.length, 8);
      assert.deepEqual(
        (await store.recentDeliveries(keyId, endpointId, 8)).map((r) => r.id),
        [...ids].reverse(),
      );
      await sleep(5);
      assert.deepEqual(
        of(await claimAll(store, 1), endpointId).map((c) => c.id),
        ids,
      );
    });

    test('retrying a failed delivery: pending and due now, claimed again with its id as the next attempt', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      const [id] = await store.enqueue([alert(endpointId, '00000001')]);
      const [claim] = of(await claimAll(store), endpointId);
      await store.recordOutcome(claim!, { status: 'failed', responseCode: 503, latencyMs: 3, error: 'HTTP 503' });
      const before = Date.now();
      const retried = await store.retryDelivery(keyId, endpointId, id!);
      assert.equal(retried.outcome, 'due');
      const delivery = (retried as { delivery: DeliveryRecord }).delivery;
      assert.equal(delivery.id, id);
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.attempts, 1, 'the attempts made stay counted');
      assert.equal(delivery.last_response_code, 503, 'and the last one stays in the log');
      assert.ok(
        Math.abs(Date.parse(delivery.next_attempt_at!) - before) < 30_000,
        `${delivery.next_attempt_at} is now`,
      );
      const [again] = of(await claimAll(store), endpointId);
      assert.equal(again!.id, id);
      assert.equal(again!.attempt, 2);
      assert.equal(await store.recordOutcome(again!, outcome.delivered), true);
    });

    test("retrying a pending delivery: one waiting for its next attempt is due now; one in flight stays its sender's", async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      const [waiting, inFlight] = await store.enqueue([alert(endpointId, '00000001'), alert(endpointId, '00000002')]);
      const claims = of(await claimAll(store), endpointId);
      const waitingClaim = claims.find((c) => c.id === waiting)!;
      const inFlightClaim = claims.find((c) => c.id === inFlight)!;
      await store.recordOutcome(waitingClaim, { ...outcome.retryNow, delayMs: 3_600_000 });
      assert.deepEqual(of(await claimAll(store), endpointId), [], 'nothing due: one waits an hour, one is leased');

      assert.equal((await store.retryDelivery(keyId, endpointId, waiting!)).outcome, 'due');
      assert.equal((await store.retryDelivery(keyId, endpointId, inFlight!)).outcome, 'due');
      assert.deepEqual(
        of(await claimAll(store), endpointId).map((c) => [c.id, c.attempt]),
        [[waiting, 2]],
        'the one in flight is not claimed twice',
      );
      // Its sender still records how its attempt ended.
      assert.equal(await store.recordOutcome(inFlightClaim, outcome.delivered), true);
    });

    test('retrying is refused for a delivered delivery and a disabled endpoint, changing nothing', async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      const [delivered, pending] = await store.enqueue([alert(endpointId, '00000001'), alert(endpointId, '00000002')]);
      const claims = of(await claimAll(store), endpointId);
      await store.recordOutcome(
        claims.find((c) => c.id === delivered)!,
        outcome.delivered,
      );
      assert.deepEqual(await store.retryDelivery(keyId, endpointId, delivered!), { outcome: 'already-delivered' });
      await store.recordOutcome(
        claims.find((c) => c.id === pending)!,
        {
          status: 'disable-endpoint',
          reason: 'The endpoint answered 410 Gone.',
          responseCode: 410,
          latencyMs: 5,
          error: 'HTTP 410',
        },
      );
      assert.deepEqual(await store.retryDelivery(keyId, endpointId, pending!), { outcome: 'endpoint-disabled' });
      assert.deepEqual(
        (await store.recentDeliveries(keyId, endpointId, 10)).map((r) => [r.id, r.status]).sort(),
        [
          [delivered, 'delivered'],
          [pending, 'failed'],
        ].sort(),
      );
    });

    test("retrying another key's delivery, or one of another endpoint, or none, is not found", async () => {
      const { keyId, endpointId } = await newEndpoint(store, db.sql);
      const { endpointId: sibling } = await newEndpoint(store, db.sql, { keyId });
      const [id] = await store.enqueue([alert(endpointId, '00000001')]);
      const notFound = { outcome: 'not-found' };
      assert.deepEqual(await store.retryDelivery(await newKey(db.sql), endpointId, id!), notFound);
      assert.deepEqual(await store.retryDelivery(keyId, sibling, id!), notFound);
      assert.deepEqual(await store.retryDelivery(keyId, endpointId, 'msg_missing'), notFound);
    });
  });

  // On a store of its own: the queue is global, and the tests above leave deliveries pending.
  describe(`${kind.name}: WebhookStore queue stats`, () => {
    const db = useStore(kind);
    let store: WebhookStore;
    before(() => {
      store = createWebhookStore(db.sql, createSecretSealer(randomBytes(32)));
    });

    test('queue stats: pending deliveries and the age of the oldest', async () => {
      assert.deepEqual(await store.queueStats(), { pending: 0, oldest_pending_age_ms: null, disabled_endpoints: 0 });
      const { endpointId } = await newEndpoint(store, db.sql);
      await store.enqueue([alert(endpointId, '00000001')]);
      await sleep(250);
      await store.enqueue([alert(endpointId, '00000002')]);
      const stats = await store.queueStats();
      assert.equal(stats.pending, 2);
      assert.ok(
        stats.oldest_pending_age_ms! >= 200 && stats.oldest_pending_age_ms! < 30_000,
        `${stats.oldest_pending_age_ms} ms`,
      );
      // A claimed delivery is still pending until its outcome is recorded.
      const [claim] = of(await claimAll(store), endpointId);
      assert.equal((await store.queueStats()).pending, 2);
      await store.recordOutcome(claim!, outcome.delivered);
      assert.equal((await store.queueStats()).pending, 1);
    });
  });
}

describe('postgres: WebhookStore with concurrent claimers', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  const others: Sql[] = [];
  before(async () => {
    db = await freshPostgres();
  });
  after(async () => {
    for (const sql of others) await sql.close();
    await db?.drop();
  });

  test('two senders on their own connections claiming at once never get the same delivery', async () => {
    const sealer = createSecretSealer(randomBytes(32));
    // Two pools on one database, as two API instances have.
    const one = createPgSql({ connectionString: db!.url, max: 3 });
    const two = createPgSql({ connectionString: db!.url, max: 3 });
    others.push(one, two);
    const setup = createWebhookStore(db!.sql, sealer);
    const endpoints: string[] = [];
    for (let i = 0; i < 4; i++) endpoints.push((await newEndpoint(setup, db!.sql)).endpointId);
    const enqueued: string[] = [];
    for (let i = 0; i < 10; i++) {
      enqueued.push(
        ...(await setup.enqueue(
          endpoints.flatMap((endpointId) =>
            Array.from({ length: 10 }, (_, j) => alert(endpointId, String(i * 100 + j).padStart(8, '0'))),
          ),
        )),
      );
    }
    assert.equal(enqueued.length, 400);

    // Each sender runs three claim loops at once on its pool, in small batches, so claims overlap.
    const sender = async (sql: Sql): Promise<string[]> => {
      const store = createWebhookStore(sql, sealer);
      const loop = async () => {
        const got: string[] = [];
        for (;;) {
          const claimed = await store.claimDue(5, LEASE);
          if (claimed.length === 0) return got;
          got.push(...claimed.map((c) => c.id));
        }
      };
      return (await Promise.all([loop(), loop(), loop()])).flat();
    };
    // Both pools connected before either starts, so that neither finishes before the other begins.
    await Promise.all([one, two].flatMap((sql) => [1, 2, 3].map(() => sql.query('SELECT pg_sleep(0.05)'))));
    const [byOne, byTwo] = await Promise.all([sender(one), sender(two)]);
    const all = [...byOne, ...byTwo];
    assert.equal(new Set(all).size, all.length, 'no delivery claimed twice');
    assert.deepEqual([...all].sort(), [...enqueued].sort(), 'every delivery claimed');
    assert.ok(byOne.length > 0 && byTwo.length > 0, `both senders claimed (${byOne.length} and ${byTwo.length})`);
  });
});
