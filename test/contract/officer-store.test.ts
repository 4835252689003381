/**
 * The OfficerStore and OfficerBackfillJournal contract on every store (PGlite and a real
 * PostgreSQL): a company's list written whole (what it no longer holds kept as deleted), a fetch
 * older than a stream event not overwriting it, current officers first, an officer's appointments
 * across companies with their names on the register, and the backfill's runs resumed until finished.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOfficersApplier } from '../../src/adapters/postgres/officer-appliers.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { readOfficer } from '../../src/domain/officers.ts';
import type { OfficerRecord } from '../../src/domain/officers.ts';
import { officerItem, syntheticOfficerId } from '../../src/synthetic/officers.ts';
import type { OfficerAppointmentPlan } from '../../src/synthetic/officers.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company } from '../support/store-records.ts';

const SEED = 27;

function record(plan: OfficerAppointmentPlan): OfficerRecord {
  const item = officerItem(SEED, plan);
  const self = (item.links as { self: string }).self;
  const read = readOfficer(plan.companyNumber, self.slice(self.lastIndexOf('/') + 1), item);
  if (typeof read === 'string') throw new Error(read);
  return read;
}

for (const kind of testStores) {
  describe(`${kind.name}: OfficerStore`, () => {
    const db = useStore(kind);

    test('a list is written whole; an appointment it no longer holds is kept as deleted', async () => {
      const store = createOfficerStore(db.sql);
      const first = [1, 2, 3].map((personId) =>
        record({ companyNumber: '20000001', personId, appointedOn: '2020-01-0' + personId }),
      );
      await store.replaceCompanyOfficers('20000001', first, '2026-11-01T00:00:00Z');
      assert.deepEqual(
        (await store.officersOf('20000001', false)).map((o) => o.appointed_on),
        ['2020-01-03', '2020-01-02', '2020-01-01'],
      );
      await store.replaceCompanyOfficers('20000001', first.slice(0, 2), '2026-11-02T00:00:00Z');
      assert.deepEqual(
        (await store.officersOf('20000001', true)).map((o) => o.appointed_on),
        ['2020-01-02', '2020-01-01'],
      );
    });

    test('a list fetched before a stream event does not overwrite what the event said', async () => {
      const store = createOfficerStore(db.sql);
      const item = officerItem(SEED, { companyNumber: '20000002', personId: 9, appointedOn: '2021-05-05' });
      const self = (item.links as { self: string }).self;
      await db.sql.transaction((tx) =>
        createOfficersApplier().apply(tx, [
          {
            resource_kind: 'company-officers',
            resource_uri: self,
            resource_id: self.slice(self.lastIndexOf('/') + 1),
            data: { ...item, resigned_on: '2026-11-10' },
            event: { timepoint: 77, published_at: '2026-11-10T12:00:00', type: 'changed' },
          },
        ]),
      );
      const stale = record({ companyNumber: '20000002', personId: 9, appointedOn: '2021-05-05' });
      await store.replaceCompanyOfficers('20000002', [stale], '2026-11-09T00:00:00Z');
      const [held] = await store.officersOf('20000002', true);
      assert.equal(held?.resigned_on, '2026-11-10');
      await store.replaceCompanyOfficers('20000002', [], '2026-11-08T00:00:00Z');
      assert.equal((await store.officersOf('20000002', true)).length, 1, 'an older empty list deletes nothing newer');
    });

    test("resigned officers follow current ones; an officer's appointments name their companies", async () => {
      const store = createOfficerStore(db.sql);
      await db.store.upsertCompanies([company('20000003', { name: 'ALPHA LIMITED' })], '2026-11-01');
      await store.replaceCompanyOfficers(
        '20000003',
        [
          record({ companyNumber: '20000003', personId: 40, appointedOn: '2010-01-01', resignedOn: '2015-01-01' }),
          record({ companyNumber: '20000003', personId: 41, appointedOn: '2001-01-01' }),
        ],
        '2026-11-01T00:00:00Z',
      );
      await store.replaceCompanyOfficers(
        '20000004',
        [record({ companyNumber: '20000004', personId: 40, appointedOn: '2018-01-01', role: 'secretary' })],
        '2026-11-01T00:00:00Z',
      );
      assert.deepEqual(
        (await store.officersOf('20000003', true)).map((o) => [o.appointed_on, o.resigned_on]),
        [
          ['2001-01-01', null],
          ['2010-01-01', '2015-01-01'],
        ],
      );
      const network = await store.appointmentsOf(syntheticOfficerId(SEED, 40));
      assert.deepEqual(
        network.map((a) => [a.company_number, a.company_name, a.role, a.resigned_on]),
        [
          ['20000004', null, 'secretary', null],
          ['20000003', 'ALPHA LIMITED', 'director', '2015-01-01'],
        ],
      );
    });

    test('a backfill run is resumed until it is finished; companies count as fetched from its start', async () => {
      const journal = createOfficerStore(db.sql);
      const run = await journal.beginRun('watched');
      assert.equal(run.resumed, false);
      await journal.replaceCompanyOfficers('20000005', [], run.startedAt);
      const again = await journal.beginRun('watched');
      assert.deepEqual(again, { startedAt: run.startedAt, resumed: true });
      assert.deepEqual([...(await journal.fetchedSince(['20000005', '20000006'], again.startedAt))], ['20000005']);
      await journal.finishRun('watched');
      const next = await journal.beginRun('watched');
      assert.equal(next.resumed, false);
      assert.ok(next.startedAt > run.startedAt);
      assert.deepEqual([...(await journal.fetchedSince(['20000005'], next.startedAt))], []);
    });
  });
}
