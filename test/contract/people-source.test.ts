/**
 * The people indexer's source on every store: a full read gives every person once, grouped, in
 * batches of the size asked. On PostgreSQL it streams one sorted scan (Sql.scan); the answer is
 * the same as reading key by key, as PGlite does.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createOfficersApplier } from '../../src/adapters/postgres/officer-appliers.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPeopleSource } from '../../src/adapters/postgres/people-source.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import type { PeopleBatch } from '../../src/ports/people-index.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { testStores, useStore } from '../support/databases.ts';
import { officerRecord } from '../support/officer-records.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { company } from '../support/store-records.ts';

const SNAPSHOT = '2025-01-01';
const person = (forename: string, companyNumber: string, more: Partial<PscRecord> = {}) =>
  individualPsc(companyNumber, { forename, surname: 'Smith', birthYear: 1970, birthMonth: 3 }, more);

// Alan controls three companies (one ceased), Beth one, Carl two; a corporate PSC; a statement
// (not a person); a company off the register.
const PSCS: PscRecord[] = [
  person('Alan', '00000001'),
  // Identity verification as the snapshot files it, in the record's data.
  person('Alan', '00000002', {
    data: { name: 'Mr Alan Smith', identity_verification_details: { identity_verified_on: '2025-11-20' } },
  }),
  person('Alan', '00000003', { ceased: true, ceased_on: '2020-01-01' }),
  person('Beth', '00000001'),
  person('Carl', '00000002'),
  person('Carl', '09999999'),
  corporatePsc('00000003', { name: 'ACME HOLDINGS INC', country: 'United States' }),
  pscStatement('00000004', 'no-individual-or-entity-with-signficant-control'),
];

async function readAll(sql: Sql, batchSize: number): Promise<PeopleBatch[]> {
  const batches: PeopleBatch[] = [];
  for await (const batch of createPeopleSource(sql).peopleForIndex(batchSize)) batches.push(batch);
  return batches;
}

for (const kind of testStores) {
  describe(`${kind.name}: the people source's full read`, () => {
    const db = useStore(kind);
    before(async () => {
      await db.store.upsertCompanies(
        ['00000001', '00000002', '00000003', '00000004'].map((n) => company(n)),
        SNAPSHOT,
      );
      await createPscStore(db.sql).upsertPscs(PSCS, SNAPSHOT);
    });

    test('every person once, with all their companies, in batches of the size asked', async () => {
      assert.equal(typeof db.sql.scan === 'function', db.sql.dialect === 'postgres', 'PostgreSQL scans, PGlite not');
      const batches = await readAll(db.sql, 2);
      assert.deepEqual(
        batches.map((b) => b.people.length),
        [2, 2],
      );
      const people = batches.flatMap((b) => b.people);
      assert.deepEqual(people.map((p) => [p.name, p.company_count, p.current_companies]).sort(), [
        ['ACME HOLDINGS INC', 1, 1],
        ['Mr Alan Smith', 3, 2],
        ['Mr Beth Smith', 1, 1],
        ['Mr Carl Smith', 2, 2],
      ]);
      assert.equal(new Set(people.map((p) => p.person_key)).size, 4);
    });

    test('the same people as reading key by key', async () => {
      const keyByKey = { ...db.sql, scan: undefined };
      const byKey = (await readAll(keyByKey, 3)).flatMap((b) => b.people);
      const read = (await readAll(db.sql, 3)).flatMap((b) => b.people);
      assert.deepEqual(read, byKey);
    });

    test('an update reads only the people whose records changed, in batches, as key by key does', async () => {
      const [{ now }] = (await db.sql.query<{ now: string }>('SELECT now()::text AS now')).rows as [{ now: string }];
      // Changes are those after the mark: on a fast machine the upsert could fall in its millisecond.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await createPscStore(db.sql).upsertPscs([person('Beth', '00000004'), person('Dora', '00000003')], '2025-02-01');
      const changed = async (sql: Sql) => {
        const batches: PeopleBatch[] = [];
        for await (const batch of createPeopleSource(sql).peopleForIndex(1, now)) batches.push(batch);
        return batches;
      };
      const batches = await changed(db.sql);
      assert.deepEqual(
        batches.map((b) => b.people.map((p) => p.name)),
        [['Mr Beth Smith'], ['Mr Dora Smith']],
      );
      assert.deepEqual(batches, await changed({ ...db.sql, scan: undefined }));
    });

    test('a read stopped early closes its cursor and leaves the store usable', async () => {
      for await (const batch of createPeopleSource(db.sql).peopleForIndex(1)) {
        assert.equal(batch.people.length, 1);
        break;
      }
      assert.ok((await readAll(db.sql, 10)).flatMap((b) => b.people).length >= 4);
    });

    test('officers join the people: a PSC who is a director is one person, an officer alone another', async () => {
      await createOfficerStore(db.sql).replaceCompanyOfficers(
        '00000004',
        [
          officerRecord('00000004', {
            name: 'SMITH, Alan',
            officerId: 'alan',
            birthYear: 1970,
            birthMonth: 3,
            identityVerification: { appointment_verification_statement_due_on: '2026-05-01' },
          }),
          officerRecord('00000004', { name: 'JONES, Eve', officerId: 'eve', birthYear: 1980, birthMonth: 1 }),
        ],
        '2026-11-01T00:00:00Z',
      );
      // A row written before officers were keyed (migration 031) is keyed by the next read.
      await db.sql.query(`UPDATE officers SET person_key = NULL WHERE officer_id = 'eve'`);
      const people = (await readAll(db.sql, 2)).flatMap((b) => b.people);
      const alan = people.find((p) => p.name === 'Mr Alan Smith');
      assert.deepEqual(
        [alan?.roles, alan?.company_count, alan?.appointments.map((a) => a.company_number)],
        [['psc', 'director'], 3, ['00000004']],
      );
      // Each PSC record and appointment with its own identity verification, read into its shape.
      assert.deepEqual(
        [
          alan?.companies.map((c) => [c.company_number, c.identity_verification?.identity_verified_on ?? null]),
          alan?.appointments.map((a) => a.identity_verification?.appointment_verification_statement_due_on),
          alan?.appointments[0]?.identity_verification?.identity_verified_on,
        ],
        [
          [
            ['00000001', null],
            ['00000002', '2025-11-20'],
            ['00000003', null],
          ],
          ['2026-05-01'],
          null,
        ],
      );
      const eve = people.find((p) => p.name === 'JONES, Eve');
      assert.deepEqual([eve?.person_key, eve?.roles], ['individual|eve jones|1980|1', ['director']]);
      assert.deepEqual(
        people,
        (await readAll({ ...db.sql, scan: undefined }, 2)).flatMap((b) => b.people),
      );
      assert.equal(await createPeopleSource(db.sql).countPeople(), people.length);
    });

    test('an appointment from the officers stream is read as changed, keyed as the backfill keys it', async () => {
      const [{ now }] = (await db.sql.query<{ now: string }>('SELECT now()::text AS now')).rows as [{ now: string }];
      await new Promise((resolve) => setTimeout(resolve, 5));
      const data = {
        name: 'BLOGGS, Fred',
        officer_role: 'director',
        appointed_on: '2024-01-01',
        date_of_birth: { year: 1990, month: 2 },
        identity_verification_details: { identity_verified_on: '2026-01-05' },
        links: {
          self: '/company/00000001/appointments/fred-1',
          officer: { appointments: '/officers/fred/appointments' },
        },
      };
      await db.sql.transaction((tx) =>
        createOfficersApplier().apply(tx, [
          {
            resource_kind: 'company-officers',
            resource_uri: '/company/00000001/appointments/fred-1',
            resource_id: 'fred-1',
            data,
            event: { timepoint: 1, published_at: '2026-11-27T09:00:00', type: 'changed' },
          },
        ]),
      );
      const changed: PeopleBatch[] = [];
      for await (const batch of createPeopleSource(db.sql).peopleForIndex(10, now)) changed.push(batch);
      const fred = changed.flatMap((b) => b.people);
      assert.deepEqual(
        fred.map((p) => [
          p.person_key,
          p.roles,
          p.officer_ids,
          p.appointments[0]?.identity_verification?.identity_verified_on,
        ]),
        [['individual|fred bloggs|1990|2', ['director'], ['fred'], '2026-01-05']],
      );
    });
  });
}
