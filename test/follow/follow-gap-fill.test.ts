/**
 * The REST catch-up of a gap, on PGlite and on PostgreSQL: the stream server answers 416 for the
 * position the follower resumes from, and the local Public Data API serves the watched companies'
 * profiles and insolvency cases as they are now. A watched company whose status changed during
 * the gap gets its alerts and its signed webhook; a company nobody watches is not fetched; the gap
 * is marked filled with its counts; a catch-up interrupted resumes after the last company done,
 * by one process at a time; an officers list whose page fails deletes nothing, and read whole on
 * the retry it deletes the appointment it no longer shows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCompaniesHouseApi } from '../../src/adapters/companies-house/api-client.ts';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOfficersApplier } from '../../src/adapters/postgres/officer-appliers.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { chargesApplier } from '../../src/adapters/postgres/stream-charges.ts';
import { companiesApplier } from '../../src/adapters/postgres/stream-companies.ts';
import { createStreamGaps } from '../../src/adapters/postgres/stream-gaps.ts';
import { insolvencyApplier } from '../../src/adapters/postgres/stream-insolvency.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import { detectAlertsOf } from '../../src/alert-detection/detect-alerts.ts';
import { startGapFiller } from '../../src/follow/fill-gaps.ts';
import { startFollower } from '../../src/follow/follower.ts';
import type { Follower } from '../../src/follow/follower.ts';
import type { StreamGet } from '../../src/follow/follow-stream.ts';
import { get } from '../../src/net/http-get.ts';
import { officerItem } from '../../src/synthetic/officers.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company } from '../support/store-records.ts';
import { eventLine, startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { companyEvent, profile, waitFor, watchWithEndpoint } from '../support/stream-world.ts';
import type { WatchingKey } from '../support/stream-world.ts';

const ACME = '00000001';
const BETA = '00000002';
const CARE = '00000003';

const liquidation = {
  number: '1',
  type: 'creditors-voluntary-liquidation',
  dates: [{ type: 'wound-up-on', date: '2026-11-20' }],
  practitioners: [{ name: 'Jane Smith', role: 'practitioner', appointed_on: '2026-11-20' }],
};

for (const kind of testStores) {
  describe(`${kind.name}: a gap (416) caught up through the REST API`, () => {
    const db = useStore(kind);
    let server: FakeStreamServer;
    let api: FakeCompaniesHouseApi;
    let follower: Follower;
    let watcher: WatchingKey;
    const log: string[] = [];

    before(async () => {
      await db.store.upsertCompanies(
        [ACME, BETA, CARE].map((n) => company(n, { accounts_next_due: '2099-09-30' })),
        '2026-11-01',
      );
      watcher = await watchWithEndpoint(db.sql, db.store, [ACME, BETA]);
      server = await startFakeStreamServer({ key: 'k' });
      api = await startFakeCompaniesHouseApi();
      // What the API says now: ACME went into liquidation while the follower could not read the
      // streams; BETA is as it was.
      api.json(`/company/${ACME}`, profile(ACME, { company_status: 'liquidation' }));
      api.json(`/company/${ACME}/insolvency`, { etag: 'e', cases: [liquidation], status: 'liquidation' });
      api.json(`/company/${BETA}`, profile(BETA));
      follower = startFollower(
        {
          ledger: createStreamLedger(db.sql),
          appliers: [companiesApplier(), insolvencyApplier()],
          detection: {
            store: db.store,
            ownership: createOwnershipReader(db.sql),
            detections: createAlertDetectionStore(db.sql),
          },
          gapFill: {
            gaps: createStreamGaps(db.sql),
            api: createCompaniesHouseApi({ apiUrl: api.url, documentApiUrl: api.url, key: 'api-key' }),
            profiles: companiesApplier(),
          },
        },
        {
          baseUrl: server.url,
          key: 'k',
          get: get as StreamGet,
          stallMs: 2_000,
          lease: { holder: 'test-follower', seconds: 30 },
          backoffMs: 10,
          maxBackoffMs: 50,
          log: (line) => log.push(line),
        },
      );
      await waitFor(
        'the follower to connect',
        async () => server.connected('companies') > 0 && server.connected('insolvency-cases') > 0,
      );
      // Each stream gets a position, from which the next connection will resume.
      server.publish('companies', [companyEvent(1, '2026-11-20T09:00:00', CARE, { company_name: 'CARE LIMITED' })]);
      server.publish('insolvency-cases', [
        eventLine(1, '2026-11-20T09:00:00', `/company/${CARE}/insolvency`, { cases: [], status: null }),
      ]);
      await waitFor('both positions', async () => {
        const rows = await db.sql.query(`SELECT 1 FROM stream_positions WHERE timepoint = 1`);
        return rows.rowCount === 2;
      });
    });
    after(async () => {
      await follower.stop();
      await Promise.all([server.close(), api.close(), watcher.close()]);
    });

    const gaps = async () =>
      (
        await db.sql.query<{ stream: string; filled: boolean; counts: Record<string, number> }>(
          `SELECT stream, filled_at IS NOT NULL AS filled, fill_counts AS counts FROM stream_gaps ORDER BY id`,
        )
      ).rows;

    test('a watched company whose status changed during the gap gets its alerts and webhooks', async () => {
      // The server no longer holds timepoint 1: both streams are answered 416 when they reconnect.
      server.expireBefore('companies', 1_000);
      server.expireBefore('insolvency-cases', 1_000);
      server.cut('companies');
      server.cut('insolvency-cases');
      await waitFor('both gaps filled', async () => {
        const rows = await gaps();
        return rows.length === 2 && rows.every((row) => row.filled);
      });
      const status = (
        await db.sql.query<{ status: string }>(`SELECT status FROM companies WHERE company_number = $1`, [ACME])
      ).rows[0]!.status;
      assert.equal(status, 'Liquidation');
      const kinds = (
        await db.sql.query<{ kind: string }>(
          `SELECT kind FROM alert_detections WHERE key_id = $1 AND company_number = $2 ORDER BY kind`,
          [watcher.keyId, ACME],
        )
      ).rows.map((row) => row.kind);
      assert.deepEqual(kinds, ['insolvency', 'status_change']);
      const sender = createWebhookSender({
        store: watcher.webhooks,
        transport: createHttpWebhookTransport(),
        allowPrivate: true,
      });
      await waitFor('both webhooks', async () => {
        await sender.runOnce();
        return watcher.received.length >= 2;
      });
      assert.deepEqual(watcher.received.map((body) => body.type).sort(), ['alert.insolvency', 'alert.status_change']);
      assert.equal(watcher.unverified, 0);
      // Nobody watches CARE: the catch-up leaves it to the next snapshot load.
      assert.ok(!api.requests.some((r) => r.path.includes(CARE)), JSON.stringify(api.requests.map((r) => r.path)));
      assert.equal(api.requests[0]!.authorization, `Basic ${Buffer.from('api-key:').toString('base64')}`);
      const byStream = Object.fromEntries(
        (await gaps()).map((row) => [row.stream, [row.counts.companies, row.counts.items, row.counts.not_found]]),
      );
      // Both watched companies fetched for each gap; ACME's insolvency resource is the one item (BETA
      // has none: 404). Which gap applied the profiles first depends on which 416 came first.
      assert.deepEqual(byStream, { companies: [2, 0, 0], 'insolvency-cases': [2, 1, 0] });
      assert.ok((await gaps()).some((row) => row.counts.applied! >= 2));
      assert.ok(
        log.some((line) => /^stream companies: gap \d+ filled through the REST API: 2 watched companies/.test(line)),
        log.join('\n'),
      );
    });

    test('a catch-up interrupted resumes after the last company done, by one process at a time', async () => {
      // A filler that did ACME and then died, its lease still live.
      const gap = (
        await db.sql.query<{ id: string }>(
          `INSERT INTO stream_gaps (stream, reason, fill_after_company, fill_counts, fill_holder, fill_lease_until)
           VALUES ('companies', 'test', $1, '{"companies": 1, "applied": 1, "not_found": 0, "items": 0}', 'crashed',
                   now() + interval '1 hour') RETURNING id::text`,
          [ACME],
        )
      ).rows[0]!.id;
      assert.deepEqual(await createStreamGaps(db.sql).claimOpen('another', 60), []);
      // Its lease runs out: another process takes the gap over.
      await db.sql.query(`UPDATE stream_gaps SET fill_lease_until = now() - interval '1 second' WHERE id = $1`, [gap]);
      const seen = api.requests.length;
      const filler = startGapFiller({
        gaps: createStreamGaps(db.sql),
        api: createCompaniesHouseApi({ apiUrl: api.url, documentApiUrl: api.url, key: 'api-key' }),
        profiles: companiesApplier(),
        appliers: [],
        log: () => undefined,
        holder: 'resumer',
      });
      try {
        await waitFor('the gap filled', async () => {
          const rows = await db.sql.query(`SELECT 1 FROM stream_gaps WHERE id = $1 AND filled_at IS NOT NULL`, [gap]);
          return rows.rowCount === 1;
        });
      } finally {
        await filler.stop();
      }
      assert.deepEqual(
        api.requests.slice(seen).map((r) => r.path),
        [`/company/${BETA}`],
      );
      const counts = (
        await db.sql.query<{ counts: Record<string, number> }>(
          `SELECT fill_counts AS counts FROM stream_gaps WHERE id = $1`,
          [gap],
        )
      ).rows[0]!.counts;
      // BETA's profile is applied unless the first test applied it within the same second.
      assert.deepEqual([counts.companies, counts.not_found, counts.items], [2, 0, 0]);
    });

    test('a charges gap: a charge delivered during it is counted and raises new_charges', async () => {
      const DELTA = '00000004';
      await db.store.upsertCompanies([company(DELTA, { accounts_next_due: '2099-09-30' })], '2026-11-01');
      const delta = await watchWithEndpoint(db.sql, db.store, [DELTA]);
      try {
        api.json(`/company/${DELTA}/charges?items_per_page=100&start_index=0`, {
          total_results: 1,
          items: [
            {
              charge_number: 1,
              status: 'outstanding',
              created_on: '2026-11-18',
              delivered_on: '2026-11-20',
              links: { self: `/company/${DELTA}/charges/charge-d1` },
            },
          ],
        });
        api.json(`/company/${DELTA}`, profile(DELTA));
        await db.sql.query(`INSERT INTO stream_gaps (stream, reason) VALUES ('charges', 'test')`);
        const detection = {
          store: db.store,
          ownership: createOwnershipReader(db.sql),
          detections: createAlertDetectionStore(db.sql),
        };
        const filler = startGapFiller({
          gaps: createStreamGaps(db.sql),
          api: createCompaniesHouseApi({ apiUrl: api.url, documentApiUrl: api.url, key: 'api-key' }),
          profiles: companiesApplier(),
          appliers: [chargesApplier()],
          afterFill: async (companies) => void (await detectAlertsOf(detection, companies)),
          log: () => undefined,
          holder: 'charges-filler',
        });
        try {
          await waitFor('the charges gap filled', async () => {
            const rows = await db.sql.query(
              `SELECT 1 FROM stream_gaps WHERE stream = 'charges' AND filled_at IS NOT NULL`,
            );
            return rows.rowCount === 1;
          });
        } finally {
          await filler.stop();
        }
        const counts = (
          await db.sql.query<{ total: number; outstanding: number }>(
            `SELECT charges_total AS total, charges_outstanding AS outstanding FROM companies WHERE company_number = $1`,
            [DELTA],
          )
        ).rows[0];
        assert.deepEqual(counts, { total: 1, outstanding: 1 });
        const kinds = (
          await db.sql.query<{ kind: string }>(`SELECT kind FROM alert_detections WHERE key_id = $1`, [delta.keyId])
        ).rows.map((row) => row.kind);
        assert.deepEqual(kinds, ['new_charges']);
      } finally {
        await delta.close();
      }
    });

    test('an officers gap: a page that fails deletes nothing; read whole on the retry, the one gone is deleted', async () => {
      const EPSILON = '00000005';
      await db.store.upsertCompanies([company(EPSILON, { accounts_next_due: '2099-09-30' })], '2026-11-01');
      const epsilon = await watchWithEndpoint(db.sql, db.store, [EPSILON]);
      const items = [1, 2, 3].map((personId) =>
        officerItem(7, { companyNumber: EPSILON, personId, appointedOn: '2020-01-01' }),
      );
      const links = items.map((item) => (item.links as { self: string }).self);
      try {
        await db.sql.transaction((tx) =>
          createOfficersApplier().apply(
            tx,
            items.map((data, i) => ({
              resource_kind: 'company-officers',
              resource_uri: links[i]!,
              resource_id: links[i]!.slice(links[i]!.lastIndexOf('/') + 1),
              data,
              event: { timepoint: 1, published_at: '2026-11-01T09:00:00', type: 'changed' },
            })),
          ),
        );
        // Appointment 2 was deleted during the gap. The list's second page fails once.
        const page = (start: number) => `/company/${EPSILON}/officers?items_per_page=100&start_index=${start}`;
        api.json(page(0), { items: [items[0]], items_per_page: 100, start_index: 0, total_results: 2 });
        api.json(page(1), { items: [items[2]], items_per_page: 100, start_index: 1, total_results: 2 });
        api.fail(page(1), { status: 500 });
        api.json(`/company/${EPSILON}`, profile(EPSILON));
        await db.sql.query(`INSERT INTO stream_gaps (stream, reason) VALUES ('officers', 'test')`);
        const deleted = () =>
          db.sql
            .query<{ deleted: boolean }>(
              `SELECT deleted FROM officers WHERE company_number = $1 ORDER BY appointment_id`,
              [EPSILON],
            )
            .then((result) => result.rows.map((row) => row.deleted));
        const atFailure: Promise<boolean[]>[] = [];
        const filler = startGapFiller(
          {
            gaps: createStreamGaps(db.sql),
            api: createCompaniesHouseApi({ apiUrl: api.url, documentApiUrl: api.url, key: 'api-key', attempts: 1 }),
            profiles: companiesApplier(),
            appliers: [createOfficersApplier()],
            // Read as soon as the failure is told, before the retry can write.
            log: (line) => void (line.includes('catch-up of a gap stopped') && atFailure.push(deleted())),
            holder: 'officers-filler',
          },
          { retryMs: 200 },
        );
        try {
          await waitFor('the officers gap filled', async () => {
            const rows = await db.sql.query(
              `SELECT 1 FROM stream_gaps WHERE stream = 'officers' AND filled_at IS NOT NULL`,
            );
            return rows.rowCount === 1;
          });
        } finally {
          await filler.stop();
        }
        assert.equal(atFailure.length, 1);
        assert.deepEqual(await atFailure[0], [false, false, false]);
        const appointment = (i: number) => links[i]!.slice(links[i]!.lastIndexOf('/') + 1);
        const rows = await db.sql.query<{ appointment_id: string; deleted: boolean }>(
          `SELECT appointment_id, deleted FROM officers WHERE company_number = $1`,
          [EPSILON],
        );
        assert.deepEqual(Object.fromEntries(rows.rows.map((row) => [row.appointment_id, row.deleted])), {
          [appointment(0)]: false,
          [appointment(1)]: true,
          [appointment(2)]: false,
        });
      } finally {
        await epsilon.close();
      }
    });
  });
}
