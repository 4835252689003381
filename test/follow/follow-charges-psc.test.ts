/**
 * The charges and PSC streams, on PGlite and on PostgreSQL: a charge delivered today raises
 * new_charges once (its duplicate changes nothing, its satisfaction moves it between the counts);
 * a PSC notified on the stream, read by the snapshot's own parser, raises control_change; one whose
 * only change is its identity verification (a record the snapshot keyed by its etag, coming back
 * under the stream's id) raises none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { chargesApplier } from '../../src/adapters/postgres/stream-charges.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import { pscApplier } from '../../src/adapters/postgres/stream-pscs.ts';
import { startFollower } from '../../src/follow/follower.ts';
import type { Follower } from '../../src/follow/follower.ts';
import type { StreamGet } from '../../src/follow/follow-stream.ts';
import { get } from '../../src/net/http-get.ts';
import { testStores, useStore } from '../support/databases.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import { pscIdentityVerification } from '../../src/ownership/psc-view.ts';
import { individualPsc } from '../support/psc-records.ts';
import { individualLine } from '../support/psc-snapshot-lines.ts';
import { company } from '../support/store-records.ts';
import { eventLine, startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { waitFor, watchWithEndpoint } from '../support/stream-world.ts';
import type { WatchingKey } from '../support/stream-world.ts';

const ACME = '00000001';
const PSC_STREAM = 'persons-with-significant-control';

/** Zed's record as a snapshot line without links.self: the parser keys it by its etag. */
function zedData(etag: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  const { links: _links, ...data } = (
    JSON.parse(individualLine(ACME, 'zed', { forename: 'Zed', surname: 'Third', etag })) as {
      data: Record<string, unknown>;
    }
  ).data;
  return { ...data, ...more };
}

function chargeEvent(timepoint: number, status: string): string {
  return eventLine(
    timepoint,
    '2026-11-26T10:00:00',
    `/company/${ACME}/charges/charge-1`,
    { status, delivered_on: '2026-11-26', created_on: '2026-11-20', charge_number: 1 },
    { kind: 'company-charges' },
  );
}

for (const kind of testStores) {
  describe(`${kind.name}: following the charges and PSC streams`, () => {
    const db = useStore(kind);
    let server: FakeStreamServer;
    let follower: Follower;
    let watcher: WatchingKey;

    before(async () => {
      await db.store.upsertCompanies([company(ACME, { accounts_next_due: '2099-09-30' })], '2026-11-01');
      const zed = parsePscLine(JSON.stringify({ company_number: ACME, data: zedData('etag-zed-1') }));
      assert.equal(zed.type === 'psc' && zed.record.psc_id, 'etag-zed-1');
      await createPscStore(db.sql).upsertPscs(
        [
          individualPsc(ACME, { forename: 'Ada', surname: 'First', birthYear: 1970, birthMonth: 3, id: 'p1' }),
          (zed as { record: PscRecord }).record,
        ],
        '2026-11-01',
      );
      watcher = await watchWithEndpoint(db.sql, db.store, [ACME]);
      server = await startFakeStreamServer({ key: 'k' });
      follower = startFollower(
        {
          ledger: createStreamLedger(db.sql),
          appliers: [chargesApplier(), pscApplier(PSC_STREAM)],
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
      await waitFor(
        'the follower to connect',
        async () => server.connected('charges') > 0 && server.connected(PSC_STREAM) > 0,
      );
    });
    after(async () => {
      await follower.stop();
      await Promise.all([server.close(), watcher.close()]);
    });

    const alertKinds = async () =>
      (
        await db.sql.query<{ alert_key: string }>(`SELECT alert_key FROM alert_detections WHERE key_id = $1`, [
          watcher.keyId,
        ])
      ).rows.map((row) => row.alert_key);
    const counts = async () =>
      (
        await db.sql.query(
          `SELECT charges_total, charges_outstanding, charges_satisfied FROM companies WHERE company_number = $1`,
          [ACME],
        )
      ).rows[0];
    const position = async (stream: string) =>
      (
        await db.sql.query<{ t: string }>(`SELECT timepoint::text AS t FROM stream_positions WHERE stream = $1`, [
          stream,
        ])
      ).rows[0]?.t;

    test('a new charge raises new_charges once; its satisfaction moves it', async () => {
      server.publish('charges', [chargeEvent(1, 'outstanding'), chargeEvent(2, 'outstanding')]);
      await waitFor('new_charges', async () => (await alertKinds()).some((key) => key.includes('new_charges')));
      await waitFor('both applied', async () => (await position('charges')) === '2');
      assert.deepEqual(await counts(), { charges_total: 1, charges_outstanding: 1, charges_satisfied: 0 });
      server.publish('charges', [chargeEvent(3, 'fully-satisfied')]);
      await waitFor('the satisfaction applied', async () => (await position('charges')) === '3');
      assert.deepEqual(await counts(), { charges_total: 1, charges_outstanding: 0, charges_satisfied: 1 });
    });

    test('a PSC notified on the stream raises control_change; a verification-only change does not', async () => {
      const data = (JSON.parse(individualLine(ACME, 'p2', { forename: 'Bea', surname: 'Second' })) as { data: object })
        .data;
      const verification = {
        identity_verification_details: {
          appointment_verification_statement_date: '2026-11-10',
          appointment_verification_statement_due_on: '2026-11-24',
        },
      };
      server.publish(PSC_STREAM, [
        // Zed's verification details published: a new etag, and the stream's own id.
        eventLine(
          10,
          '2026-11-26T10:30:00',
          `/company/${ACME}/persons-with-significant-control/individual/zed`,
          zedData('etag-zed-2', verification),
        ),
        eventLine(11, '2026-11-26T11:00:00', `/company/${ACME}/persons-with-significant-control/individual/p2`, {
          ...data,
        }),
      ]);
      await waitFor('control_change', async () => (await alertKinds()).some((key) => key.includes('control_change')));
      const current = await createOwnershipReader(db.sql).currentPscsOf([ACME]);
      assert.deepEqual(current.map((psc) => psc.name).sort(), [
        'Mr Ada First',
        'Ms Bea Second',
        'Ms Zed Third',
        'Ms Zed Third',
      ]);
      const zed = current.find((psc) => psc.psc_id === 'zed')!;
      assert.equal(pscIdentityVerification(zed)?.appointment_verification_statement_due_on, '2026-11-24');
      // One alert, for Bea alone: Zed is named once, as the watch listed Zed already.
      const changes = (await alertKinds())
        .filter((key) => key.includes('control_change'))
        .map((key) => (JSON.parse(key) as string[])[2]!.split('; ').sort());
      assert.deepEqual(changes, [['Mr Ada First', 'Ms Bea Second', 'Ms Zed Third']]);
    });
  });
}
