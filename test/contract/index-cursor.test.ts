/**
 * The IndexCursor contract, run against every store: PGlite and a real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { readOfficer } from '../../src/domain/officers.ts';
import type { OfficerRecord } from '../../src/domain/officers.ts';
import { testStores, useStore } from '../support/databases.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { company } from '../support/store-records.ts';

for (const kind of testStores) {
  describe(`${kind.name}: IndexCursor`, () => {
    const db = useStore(kind);

    test('companiesForIndex sums up each PSC register, and an update finds the companies whose PSCs changed', async () => {
      const pscs = createPscStore(db.sql);
      const [withParents, without, statementOnly, later] = ['00000031', '00000032', '00000033', '00000034'];
      await db.store.upsertCompanies(
        [withParents, without, statementOnly, later].map((n) => company(n)),
        '2024-01-01',
      );
      await pscs.upsertPscs(
        [
          individualPsc(withParents, { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 }),
          corporatePsc(withParents, { name: 'UK PARENT LIMITED', registeredNumber: '01234567' }),
          corporatePsc(withParents, { name: 'ISLAND HOLDINGS LTD', country: 'Jersey' }),
          corporatePsc(
            withParents,
            { name: 'FORMER PARENT LIMITED', registeredNumber: '07654321' },
            { ceased: true, ceased_on: '2020-01-01' },
          ),
          pscStatement(statementOnly, 'no-individual-or-entity-with-signficant-control'),
          individualPsc(later, { forename: 'Alan', surname: 'Turing', birthYear: 1980, birthMonth: 6 }),
        ],
        '2024-01-01',
      );
      const summaries = async (changedSince?: string) => {
        const found = new Map<string, unknown>();
        for await (const batch of db.store.companiesForIndex(2, changedSince))
          for (const source of batch) found.set(source.company.company_number, source.pscs);
        return found;
      };
      const all = await summaries();
      assert.deepEqual(all.get(withParents), {
        controllers: 3,
        parents: [
          { country: 'Jersey', overseas: true, uk_registered: false },
          { country: 'England', overseas: false, uk_registered: true },
        ],
      });
      assert.equal(all.get(without), null);
      assert.deepEqual(all.get(statementOnly), { controllers: 0, parents: [] });

      // A PSC notified for a company without any, then a complete snapshot that no longer lists
      // the others: each update reads those companies again, and only those.
      const before = await db.store.now();
      // Changes are those after the mark: on PGlite the upsert could fall in its millisecond.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await pscs.upsertPscs(
        [corporatePsc(without, { name: 'NEW OWNER LIMITED', registeredNumber: '01111111' })],
        '2024-02-01',
      );
      assert.deepEqual(
        [...(await summaries(before)).entries()],
        [[without, { controllers: 1, parents: [{ country: 'England', overseas: false, uk_registered: true }] }]],
      );
      const beforeCeasing = await db.store.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await pscs.upsertPscs(
        [individualPsc(later, { forename: 'Alan', surname: 'Turing', birthYear: 1980, birthMonth: 6 })],
        '2024-02-01',
      );
      await pscs.markMissingCeased('2024-02-01');
      assert.deepEqual(
        [...(await summaries(beforeCeasing)).entries()],
        [
          [withParents, { controllers: 0, parents: [] }],
          [statementOnly, { controllers: 0, parents: [] }],
        ],
      );
    });

    test('identity_overdue_from: the earliest unverified due date of current PSCs and officers; an officer change is a change', async () => {
      const pscs = createPscStore(db.sql);
      const officers = createOfficerStore(db.sql);
      const [late, verified, older] = ['00000041', '00000042', '00000043'];
      await db.store.upsertCompanies(
        [late, verified, older].map((n) => company(n)),
        '2024-01-01',
      );
      const due = (date: string) => ({
        appointment_verification_statement_date: '2025-01-01',
        appointment_verification_statement_due_on: date,
      });
      await pscs.upsertPscs(
        [
          individualPsc(
            late,
            { forename: 'Lee', surname: 'Late', birthYear: 1970, birthMonth: 1 },
            {
              data: {
                kind: 'individual-person-with-significant-control',
                identity_verification_details: due('2025-03-10'),
              },
            },
          ),
          // Ceased: its due date no longer counts.
          individualPsc(
            late,
            { forename: 'Gus', surname: 'Gone', birthYear: 1960, birthMonth: 1 },
            {
              ceased: true,
              ceased_on: '2024-06-01',
              data: {
                kind: 'individual-person-with-significant-control',
                identity_verification_details: due('2025-01-05'),
              },
            },
          ),
          individualPsc(
            verified,
            { forename: 'Val', surname: 'Verity', birthYear: 1975, birthMonth: 2 },
            {
              data: {
                kind: 'individual-person-with-significant-control',
                identity_verification_details: { ...due('2025-03-10'), identity_verified_on: '2025-02-01' },
              },
            },
          ),
          // The block under its older name.
          individualPsc(
            older,
            { forename: 'Olga', surname: 'Older', birthYear: 1950, birthMonth: 3 },
            { data: { kind: 'individual-person-with-significant-control', verification_details: due('2025-04-01') } },
          ),
        ],
        '2024-01-01',
      );
      const overdueFrom = async (changedSince?: string) => {
        const found = new Map<string, string | null>();
        for await (const batch of db.store.companiesForIndex(10, changedSince))
          for (const source of batch)
            if ([late, verified, older].includes(source.company.company_number))
              found.set(source.company.company_number, source.identity_overdue_from);
        return found;
      };
      assert.deepEqual(
        [...(await overdueFrom()).entries()],
        [
          [late, '2025-03-11'],
          [verified, null],
          [older, '2025-04-02'],
        ],
      );

      // A director of the verified company, due earlier and not verified: the officers change
      // alone brings the company into the next update.
      const director = (id: string, block: Record<string, string>): OfficerRecord =>
        readOfficer(verified, id, {
          name: 'DIRECTOR, Dee',
          officer_role: 'director',
          appointed_on: '2020-01-01',
          identity_verification_details: block,
        }) as OfficerRecord;
      const mark = await db.store.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await officers.replaceCompanyOfficers(verified, [director('dee', due('2025-02-20'))], new Date().toISOString());
      assert.deepEqual([...(await overdueFrom(mark)).entries()], [[verified, '2025-02-21']]);
    });
  });
}
