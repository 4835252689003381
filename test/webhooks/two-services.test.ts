/**
 * Two `ukcd start` processes sending from one PostgreSQL database (issue 15): each delivery is
 * received exactly once in the normal path, and both processes sent some. Which process sent a
 * delivery is read from each one's own ukcd_webhook_deliveries_total: the receiver cannot tell
 * the two apart, and the outbox does not record the sender.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import { createSecretSealer, parseSealerKey } from '../../src/webhooks/secret-sealer.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { freshPostgres } from '../support/databases.ts';
import { parsePrometheusText, valueOf } from '../support/prometheus-text.ts';
import type { Service } from '../support/ukcd-start.ts';
import { kill, newSealerKey, queueDeliveries, startReceiver, startSender, waitUntil } from './receivers.ts';

/**
 * Enough deliveries, answered slowly enough (4 at a time per process, 25 ms each), that one
 * process alone would need several seconds: longer than the 1 s the other waits between polls
 * of an empty outbox, so both are sending before the outbox empties.
 */
const DELIVERIES = 400;
const RECEIVER_DELAY_MS = 25;

async function delivered(service: Service): Promise<number> {
  const response = await fetch(`${service.url}/metrics`);
  assert.equal(response.status, 200);
  const value = valueOf(parsePrometheusText(await response.text()), 'ukcd_webhook_deliveries_total', {
    outcome: 'delivered',
  });
  assert.ok(value !== undefined, 'ukcd_webhook_deliveries_total{outcome="delivered"} is served');
  return value;
}

describe('postgres: two services sending from one database', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  const services: Service[] = [];
  before(async () => {
    db = await freshPostgres();
  });
  after(async () => {
    for (const service of services) await kill(service);
    await db?.drop();
  });

  test('each delivery is received once, and both services sent some', async (t) => {
    const sealerKey = newSealerKey();
    const store = createWebhookStore(db!.sql, createSecretSealer(parseSealerKey(sealerKey)));
    const secret = newWebhookSecret();
    const receiver = await startReceiver({ secret, delayMs: RECEIVER_DELAY_MS });
    try {
      // Both serving (and polling an empty outbox) before anything is queued, so neither has a head start.
      services.push(...(await Promise.all([startSender(db!.url, sealerKey), startSender(db!.url, sealerKey)])));
      const { ids } = await queueDeliveries(store, db!.sql, { url: receiver.url, secret, count: DELIVERIES });
      await waitUntil(async () => (await store.queueStats()).pending === 0, 120_000, 'the outbox to empty');

      const times = receiver.timesReceived();
      assert.deepEqual([...times.keys()].sort(), [...ids].sort(), 'every delivery arrived');
      const twice = [...times].filter(([, n]) => n > 1);
      assert.deepEqual(twice, [], 'no delivery arrived twice');
      assert.ok(
        receiver.received.every((r) => r.verified),
        'every request signed with the endpoint secret',
      );
      const attempts = await db!.sql.query<{ status: string; attempts: number; n: number }>(
        'SELECT status, attempts, count(*)::int AS n FROM webhook_deliveries GROUP BY status, attempts',
      );
      assert.deepEqual(attempts.rows, [{ status: 'delivered', attempts: 1, n: DELIVERIES }], 'one attempt each');

      const [one, two] = await Promise.all(services.map(delivered));
      assert.equal(one! + two!, DELIVERIES, 'the two services delivered them all between them');
      t.diagnostic(`deliveries sent by each service: ${one} and ${two}`);
      assert.ok(one! > 0 && two! > 0, `both services sent: ${one} and ${two}`);
    } finally {
      await receiver.close();
    }
  });
});
