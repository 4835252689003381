/**
 * The OwnershipReader contract on every store (PGlite and a real PostgreSQL): a company's PSCs,
 * the edges up and down, the names of companies, the counts of what controllers control; and the
 * ownership walk over it, one statement per level.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { walkOwnership } from '../../src/ownership/ownership-graph.ts';
import type { OwnershipReader } from '../../src/ownership/ports.ts';
import type { PscRecord } from '../../src/ownership/psc.ts';
import { countingSql } from '../support/batch-fixtures.ts';
import { testStores, useStore } from '../support/databases.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { company } from '../support/store-records.ts';

const SNAPSHOT = '2025-01-01';

const owns = (parent: string, child: string, more: Partial<PscRecord> = {}) =>
  corporatePsc(child, { name: `COMPANY ${parent} LIMITED`, registeredNumber: parent, id: `corp-${parent}` }, more);
const alan = (companyNumber: string, more: Partial<PscRecord> = {}) =>
  individualPsc(companyNumber, { forename: 'Alan', surname: 'Smith', birthYear: 1970, birthMonth: 3 }, more);

// 00000001 is owned by 00000002 (owned by 00000003, owned by Mr Alan Smith) and by an overseas
// parent; it owns 00000004 and 00000005, and 00000004 owns 00000006. 00000007 owns itself through
// 00000008. 00000009 states it has no registrable PSC; 00000010 is owned by a UK company that is
// not on the register.
const REGISTER = [
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

for (const kind of testStores) {
  describe(`${kind.name}: OwnershipReader`, () => {
    const db = useStore(kind);
    let reader: OwnershipReader;
    before(async () => {
      await db.store.upsertCompanies(
        REGISTER.map((n) => company(n, n === '00000005' ? { status: 'Liquidation' } : {})),
        SNAPSHOT,
      );
      await createPscStore(db.sql).upsertPscs(PSCS, SNAPSHOT);
      reader = createOwnershipReader(db.sql);
    });

    test('pscsOf: the current PSCs, newest notified first; ceased ones only when asked, after them', async () => {
      const current = await reader.pscsOf('00000001', false);
      assert.deepEqual(
        current.map((p) => [p.psc_id, p.ceased]),
        [
          ['corp-acme-holdings-inc', false],
          ['corp-00000002', false],
        ],
      );
      const all = await reader.pscsOf('00000001', true);
      assert.deepEqual(
        all.map((p) => p.psc_id),
        ['corp-acme-holdings-inc', 'corp-00000002', 'alan-old', 'statement-psc-details-not-confirmed'],
      );
      assert.equal(all[2]!.ceased_on, '2018-12-31');
      assert.deepEqual(await reader.pscsOf('99999999', true), []);
    });

    test('a corporate PSC resolves to the company on the register, else stays unresolved', async () => {
      const [overseas, parent] = await reader.pscsOf('00000001', false);
      assert.deepEqual(
        [parent!.resolved_company_number, parent!.resolved_company_name],
        ['00000002', 'COMPANY 00000002 LIMITED'],
      );
      assert.deepEqual(
        [overseas!.resolved_company_number, overseas!.overseas, overseas!.country],
        [null, true, 'United States'],
      );
      const [gone] = (await reader.pscsOf('00000010', false)).filter((p) => p.kind_class === 'corporate');
      assert.deepEqual([gone!.registered_company_number, gone!.resolved_company_number], ['07777777', null]);
    });

    test('an individual read back has month and year of birth, never an address or a day', async () => {
      const [person] = await reader.pscsOf('00000003', false);
      assert.deepEqual([person!.birth_year, person!.birth_month], [1970, 3]);
      const text = JSON.stringify(person);
      assert.doesNotMatch(text, /address|"day"/);
    });

    test('currentPscsOf: the current PSCs and statements of several companies in one read', async () => {
      const pscs = await reader.currentPscsOf(['00000001', '00000003', '00000009', '99999999']);
      assert.deepEqual(
        pscs.map((p) => `${p.company_number}/${p.psc_id}`),
        [
          '00000001/corp-acme-holdings-inc',
          '00000001/corp-00000002',
          '00000003/ind-alan-smith',
          '00000009/statement-no-individual-or-entity-with-signficant-control',
        ],
      );
      assert.deepEqual(await reader.currentPscsOf([]), []);
    });

    test('currentControlOf: the records currentPscsOf reads, narrowed to what the walk draws, in its order', async () => {
      const numbers = ['00000001', '00000003', '00000009', '00000010', '99999999'];
      const whole = await reader.currentPscsOf(numbers);
      const narrow = await reader.currentControlOf(numbers);
      assert.deepEqual(
        narrow,
        whole.map((p) => ({
          company_number: p.company_number,
          psc_id: p.psc_id,
          kind: p.kind,
          kind_class: p.kind_class,
          beneficial_owner: p.beneficial_owner,
          name: p.name,
          natures_of_control: p.natures_of_control,
          notified_on: p.notified_on,
          birth_year: p.birth_year,
          birth_month: p.birth_month,
          nationality: p.nationality,
          country_of_residence: p.country_of_residence,
          identification: p.identification,
          statement: p.statement,
          registered_company_number: p.registered_company_number,
          country: p.country,
          overseas: p.overseas,
          person_key: p.person_key,
          data: {},
          resolved_company_number: p.resolved_company_number,
          resolved_company_name: p.resolved_company_name,
        })),
      );
      assert.ok(narrow.some((p) => p.kind_class === 'statement') && narrow.some((p) => p.birth_year === 1970));
      assert.deepEqual(await reader.currentControlOf([]), []);
    });

    test("currentControlOf keeps of the filed JSON only an exemption's exemptions", async () => {
      const exemptions = { 'psc-exempt-as-trading-on-regulated-market': { exemption_type: 'x', items: [] } };
      await createPscStore(db.sql).upsertPscs(
        [
          pscStatement('00000011', 'exempt', {
            kind: 'exemptions',
            kind_class: 'exemption',
            statement: null,
            psc_id: 'exemptions',
            data: { kind: 'exemptions', exemptions, links: { self: '/company/00000011/exemptions' } },
          }),
        ],
        SNAPSHOT,
      );
      const [exemption] = await reader.currentControlOf(['00000011']);
      assert.deepEqual(exemption!.data, { exemptions });
    });

    test('controlledBy: the current corporate PSCs registered as these companies, ordered, at most the limit', async () => {
      const down = await reader.controlledBy(['00000001', '00000004'], 10);
      assert.deepEqual(
        down.map((p) => `${p.registered_company_number}>${p.company_number}`),
        ['00000001>00000004', '00000001>00000005', '00000004>00000006'],
      );
      assert.deepEqual(
        (await reader.controlledBy(['00000001', '00000004'], 2)).map((p) => p.company_number),
        ['00000004', '00000005'],
      );
      assert.deepEqual(await reader.controlledBy(['07777777'], 10), [], 'a parent not on the register is not walked');
      assert.deepEqual(await reader.controlledBy([], 10), []);
    });

    test('companiesOnRegister: the name and status of those on the register', async () => {
      assert.deepEqual(await reader.companiesOnRegister(['00000005', '99999999', '00000001']), [
        { company_number: '00000001', name: 'COMPANY 00000001 LIMITED', status: 'Active' },
        { company_number: '00000005', name: 'COMPANY 00000005 LIMITED', status: 'Liquidation' },
      ]);
      assert.deepEqual(await reader.companiesOnRegister([]), []);
    });

    test('controlledCounts: companies controlled now, by company number and by person', async () => {
      const counts = await reader.controlledCounts(
        ['00000001', '00000004', '00000006'],
        ['individual|alan smith|1970|3', 'individual|nobody|1900|1'],
      );
      // 00000001 controls 00000004 and 00000005 (its hold on 00000006 ceased).
      assert.deepEqual([...counts.companies].sort(), [
        ['00000001', 2],
        ['00000004', 1],
      ]);
      // Alan controls 00000003 and 00000010; his hold on 00000001 ceased.
      assert.deepEqual([...counts.persons], [['individual|alan smith|1970|3', 2]]);
      const none = await reader.controlledCounts([], []);
      assert.equal(none.companies.size + none.persons.size, 0);
    });

    test('the walk on the store: up, down, the cycle and the flags, one statement per level', async () => {
      const counted = countingSql(db.sql);
      const counting = createOwnershipReader(counted.sql);
      const root = { company_number: '00000001', name: 'COMPANY 00000001 LIMITED', status: 'Active' };
      const graph = await walkOwnership(counting, root, { direction: 'both', depth: 10 });
      const label = (id: string) =>
        graph.nodes.find((n) => n.id === id)!.company_number ?? graph.nodes.find((n) => n.id === id)!.name;
      assert.deepEqual(
        graph.edges.map((e) => `${label(e.from)}>${label(e.to)}`),
        [
          'ACME HOLDINGS INC>00000001',
          '00000002>00000001',
          '00000003>00000002',
          'Mr Alan Smith>00000003',
          '00000001>00000004',
          '00000001>00000005',
          '00000004>00000006',
        ],
      );
      assert.equal(graph.flags.overseas_parent, true);
      assert.equal(graph.flags.circular_ownership, false);
      assert.deepEqual(
        graph.nodes.filter((n) => n.kind === 'company').map((n) => [n.company_number, n.status]),
        [
          ['00000001', 'Active'],
          ['00000002', 'Active'],
          ['00000003', 'Active'],
          ['00000004', 'Active'],
          ['00000005', 'Liquidation'],
          ['00000006', 'Active'],
        ],
      );
      // Up: 00000001, 00000002, 00000003; down: 00000001, 00000004 and 00000005, 00000006; names; counts.
      assert.equal(counted.statements.length, 8, counted.statements.join('\n---\n'));

      const cycle = await walkOwnership(
        reader,
        { company_number: '00000007', name: 'COMPANY 00000007 LIMITED', status: 'Active' },
        { direction: 'both', depth: 10 },
      );
      assert.deepEqual(
        cycle.cycles.map((c) => c.companies),
        [['00000007', '00000008']],
      );
      assert.equal(cycle.edges.length, 2);

      const none = await walkOwnership(
        reader,
        { company_number: '00000009', name: 'COMPANY 00000009 LIMITED', status: 'Active' },
        { direction: 'up', depth: 5 },
      );
      assert.equal(none.flags.no_registrable_psc, true);
    });
  });
}
