/**
 * A small ownership world for the contract suites: ten companies on the register, PSC chains up
 * and down between them, a cycle, a statement, an unresolved UK parent, and two filings of
 * 00000001. Read by the OwnershipReader suite and by CompanyReader.companyWithPscs.
 */
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import type { CompanyWriter } from '../../src/ports/companies.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { corporatePsc, individualPsc, pscStatement } from './psc-records.ts';
import { company, filing } from './store-records.ts';

export const SNAPSHOT = '2025-01-01';

const owns = (parent: string, child: string, more: Partial<PscRecord> = {}) =>
  corporatePsc(child, { name: `COMPANY ${parent} LIMITED`, registeredNumber: parent, id: `corp-${parent}` }, more);
const alan = (companyNumber: string, more: Partial<PscRecord> = {}) =>
  individualPsc(companyNumber, { forename: 'Alan', surname: 'Smith', birthYear: 1970, birthMonth: 3 }, more);

// 00000001 is owned by 00000002 (owned by 00000003, owned by Mr Alan Smith) and by an overseas
// parent; it owns 00000004 and 00000005, and 00000004 owns 00000006. 00000007 owns itself through
// 00000008. 00000009 states it has no registrable PSC; 00000010 is owned by a UK company that is
// not on the register.
export const REGISTER = [
  '00000001',
  '00000002',
  '00000003',
  '00000004',
  '00000005',
  '00000006',
  '00000007',
  '00000008',
  '00000009',
  '00000010',
];
const PSCS: PscRecord[] = [
  owns('00000002', '00000001', { notified_on: '2019-05-01' }),
  corporatePsc('00000001', { name: 'ACME HOLDINGS INC', country: 'United States' }, { notified_on: '2020-01-01' }),
  alan('00000001', { ceased: true, ceased_on: '2018-12-31', notified_on: '2016-04-06', psc_id: 'alan-old' }),
  pscStatement('00000001', 'psc-details-not-confirmed', { ceased: true, ceased_on: '2017-01-01' }),
  owns('00000003', '00000002'),
  alan('00000003'),
  owns('00000001', '00000004'),
  owns('00000001', '00000005'),
  owns('00000001', '00000006', { ceased: true, ceased_on: '2021-01-01', psc_id: 'corp-old' }),
  owns('00000004', '00000006'),
  owns('00000008', '00000007'),
  owns('00000007', '00000008'),
  pscStatement('00000009', 'no-individual-or-entity-with-signficant-control'),
  corporatePsc('00000010', { name: 'GONE LIMITED', registeredNumber: '07777777' }),
  alan('00000010'),
];

/** Writes the world into a fresh store. */
export async function seedOwnershipWorld({ sql, store }: { sql: Sql; store: CompanyWriter }): Promise<void> {
  await store.upsertCompanies(
    REGISTER.map((n) => company(n, n === '00000005' ? { status: 'Liquidation' } : {})),
    SNAPSHOT,
  );
  await createPscStore(sql).upsertPscs(PSCS, SNAPSHOT);
  await store.saveFilings(
    [
      filing('00000001', 'Accounts_Bulk_Data-2024-01-02.zip', 'Prod223_0001_00000001_20221231.html', '2022-12-31', 5),
      filing('00000001', 'Accounts_Bulk_Data-2024-01-02.zip', 'Prod223_0002_00000001_20231231.html', '2023-12-31', 9),
    ],
    [],
  );
}
