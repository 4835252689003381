/**
 * The insolvency-cases stream, on PGlite and on PostgreSQL: a watched company's new insolvency
 * case reaches get_alerts as `insolvency` (high) and a signed webhook; the same resource again and
 * an older one published out of order change nothing; a later case is a new alert; an event whose
 * case cannot be read is kept in stream_rejects, never applied in part.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { insolvencyApplier } from '../../src/adapters/postgres/stream-insolvency.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { alertsOfWatched } from '../../src/alert-detection/watched-alerts.ts';
import { startFollower } from '../../src/follow/follower.ts';
import type { Follower } from '../../src/follow/follower.ts';
import type { StreamGet } from '../../src/follow/follow-stream.ts';
import { get } from '../../src/net/http-get.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company } from '../support/store-records.ts';
import { eventLine, startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { waitFor, watchWithEndpoint } from '../support/stream-world.ts';
import type { WatchingKey } from '../support/stream-world.ts';

const ACME = '00000001';
const STREAM = 'insolvency-cases';

const liquidation = {
  number: '1',
  type: 'creditors-voluntary-liquidation',
  dates: [{ type: 'wound-up-on', date: '2026-11-20' }],
  practitioners: [
    { name: 'Jane Smith', role: 'practitioner', appointed_on: '2026-11-20', address: { address_line_1: '1 ROW' } },
  ],
};
const administration = {
  number: '2',
  type: 'in-administration',
  dates: [{ type: 'administration-started-on', date: '2026-11-25' }],
  practitioners: [{ name: 'Sam Jones', role: 'practitioner', appointed_on: '2026-11-25' }],
};

function insolvencyEvent(timepoint: number, publishedAt: string, cases: unknown[]): string {
  return eventLine(
    timepoint,
    publishedAt,
    `/company/${ACME}/insolvency`,
    { etag: `e${timepoint}`, cases, status: 'liquidation' },
    { kind: 'company-insolvency' },
  );
}

for (const kind of testStores) {
  describe(`${kind.name}: following the insolvency-cases stream`, () => {
    const db = useStore(kind);
    let server: FakeStreamServer;
    let follower: Follower;
    let watcher: WatchingKey;

    before(async () => {
      await db.store.upsertCompanies(
        [company(ACME, { name: 'ACME LIMITED', accounts_next_due: '2099-09-30' })],
        '2026-11-01',
      );
      watcher = await watchWithEndpoint(db.sql, db.store, [ACME]);
      server = await startFakeStreamServer({ key: 'k' });
      follower = startFollower(
        {
          ledger: createStreamLedger(db.sql),
          appliers: [insolvencyApplier()],
          detection: {
            store: db.store,
            ownership: createOwnershipReader(db.sql),
            detections: createAlertDetectionStore(db.sql),
          },
        },
        {
          baseUrl: server.url,
          key: 'k',
          get: get as StreamGet,
          stallMs: 2_000,
          lease: { holder: 'test-follower', seconds: 30 },
          backoffMs: 10,
          log: () => undefined,
        },
      );
      await waitFor('the follower to connect', async () => server.connected(STREAM) > 0);
    });
    after(async () => {
      await follower.stop();
      await Promise.all([server.close(), watcher.close()]);
    });

    const position = async () =>
      (
        await db.sql.query<{ t: string }>(`SELECT timepoint::text AS t FROM stream_positions WHERE stream = $1`, [
          STREAM,
        ])
      ).rows[0]?.t;
    const detections = async () =>
      (
        await db.sql.query<{ alert_key: string }>(
          `SELECT alert_key FROM alert_detections WHERE key_id = $1 ORDER BY alert_key`,
          [watcher.keyId],
        )
      ).rows.map((row) => row.alert_key);
    const deliveries = async () =>
      Number((await db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM webhook_deliveries`)).rows[0]!.n);
    const stored = async () =>
      (
        await db.sql.query<{ cases: unknown; published_at: string }>(
          `SELECT cases, to_char(stream_published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS published_at
           FROM company_insolvency WHERE company_number = $1`,
          [ACME],
        )
      ).rows[0];
    const touched = async () =>
      (
        await db.sql.query<{ at: string }>(`SELECT updated_at::text AS at FROM companies WHERE company_number = $1`, [
          ACME,
        ])
      ).rows[0]!.at;
    const alertsNow = async () => {
      const watched = await createWatchlistStore(db.sql).list(watcher.keyId);
      const [watch] = await alertsOfWatched(
        { store: db.store, ownership: createOwnershipReader(db.sql) },
        watched,
        '2026-11-27',
      );
      return { added: watched[0]!.added.slice(0, 10), alerts: watch!.alerts };
    };

    test('a new insolvency case reaches get_alerts as insolvency (high) and a signed webhook', async () => {
      server.publish(STREAM, [insolvencyEvent(1, '2026-11-26T10:00:00', [liquidation])]);
      await waitFor('the insolvency alert', async () => (await detections()).length > 0);
      const { added, alerts } = await alertsNow();
      assert.deepEqual(
        alerts.map((a) => [a.kind, a.severity, a.from, a.to, a.detected]),
        [['insolvency', 'high', 0, 1, added > '2026-11-20' ? added : '2026-11-20']],
      );
      assert.equal(
        alerts[0]!.message,
        'New insolvency case: creditors voluntary liquidation (case 1), wound up on 2026-11-20, practitioner Jane Smith.',
      );
      const sender = createWebhookSender({
        store: watcher.webhooks,
        transport: createHttpWebhookTransport(),
        allowPrivate: true,
      });
      await waitFor('the webhook to be received', async () => {
        await sender.runOnce();
        return watcher.received.length > 0;
      });
      assert.equal(watcher.unverified, 0);
      assert.deepEqual(
        watcher.received.map((body) => [body.type, body.data.alert.kind, body.data.alert.company_number]),
        [['alert.insolvency', 'insolvency', ACME]],
      );
    });

    test('the same cases again, and an older event out of order, change nothing', async () => {
      const before = {
        row: await stored(),
        detections: await detections(),
        deliveries: await deliveries(),
        touched: await touched(),
      };
      server.publish(STREAM, [
        insolvencyEvent(2, '2026-11-26T10:05:00', [liquidation]),
        // Published before the stored event: it must not take the case away again.
        insolvencyEvent(3, '2026-11-26T09:00:00', []),
      ]);
      await waitFor('both applied', async () => (await position()) === '3');
      const row = await stored();
      assert.deepEqual(row!.cases, before.row!.cases);
      assert.deepEqual(await detections(), before.detections);
      assert.equal(await deliveries(), before.deliveries);
      assert.equal(await touched(), before.touched, 'the company is not marked changed again');
      assert.deepEqual(
        (await alertsNow()).alerts.map((a) => [a.kind, a.to]),
        [['insolvency', 1]],
      );
    });

    test('a later case is a new alert', async () => {
      server.publish(STREAM, [insolvencyEvent(4, '2026-11-26T12:00:00', [liquidation, administration])]);
      await waitFor('the second alert', async () => (await detections()).length === 2);
      const { alerts } = await alertsNow();
      assert.deepEqual(
        alerts.map((a) => [a.kind, a.from, a.to]),
        [['insolvency', 0, 2]],
      );
      assert.match(
        alerts[0]!.message,
        /^New insolvency cases: creditors voluntary liquidation .*; in administration \(case 2\), administration started on 2026-11-25, practitioner Sam Jones\.$/,
      );
    });

    test('an event whose case cannot be read is kept in stream_rejects, never applied in part', async () => {
      server.publish(STREAM, [
        insolvencyEvent(5, '2026-11-26T13:00:00', [
          liquidation,
          { ...administration, dates: [{ type: 'x', date: '26/11/2026' }] },
        ]),
      ]);
      await waitFor('it to be passed', async () => (await position()) === '5');
      const rejects = await db.sql.query<{ reason: string }>(`SELECT reason FROM stream_rejects WHERE stream = $1`, [
        STREAM,
      ]);
      assert.deepEqual(
        rejects.rows.map((r) => r.reason),
        ['case 2 has a date that is not YYYY-MM-DD: "26/11/2026"'],
      );
      assert.equal((await stored())!.published_at, '2026-11-26T12:00:00');
    });
  });
}
