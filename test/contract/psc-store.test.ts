/**
 * The PscStore contract on every store (PGlite and a real PostgreSQL): upserts as a snapshot
 * lists them, from records or from the rows the loader serialises, a repeat within a batch, an
 * older snapshot after a newer one, update times only for changes, and what a complete snapshot
 * no longer lists kept as ceased.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { serialisePscs } from '../../src/ownership/psc-batch.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { testStores, useStore } from '../support/databases.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';

const ada = (companyNumber: string, more: Partial<PscRecord> = {}) =>
  individualPsc(companyNumber, { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 }, more);

async function rows(sql: Sql, companyNumber: string) {
  const result = await sql.query<{
    psc_id: string;
    name: string | null;
    natures: string[];
    ceased: boolean;
    ceased_by_snapshot: string | null;
    snapshot_date: string;
    updated_at: string;
  }>(
    `SELECT psc_id, name, natures, ceased, ceased_by_snapshot::text, snapshot_date::text, updated_at::text
     FROM psc WHERE company_number = $1 ORDER BY psc_id`,
    [companyNumber],
  );
  return result.rows;
}

for (const kind of testStores) {
  describe(`${kind.name}: PscStore`, () => {
    const db = useStore(kind);

    test('isEmpty: true before the first record, false after (a first load marks nothing ceased)', async () => {
      const pscs = createPscStore(db.sql);
      assert.equal(await pscs.isEmpty(), true);
      await pscs.upsertPscs([ada('10000001')], '2025-01-01');
      assert.equal(await pscs.isEmpty(), false);
    });

    test('records and the rows serialised from them are written alike; a repeat in a batch keeps its last copy', async () => {
      const pscs = createPscStore(db.sql);
      const batch = [ada('11000001'), ada('11000001', { name: 'Dr Ada Lovelace' }), pscStatement('11000001', 'x')];
      await pscs.upsertPscs(batch, '2025-01-01');
      assert.equal(pscs.batchFormat, db.sql.dialect === 'postgres' ? 'copy' : 'json');
      await pscs.upsertSerialisedPscs(
        serialisePscs(
          batch.map((record) => ({ ...record, company_number: '11000002' })),
          pscs.batchFormat,
        ),
        '2025-01-01',
      );
      const one = await rows(db.sql, '11000001');
      const two = await rows(db.sql, '11000002');
      assert.deepEqual(
        one.map((r) => [r.psc_id, r.name, r.natures]),
        [
          ['ind-ada-lovelace', 'Dr Ada Lovelace', ['ownership-of-shares-75-to-100-percent']],
          ['statement-x', null, []],
        ],
      );
      assert.deepEqual(
        two.map((r) => [r.psc_id, r.name, r.natures]),
        one.map((r) => [r.psc_id, r.name, r.natures]),
      );
      assert.equal(JSON.parse(serialisePscs(batch, 'json')).length, 2);
      assert.equal(serialisePscs(batch, 'copy').split('\n').length - 1, 2, 'a line a row');
    });

    test('what a snapshot may hold comes back as it went in: tabs, line breaks, backslashes, quotes, JSON', async () => {
      const pscs = createPscStore(db.sql);
      const awkward = individualPsc(
        '11000003',
        { forename: 'Ann\t"Quote"', surname: 'Back\\slash\nStröm', birthYear: 1980, birthMonth: 1 },
        {
          natures_of_control: ['ownership-of-shares-75-to-100-percent', 'odd "nature" \\ {x,y}'],
          data: { note: 'tab\there \\ "q" \r\n', nested: { list: [1, null, 'é'] }, empty: '' },
          nationality: 'N\\A',
        },
      );
      const entity = corporatePsc('11000003', { name: 'TAB\tHOLDINGS \\N LTD', registeredNumber: '11000099' });
      await pscs.upsertSerialisedPscs(serialisePscs([awkward, entity], pscs.batchFormat), '2025-01-01');
      const read = await createOwnershipReader(db.sql).pscsOf('11000003', true);
      const byId = new Map(read.map((p) => [p.psc_id, p]));
      for (const record of [awkward, entity]) {
        const stored = byId.get(record.psc_id)!;
        assert.deepEqual(
          [
            stored.name,
            stored.natures_of_control,
            stored.data,
            stored.nationality,
            stored.name_elements,
            stored.identification,
          ],
          [
            record.name,
            record.natures_of_control,
            record.data,
            record.nationality,
            record.name_elements,
            record.identification,
          ],
        );
      }
    });

    test('an older snapshot changes nothing; the same content keeps its update time; a change moves it', async () => {
      const pscs = createPscStore(db.sql);
      await pscs.upsertPscs([ada('12000001')], '2025-02-02');
      const [first] = await rows(db.sql, '12000001');
      await pscs.upsertPscs([ada('12000001', { name: 'Older', content_hash: 'older' })], '2025-02-01');
      assert.deepEqual(await rows(db.sql, '12000001'), [first]);
      await pscs.upsertPscs([ada('12000001')], '2025-02-03');
      const [same] = await rows(db.sql, '12000001');
      assert.deepEqual([same!.snapshot_date, same!.updated_at], ['2025-02-03', first!.updated_at]);
      await pscs.upsertPscs([ada('12000001', { name: 'Changed', content_hash: 'changed' })], '2025-02-04');
      const [changed] = await rows(db.sql, '12000001');
      assert.equal(changed!.name, 'Changed');
      assert.notEqual(changed!.updated_at, first!.updated_at);
    });

    test('a complete snapshot keeps what it no longer lists, ceased; listed again, it is current again', async () => {
      const pscs = createPscStore(db.sql);
      const parent = corporatePsc('13000001', { name: 'PARENT LIMITED', registeredNumber: '13000002' });
      await pscs.upsertPscs([ada('13000001'), parent], '2025-03-01');
      await pscs.upsertPscs([ada('13000001')], '2025-03-02');
      assert.ok((await pscs.markMissingCeased('2025-03-02')) >= 1);
      assert.deepEqual(
        (await rows(db.sql, '13000001')).map((r) => [r.psc_id, r.ceased, r.ceased_by_snapshot]),
        [
          ['corp-parent-limited', true, '2025-03-02'],
          ['ind-ada-lovelace', false, null],
        ],
      );
      assert.equal(await pscs.markMissingCeased('2025-03-02'), 0, 'marking again marks nothing');
      await pscs.upsertPscs([ada('13000001'), parent], '2025-03-03');
      assert.deepEqual(
        (await rows(db.sql, '13000001')).map((r) => [r.psc_id, r.ceased, r.ceased_by_snapshot]),
        [
          ['corp-parent-limited', false, null],
          ['ind-ada-lovelace', false, null],
        ],
      );
    });
  });
}
