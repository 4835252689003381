/**
 * The AlertDetectionStore contract on every store (PGlite and a real PostgreSQL server), and
 * detectAlerts over it: changes found since a time, watches found by company number, each alert
 * recorded and queued once, in one transaction with its deliveries.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import { alertEvent, alertEventType, alertKey } from '../../src/alert-detection/alert-events.ts';
import type { KeyAlertEvent } from '../../src/domain/alert-events.ts';
import { detectAlerts } from '../../src/alert-detection/detect-alerts.ts';
import type { AlertDetectionDeps } from '../../src/alert-detection/detect-alerts.ts';
import type { AlertDetectionStore } from '../../src/ports/alert-detection.ts';
import type { Alert } from '../../src/domain/alerts.ts';
import { watchSnapshot } from '../../src/domain/watch-snapshot.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type { WebhookStore } from '../../src/ports/webhooks.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company } from '../support/store-records.ts';

let keys = 0;
async function newKey(sql: Sql): Promise<number> {
  keys += 1;
  const result = await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'pro') RETURNING id`,
    [`detect-hash-${process.pid}-${keys}`, `ukcd_d${String(keys).padStart(7, '0')}`],
  );
  return result.rows[0]!.id;
}

/** A new key watching these companies (snapshots do not matter to recording). */
async function watcherOf(sql: Sql, ...numbers: string[]): Promise<number> {
  const key = await newKey(sql);
  await sql.query(
    `INSERT INTO watchlist_entries (key_id, company_number, snapshot) SELECT $1, n, '{}' FROM unnest($2::text[]) AS n`,
    [key, numbers],
  );
  return key;
}

function statusAlert(number: string, to: string): Alert {
  return {
    company_number: number,
    name: `COMPANY ${number} LIMITED`,
    kind: 'status_change',
    severity: 'high',
    message: `Status changed from Active to ${to}.`,
    detected: '2025-07-01',
    from: 'Active',
    to,
  };
}

function event(keyId: number, alert: Alert): KeyAlertEvent {
  const record = {
    company: { ...company(alert.company_number), removed_from_register: null, snapshot_date: '2025-07-01' },
    accounts: [],
  };
  return {
    keyId,
    alertKey: alertKey(alert),
    eventType: alertEventType(alert.kind),
    payload: alertEvent(alert, record),
  };
}

