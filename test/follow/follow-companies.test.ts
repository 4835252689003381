/**
 * The follower against a local server speaking the Streaming API's protocol, on PGlite and on
 * PostgreSQL: a watched company's status change on the companies stream reaches get_alerts and a
 * signed webhook; a drop mid-line, a 429, a stall, duplicates and an event published out of order
 * leave the store as the events say, each applied once; a 416 restarts the stream from now and
 * records the gap; a deleted profile marks the company removed from the register.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { companiesApplier } from '../../src/adapters/postgres/stream-companies.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import { alertsOfWatched } from '../../src/alert-detection/watched-alerts.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { startFollower } from '../../src/follow/follower.ts';
import type { Follower } from '../../src/follow/follower.ts';
import type { StreamGet } from '../../src/follow/follow-stream.ts';
import { get } from '../../src/net/http-get.ts';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company } from '../support/store-records.ts';
import { eventLine, startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { companyEvent, waitFor, watchWithEndpoint } from '../support/stream-world.ts';
import type { WatchingKey } from '../support/stream-world.ts';

const ACME = '00000001';
const BETA = '00000002';

for (const kind of testStores) {
  describe(`${kind.name}: following the companies stream`, () => {
    const db = useStore(kind);
    let server: FakeStreamServer;
    let follower: Follower;
    let watcher: WatchingKey;
    const log: string[] = [];

    before(async () => {
      await db.store.upsertCompanies(
        [
          company(ACME, { name: 'ACME LIMITED', accounts_next_due: '2099-09-30' }),
          company(BETA, { name: 'BETA LIMITED', accounts_next_due: '2099-09-30' }),
        ],
        '2026-11-01',
      );
      watcher = await watchWithEndpoint(db.sql, db.store, [ACME]);
      server = await startFakeStreamServer({ key: 'the-key' });
      follower = startFollower(
        {
          ledger: createStreamLedger(db.sql),
          appliers: [companiesApplier()],
          detection: {
            store: db.store,
            ownership: createOwnershipReader(db.sql),
            detections: createAlertDetectionStore(db.sql),
          },
        },
        {
          baseUrl: server.url,
          key: 'the-key',
          get: get as StreamGet,
          stallMs: 400,
          lease: { holder: 'test-follower', seconds: 30 },
          backoffMs: 10,
          maxBackoffMs: 50,
          log: (line) => log.push(line),
        },
      );
      await waitFor('the follower to connect', async () => server.connected('companies') > 0);
    });
    after(async () => {
      await follower.stop();
      await server.close();
      await watcher.close();
    });

    const stored = async (number: string) =>
      (
        await db.sql.query<{ name: string; status: string; stream_timepoint: string | null }>(
          `SELECT name, status, stream_timepoint::text FROM companies WHERE company_number = $1`,
          [number],
        )
      ).rows[0];
    const position = async () =>
      (
        await db.sql.query<{ timepoint: string | null; events_applied: string }>(
          `SELECT timepoint::text, events_applied::text FROM stream_positions WHERE stream = 'companies'`,
        )
      ).rows[0];

    test('a status change reaches get_alerts and a signed webhook', async () => {
      server.publish('companies', [
        companyEvent(100, '2026-11-27T09:00:00', ACME, { company_name: 'ACME LIMITED', company_status: 'liquidation' }),
      ]);
      await waitFor('the alert to be recorded', async () => {
        const rows = await db.sql.query(`SELECT 1 FROM alert_detections WHERE key_id = $1`, [watcher.keyId]);
        return rows.rowCount > 0;
      });
      const watched = await createWatchlistStore(db.sql).list(watcher.keyId);
      const alerts = (
        await alertsOfWatched({ store: db.store, ownership: createOwnershipReader(db.sql) }, watched, '2026-11-27')
      ).flatMap((w) => w.alerts);
      assert.deepEqual(
        alerts.map((a) => [a.kind, a.severity, a.from, a.to, a.detected]),
        [['status_change', 'high', 'Active', 'Liquidation', '2026-11-27']],
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
        watcher.received.map((body) => [body.type, body.data.alert.company_number, body.data.company.status]),
        [['alert.status_change', ACME, 'Liquidation']],
      );
      assert.deepEqual(await position(), { timepoint: '100', events_applied: '1' });
      assert.equal(server.requests[0]!.authorization, `Basic ${Buffer.from('the-key:').toString('base64')}`);
    });

    test('a drop mid-line, a 429, a stall, duplicates and an event out of order: each applied once', async () => {
      const requestsBefore = server.requests.length;
      // The live connection is cut mid-line; the next ones are cut mid-line after two events, then
      // answered 429, then stall after one event (open, silent, not even a heartbeat).
      server.fail('companies', { dropAfter: 2 });
      server.fail('companies', { status: 429, retryAfter: '0' });
      server.fail('companies', { stallAfter: 1 });
      server.cut('companies');
      const renamed = companyEvent(101, '2026-11-27T09:01:00', BETA, { company_name: 'BETA TWO LIMITED' });
      server.publish('companies', [
        renamed,
        companyEvent(102, '2026-11-27T09:02:00', BETA, { company_name: 'BETA THREE LIMITED' }),
        // A duplicate of 102's change, and one published before 102 that arrives after it.
        companyEvent(103, '2026-11-27T09:02:00', BETA, { company_name: 'BETA THREE LIMITED' }),
        companyEvent(104, '2026-11-27T08:59:00', BETA, { company_name: 'BETA OLD NAME LIMITED' }),
      ]);
      await waitFor('every event applied', async () => (await position())?.timepoint === '104');
      assert.deepEqual(await stored(BETA), { name: 'BETA THREE LIMITED', status: 'Active', stream_timepoint: '103' });
      const resumed = server.requests.slice(requestsBefore).map((r) => r.timepoint);
      assert.ok(
        resumed.every((timepoint) => timepoint !== null && timepoint >= 100),
        JSON.stringify(resumed),
      );
      assert.ok(
        log.some((line) => /stalled/.test(line)),
        log.join('\n'),
      );
      assert.ok(
        log.some((line) => /429/.test(line)),
        log.join('\n'),
      );
      assert.ok(
        log.some((line) => /mid-line/.test(line)),
        log.join('\n'),
      );
    });

    test('a 416 says so, restarts from now and records the gap', async () => {
      server.expireBefore('companies', 1_000);
      const before = server.requests.length;
      // The next connection asks for timepoint 104, which the server no longer holds.
      server.cut('companies');
      await waitFor('the gap to be recorded', async () => {
        const gaps = await db.sql.query<{ after_timepoint: string }>(
          `SELECT after_timepoint::text FROM stream_gaps WHERE stream = 'companies'`,
        );
        return gaps.rows[0];
      });
      await waitFor('a connection from now', async () =>
        server.requests.slice(before).some((r) => r.timepoint === null),
      );
      assert.ok(
        log.some((line) => /416/.test(line) && /reading it from now/.test(line)),
        log.join('\n'),
      );
      await waitFor('the follower to listen again', async () => server.connected('companies') > 0);
      server.publish('companies', [
        companyEvent(1_001, '2026-11-27T10:00:00', BETA, { company_name: 'BETA NEW LIMITED' }),
      ]);
      await waitFor('the event after the gap applied', async () => (await stored(BETA))?.name === 'BETA NEW LIMITED');
    });

    test('a deleted profile marks the company removed from the register; an older deletion changes nothing', async () => {
      const removed = async (number: string) =>
        (
          await db.sql.query<{ status: string; removed: string | null }>(
            `SELECT status, removed_from_register::text AS removed FROM companies WHERE company_number = $1`,
            [number],
          )
        ).rows[0];
      const deleted = (timepoint: number, publishedAt: string, number: string) =>
        eventLine(timepoint, publishedAt, `/company/${number}`, { company_number: number }, { type: 'deleted' });
      const alertsBefore = (await db.sql.query(`SELECT 1 FROM alert_detections WHERE key_id = $1`, [watcher.keyId]))
        .rowCount;
      server.publish('companies', [
        deleted(1_002, '2026-11-28T10:00:00', ACME),
        // Published before BETA's last change (09:00 < 10:00 on the 27th): changes nothing.
        deleted(1_003, '2026-11-27T09:00:00', BETA),
      ]);
      await waitFor('the deletions applied', async () => (await position())?.timepoint === '1003');
      assert.deepEqual(await removed(ACME), { status: 'Dissolved', removed: '2026-11-28' });
      assert.deepEqual(await removed(BETA), { status: 'Active', removed: null });
      // The watched company's removal is an alert, as a snapshot's removal would be.
      await waitFor('the removal alert', async () => {
        const rows = await db.sql.query(`SELECT 1 FROM alert_detections WHERE key_id = $1`, [watcher.keyId]);
        return rows.rowCount > alertsBefore;
      });
      // A later profile brings it back on the register.
      server.publish('companies', [
        companyEvent(1_004, '2026-11-28T11:00:00', ACME, { company_name: 'ACME LIMITED', company_status: 'active' }),
      ]);
      await waitFor('the company back', async () => (await removed(ACME))?.removed === null);
      assert.equal((await removed(ACME))?.status, 'Active');
    });
  });
}
