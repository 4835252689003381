/**
 * Nothing is lost when the service dies mid-send (issue 15): `ukcd start` on a real PostgreSQL
 * sends to a slow receiver, is killed with SIGKILL while attempts are in flight, and is started
 * again. Every delivery arrives; the only ones that arrive twice (same webhook-id) are those
 * whose attempt was in flight at the kill, sent again once their lease ran out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import type { WebhookStore } from '../../src/ports/webhooks.ts';
import { createSecretSealer, parseSealerKey } from '../../src/webhooks/secret-sealer.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { freshPostgres } from '../support/databases.ts';
import type { Service } from '../support/ukcd-start.ts';
import { kill, newSealerKey, queueDeliveries, startReceiver, startSender, waitUntil } from './receivers.ts';

/** The receiver answers after 1 s, well within the 5 s timeout: every attempt it answers succeeds. */
const RECEIVER_DELAY_MS = 1000;
const SENDER_ENV = { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '6000' };
const DELIVERIES = 24;

describe('postgres: the service killed with SIGKILL mid-send, then started again', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  const services: Service[] = [];
  before(async () => {
    db = await freshPostgres();
  });
  after(async () => {
    for (const service of services) await kill(service);
    await db?.drop();
  });

  test('every delivery arrives; only the attempts in flight at the kill arrive twice', async () => {
    const sealerKey = newSealerKey();
    const store: WebhookStore = createWebhookStore(db!.sql, createSecretSealer(parseSealerKey(sealerKey)));
    const secret = newWebhookSecret();
    const receiver = await startReceiver({ secret, delayMs: RECEIVER_DELAY_MS });
    try {
      const { ids } = await queueDeliveries(store, db!.sql, { url: receiver.url, secret, count: DELIVERIES });

      const first = await startSender(db!.url, sealerKey, SENDER_ENV);
      services.push(first);
      // The first round (4 at once) has been answered and a second round is at the receiver.
      await waitUntil(() => receiver.received.length > 4, 60_000, 'a second round of attempts');
      await kill(first);
      const receivedBeforeKill = new Set(receiver.received.map((r) => r.id));
      // Claimed and no outcome recorded: the attempts the kill cut off.
      const inFlight = new Set(
        (
          await db!.sql.query<{ id: string }>(
            `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND lease_until IS NOT NULL`,
          )
        ).rows.map((row) => row.id),
      );
      assert.ok(inFlight.size > 0, 'attempts were in flight at the kill');
      const cutOff = [...inFlight].filter((id) => receivedBeforeKill.has(id));
      assert.ok(cutOff.length > 0, 'the receiver held at least one attempt the kill cut off');
      assert.ok(receivedBeforeKill.size < DELIVERIES, 'deliveries were left to send');

      const second = await startSender(db!.url, sealerKey, SENDER_ENV);
      services.push(second);
      await waitUntil(
        async () => (await store.queueStats()).pending === 0,
        120_000,
        'the outbox to empty after the restart',
      );

      const times = receiver.timesReceived();
      assert.deepEqual([...times.keys()].sort(), [...ids].sort(), 'every delivery arrived');
      for (const id of ids) {
        const got = times.get(id);
        if (cutOff.includes(id)) assert.equal(got, 2, `${id}: cut off at the receiver, so sent again`);
        // In flight but not seen at the receiver by the kill: it may have been on its way.
        else if (inFlight.has(id)) assert.ok(got === 1 || got === 2, `${id}: in flight, received ${got} times`);
        else assert.equal(got, 1, `${id}: not in flight, so received once`);
      }
      assert.ok(
        receiver.received.every((r) => r.verified),
        'every request, before and after the restart, is signed with the endpoint secret',
      );
      const rows = await db!.sql.query<{ id: string; status: string; attempts: number }>(
        'SELECT id, status, attempts FROM webhook_deliveries',
      );
      for (const row of rows.rows) {
        assert.equal(row.status, 'delivered', row.id);
        // The attempt the kill cut off counted as one: its claim did.
        assert.equal(row.attempts, inFlight.has(row.id) ? 2 : 1, row.id);
      }
    } finally {
      await receiver.close();
    }
  });
});