for (const kind of testStores) {
  describe(`${kind.name}: AlertDetectionStore`, () => {
    const db = useStore(kind);
    let detections: AlertDetectionStore;
    let webhooks: WebhookStore;
    before(() => {
      detections = createAlertDetectionStore(db.sql);
      webhooks = createWebhookStore(db.sql, createSecretSealer(randomBytes(32)));
    });
    const endpoint = async (keyId: number, events: string[] | null) => {
      const created = await webhooks.createEndpoint(
        { keyId, url: 'http://127.0.0.1:9/hook', events, description: null, secret: newWebhookSecret() },
        10,
      );
      assert.ok(created.endpoint);
      return created.endpoint.id;
    };
    const outbox = async (endpointId: string) =>
      (
        await db.sql.query<{ event_key: string; event_type: string; payload: unknown }>(
          `SELECT event_key, event_type, payload FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id`,
          [endpointId],
        )
      ).rows;

    test('the detection mark: none before the first run, and it never moves back', async () => {
      assert.equal(await detections.detectedThrough(), null);
      await detections.recordDetectedThrough('2026-01-02T03:04:05.678Z');
      assert.equal(await detections.detectedThrough(), '2026-01-02T03:04:05.678Z');
      await detections.recordDetectedThrough('2026-01-01T00:00:00.000Z');
      assert.equal(await detections.detectedThrough(), '2026-01-02T03:04:05.678Z');
      const now = await detections.now();
      assert.match(now, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      await detections.recordDetectedThrough(now);
      assert.equal(await detections.detectedThrough(), now);
    });

    test('changed companies: those written after a time, in number order and in batches; all of them without one', async () => {
      await db.store.upsertCompanies([company('10000003'), company('10000001')], '2025-01-01');
      // now() is read to the millisecond: writes in the same millisecond could fall on either side.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const between = await detections.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await db.store.upsertCompanies([company('10000005'), company('10000004'), company('10000002')], '2025-01-01');
      const read = async (since: string | null) => {
        const batches = [];
        for await (const batch of detections.changedCompanies(since, 2)) batches.push(batch);
        return batches;
      };
      assert.deepEqual(await read(between), [['10000002', '10000004'], ['10000005']]);
      const all = (await read(null)).flat();
      for (const number of ['10000001', '10000002', '10000003', '10000004', '10000005'])
        assert.ok(all.includes(number), number);
      assert.deepEqual(all, [...all].sort());
      // Written again unchanged: not a change.
      const later = await detections.now();
      await db.store.upsertCompanies([company('10000001')], '2025-01-01');
      assert.deepEqual(await read(later), []);
    });

    test("watches of companies: every key's, by company number, through the index", async () => {
      const watchlists = createWatchlistStore(db.sql);
      const [a, b] = [await newKey(db.sql), await newKey(db.sql)];
      const snapshot = watchSnapshot({
        company: { ...company('20000001'), removed_from_register: null, snapshot_date: '2025-01-01' },
        accounts: [],
      });
      await watchlists.add(a, [{ company_number: '20000001', snapshot }], 10, '2025-02-03T04:05:06.789Z');
      await watchlists.add(
        b,
        [
          { company_number: '20000001', snapshot },
          { company_number: '20000002', snapshot },
        ],
        10,
      );
      const watches = await detections.watchesOf(['20000001', '20000003']);
      assert.deepEqual(
        watches.map((w) => [w.key_id, w.company_number]),
        [
          [a, '20000001'],
          [b, '20000001'],
        ],
      );
      assert.equal(watches[0]!.added, '2025-02-03T04:05:06.789Z');
      assert.deepEqual(watches[0]!.snapshot, snapshot);
      assert.deepEqual(await detections.watchesOf([]), []);
      assert.equal(await detections.anyWatched(), true);
      const index = await db.sql.query(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'watchlist_entries' AND indexname = 'watchlist_entries_company'`,
      );
      assert.equal(index.rowCount, 1);
    });

    test('recorded once and queued for the subscribed endpoints of its key, in one transaction', async () => {
      const [key, other] = [await watcherOf(db.sql, '30000001'), await watcherOf(db.sql, '30000001')];
      const all = await endpoint(key, null);
      const statusOnly = await endpoint(key, ['alert.status_change']);
      const accountsOnly = await endpoint(key, ['alert.new_accounts']);
      const othersEndpoint = await endpoint(other, null);
      const liquidation = event(key, statusAlert('30000001', 'Liquidation'));

      const first = await detections.recordDetected([liquidation, liquidation]);
      assert.deepEqual(first, { recorded: [liquidation], deliveries: 2 });
      const [delivered] = await outbox(all);
      assert.deepEqual(delivered, {
        event_key: liquidation.alertKey,
        event_type: 'alert.status_change',
        payload: JSON.parse(JSON.stringify(liquidation.payload)),
      });
      assert.equal((await outbox(statusOnly)).length, 1);
      assert.equal((await outbox(accountsOnly)).length, 0);
      assert.equal((await outbox(othersEndpoint)).length, 0);

      // Found again: nothing recorded, nothing queued; not even for an endpoint registered since.
      const later = await endpoint(key, null);
      assert.deepEqual(await detections.recordDetected([liquidation]), { recorded: [], deliveries: 0 });
      assert.equal((await outbox(later)).length, 0);
      assert.equal((await outbox(all)).length, 1);

      // Moved on (Dissolved): a new alert.
      const dissolved = event(key, statusAlert('30000001', 'Dissolved'));
      assert.deepEqual(await detections.recordDetected([liquidation, dissolved]), {
        recorded: [dissolved],
        deliveries: 3,
      });

      // The same alert for another key is that key's own.
      const forOther = event(other, statusAlert('30000001', 'Liquidation'));
      assert.deepEqual(await detections.recordDetected([forOther]), { recorded: [forOther], deliveries: 1 });
    });

    test('an outbox write that fails records no detection: the next run finds the alert new', async () => {
      const key = await watcherOf(db.sql, '40000001');
      const hook = await endpoint(key, null);
      const alert = event(key, statusAlert('40000001', 'Liquidation'));
      // A payload the outbox cannot write (JSON has no BigInt): its insert fails after the detection's.
      const unwritable = { ...alert, payload: { ...alert.payload, extra: 1n } };
      await assert.rejects(detections.recordDetected([unwritable]), /BigInt/);
      assert.equal((await outbox(hook)).length, 0);
      assert.deepEqual(await detections.recordDetected([alert]), { recorded: [alert], deliveries: 1 });
    });

    test('a key that no longer watches the company (removed since its watches were read) gets nothing', async () => {
      const key = await watcherOf(db.sql, '55000001');
      const hook = await endpoint(key, null);
      await createWatchlistStore(db.sql).remove(key, ['55000001']);
      const alert = event(key, statusAlert('55000001', 'Liquidation'));
      assert.deepEqual(await detections.recordDetected([alert]), { recorded: [], deliveries: 0 });
      assert.equal((await outbox(hook)).length, 0);
    });

    test('a disabled endpoint gets nothing; a key without endpoints still has the alert recorded', async () => {
      const key = await watcherOf(db.sql, '50000001');
      const hook = await endpoint(key, null);
      await db.sql.query(`UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [
        hook,
      ]);
      const alert = event(key, statusAlert('50000001', 'Liquidation'));
      assert.deepEqual(await detections.recordDetected([alert]), { recorded: [alert], deliveries: 0 });
      const bare = await watcherOf(db.sql, '50000001');
      const alone = event(bare, statusAlert('50000001', 'Liquidation'));
      assert.deepEqual(await detections.recordDetected([alone]), { recorded: [alone], deliveries: 0 });
      assert.deepEqual(await detections.recordDetected([]), { recorded: [], deliveries: 0 });
    });
  });

  describe(`${kind.name}: detectAlerts`, () => {
    const db = useStore(kind);
    let deps: AlertDetectionDeps;
    let webhooks: WebhookStore;
    before(() => {
      deps = {
        detections: createAlertDetectionStore(db.sql),
        store: db.store,
        ownership: createOwnershipReader(db.sql),
      };
      webhooks = createWebhookStore(db.sql, createSecretSealer(randomBytes(32)));
    });

    test('with no watch, nothing is read; the mark moves on', async () => {
      await db.store.upsertCompanies([company('60000001')], '2025-01-01');
      const summary = await detectAlerts(deps, { log: () => {} });
      assert.deepEqual(
        { ...summary, asOf: '' },
        { companies: 0, watches: 0, alerts: 0, keys: 0, deliveries: 0, asOf: '' },
      );
      assert.notEqual(await deps.detections.detectedThrough(), null);
    });

    test('the changed companies a key watches, in batches: each alert once, the line logged', async () => {
      const watchlists = createWatchlistStore(db.sql);
      const [watcher, bystander] = [await newKey(db.sql), await newKey(db.sql)];
      const hook = await webhooks.createEndpoint(
        { keyId: watcher, url: 'http://127.0.0.1:9/hook', events: null, description: null, secret: newWebhookSecret() },
        10,
      );
      assert.ok(hook.endpoint);
      const numbers = ['60000002', '60000003', '60000004'];
      await db.store.upsertCompanies(
        numbers.map((n) => company(n)),
        '2025-01-01',
      );
      const watched = await db.store.getCompanies(numbers);
      await watchlists.add(
        watcher,
        watched.map((c) => ({ company_number: c.company.company_number, snapshot: watchSnapshot(c, []) })),
        10,
      );
      await detectAlerts(deps, { log: () => {} });

      // Two of the three go into liquidation; a company nobody watches changes too.
      await db.store.upsertCompanies(
        [
          company('60000002', { status: 'Liquidation' }),
          company('60000004', { status: 'Liquidation' }),
          company('60000009', { status: 'Liquidation' }),
        ],
        '2025-02-01',
      );
      const lines: string[] = [];
      const summary = await detectAlerts(deps, { batchSize: 1, log: (line) => lines.push(line) });
      assert.equal(summary.alerts, 2);
      assert.equal(summary.keys, 1);
      assert.equal(summary.deliveries, 2);
      assert.equal(summary.watches >= 2, true);
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /^alerts: 2 new for 1 key, 2 deliveries queued \(/);
      const queued = await webhooks.recentDeliveries(watcher, hook.endpoint.id, 10);
      assert.deepEqual(
        queued.map((d) => d.event_type),
        ['alert.status_change', 'alert.status_change'],
      );
      assert.equal((await deps.detections.recordDetected([])).deliveries, 0);
      const bystanders = await db.sql.query('SELECT 1 FROM alert_detections WHERE key_id = $1', [bystander]);
      assert.equal(bystanders.rowCount, 0);

      // The same state loaded again, and a run with nothing new: nothing more.
      await db.store.upsertCompanies([company('60000002', { status: 'Liquidation' })], '2025-03-01');
      const again = await detectAlerts(deps, { log: () => {} });
      assert.equal(again.alerts, 0);
      assert.equal(again.deliveries, 0);
      assert.equal((await webhooks.recentDeliveries(watcher, hook.endpoint.id, 10)).length, 2);
    });

    test('the changes of a load whose detection never ran (killed, failed) are caught by the next run', async () => {
      const watchlists = createWatchlistStore(db.sql);
      const key = await newKey(db.sql);
      await db.store.upsertCompanies([company('60000010')], '2025-01-01');
      const [watched] = await db.store.getCompanies(['60000010']);
      await watchlists.add(key, [{ company_number: '60000010', snapshot: watchSnapshot(watched!, []) }], 10);
      await detectAlerts(deps, { log: () => {} });
      // A load that writes and then dies before detecting anything.
      await db.store.upsertCompanies([company('60000010', { status: 'In Administration' })], '2025-02-01');
      // The next load changes something else; its run finds the first load's change too.
      await db.store.upsertCompanies([company('60000011')], '2025-02-01');
      const summary = await detectAlerts(deps, { log: () => {} });
      assert.equal(summary.alerts, 1);
      const recorded = await db.sql.query<{ kind: string }>('SELECT kind FROM alert_detections WHERE key_id = $1', [
        key,
      ]);
      assert.deepEqual(recorded.rows, [{ kind: 'status_change' }]);
    });

    test('accounts that fell due since the last run are found overdue, though no load changed the company', async () => {
      const watchlists = createWatchlistStore(db.sql);
      const key = await newKey(db.sql);
      const { yesterday, today } = (
        await db.sql.query<{ yesterday: string; today: string }>(
          `SELECT ((now() AT TIME ZONE 'UTC')::date - 1)::text AS yesterday, (now() AT TIME ZONE 'UTC')::date::text AS today`,
        )
      ).rows[0]!;
      const numbers = ['70000001', '70000002', '70000003'];
      // Due yesterday (overdue today), due today (not yet), and one due yesterday that nobody watches.
      await db.store.upsertCompanies(
        [
          company('70000001', { accounts_next_due: yesterday }),
          company('70000002', { accounts_next_due: today }),
          company('70000003', { accounts_next_due: yesterday }),
        ],
        '2025-01-01',
      );
      const watched = await db.store.getCompanies(numbers.slice(0, 2));
      await watchlists.add(
        key,
        watched.map((c) => ({ company_number: c.company.company_number, snapshot: watchSnapshot(c, []) })),
        10,
        '2020-01-01T00:00:00.000Z',
      );
      // As if written two days ago and last detected yesterday: no change since, only a date passing.
      await db.sql.query(`UPDATE companies SET updated_at = now() - interval '2 days' WHERE company_number = ANY($1)`, [
        numbers,
      ]);
      await db.sql.query(`UPDATE alert_detection_runs SET detected_through = now() - interval '1 day'`);
      assert.deepEqual(await deps.detections.watchedFallingDue(yesterday, today), ['70000001']);

      const summary = await detectAlerts(deps, { log: () => {} });
      assert.equal(summary.alerts, 1);
      const recorded = await db.sql.query<{ company_number: string; kind: string }>(
        'SELECT company_number, kind FROM alert_detections WHERE key_id = $1',
        [key],
      );
      assert.deepEqual(recorded.rows, [{ company_number: '70000001', kind: 'overdue_accounts' }]);
      // Later the same day: nothing more.
      assert.equal((await detectAlerts(deps, { log: () => {} })).alerts, 0);
    });

    test('a run records its look no further than a transaction still open, whose rows it could not read', async () => {
      // A load's batch dates its rows with its transaction's start: a mark past that start would
      // leave the batch, committed after the run read, unread by every later run.
      await db.store.upsertCompanies([company('70000011')], '2025-01-01');
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => (commit = resolve));
      let begun!: (at: string) => void;
      const started = new Promise<string>((resolve) => (begun = resolve));
      const writer = db.sql.transaction(async (tx) => {
        await tx.query(`UPDATE companies SET status = 'Liquidation', updated_at = now() WHERE company_number = $1`, [
          '70000011',
        ]);
        begun((await tx.query<{ at: string }>(`SELECT now()::text AS at`)).rows[0]!.at);
        await committed;
      });
      try {
        const writerStart = await started;
        if (db.sql.dialect === 'pglite') {
          // One connection: the writer holds it, so a run would wait for it; nothing else to show.
          commit();
          await writer;
          return;
        }
        // The database clock past the writer's start by more than the mark's millisecond, so that
        // a mark taken at the run's start would be seen to pass it.
        while (
          !(
            await db.sql.query<{ past: boolean }>(
              `SELECT clock_timestamp() > $1::timestamptz + interval '2 milliseconds' AS past`,
              [writerStart],
            )
          ).rows[0]!.past
        );
        await detectAlerts(deps, { log: () => {} });
        const mark = await db.sql.query<{ before: boolean }>(
          `SELECT detected_through < $1::timestamptz AS before FROM alert_detection_runs`,
          [writerStart],
        );
        assert.equal(mark.rows[0]!.before, true, 'the mark stops short of the open transaction');
      } finally {
        commit();
        await writer;
      }
      const summary = await detectAlerts(deps, { log: () => {} });
      assert.ok(summary.companies >= 1, 'the committed batch is read by the next run');
    });
  });
}
