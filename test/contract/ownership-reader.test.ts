/**
 * The OwnershipReader contract on every store (PGlite and a real PostgreSQL): a company's PSCs;
 * the records around a company up and down its chain, level by level, with names and the counts of
 * what controllers control; and the ownership walk over it, in one statement.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { walkOwnership } from '../../src/ownership/ownership-graph.ts';
import type { LevelledControlRecord, OwnershipReader } from '../../src/ports/ownership.ts';
import { countingSql } from '../support/batch-fixtures.ts';
import { testStores, useStore } from '../support/databases.ts';
import { seedOwnershipWorld, SNAPSHOT } from '../support/ownership-world.ts';
import { pscStatement } from '../support/psc-records.ts';
import { company } from '../support/store-records.ts';

for (const kind of testStores) {
  describe(`${kind.name}: OwnershipReader`, () => {
    const db = useStore(kind);
    let reader: OwnershipReader;
    before(async () => {
      await seedOwnershipWorld(db);
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

    const reach = (up: number, down: number, maxRecords = 100) => ({ up, down, maxRecords });
    const edge = (p: LevelledControlRecord) => `${p.level}:${p.registered_company_number}>${p.company_number}`;

    test('ownershipAround: null for a company not on the register; else the company, named', async () => {
      assert.equal(await reader.ownershipAround('99999999', reach(5, 5)), null);
      const around = await reader.ownershipAround('00000005', reach(5, 5));
      assert.deepEqual(around?.root, {
        company_number: '00000005',
        name: 'COMPANY 00000005 LIMITED',
        status: 'Liquidation',
      });
    });

    test('ownershipAround up: the current records of each level, narrowed to what the walk draws, in order', async () => {
      const around = (await reader.ownershipAround('00000001', reach(10, 0)))!;
      const whole = await reader.currentPscsOf(['00000001', '00000002', '00000003']);
      const level = new Map([
        ['00000001', 1],
        ['00000002', 2],
        ['00000003', 3],
      ]);
      assert.deepEqual(
        around.up,
        whole.map((p) => ({
          level: level.get(p.company_number),
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
          resolved_company_status: p.resolved_company_number === null ? null : 'Active',
          company_name: `COMPANY ${p.company_number} LIMITED`,
          company_status: 'Active',
        })),
      );
      assert.deepEqual(around.down, []);
      assert.deepEqual(
        (await reader.ownershipAround('00000001', reach(1, 0)))!.up.map((p) => p.psc_id),
        ['corp-acme-holdings-inc', 'corp-00000002'],
        'depth 1: its own records only, newest notified first',
      );
    });

    test("ownershipAround keeps of the filed JSON only an exemption's exemptions", async () => {
      const exemptions = { 'psc-exempt-as-trading-on-regulated-market': { exemption_type: 'x', items: [] } };
      await db.store.upsertCompanies([company('00000011')], SNAPSHOT);
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
      const [exemption] = (await reader.ownershipAround('00000011', reach(1, 0)))!.up;
      assert.deepEqual(exemption!.data, { exemptions });
    });

    test('ownershipAround down: the current corporate PSCs naming each level, breadth first, named', async () => {
      const around = (await reader.ownershipAround('00000001', reach(0, 10)))!;
      assert.deepEqual(around.up, []);
      assert.deepEqual(around.down.map(edge), ['1:00000001>00000004', '1:00000001>00000005', '2:00000004>00000006']);
      assert.deepEqual(
        around.down.map((p) => [p.company_name, p.company_status, p.resolved_company_name]),
        [
          ['COMPANY 00000004 LIMITED', 'Active', 'COMPANY 00000001 LIMITED'],
          ['COMPANY 00000005 LIMITED', 'Liquidation', 'COMPANY 00000001 LIMITED'],
          ['COMPANY 00000006 LIMITED', 'Active', 'COMPANY 00000004 LIMITED'],
        ],
      );
      assert.deepEqual((await reader.ownershipAround('00000001', reach(0, 1)))!.down.map(edge), [
        '1:00000001>00000004',
        '1:00000001>00000005',
      ]);
    });

    test('ownershipAround stops each way one past maxRecords, and a cycle at the depth', async () => {
      assert.equal((await reader.ownershipAround('00000001', reach(0, 10, 1)))!.down.length, 2);
      assert.equal((await reader.ownershipAround('00000001', reach(10, 0, 1)))!.up.length, 2);
      // 00000007 and 00000008 own each other: read again at each level, to the depth and no further.
      assert.deepEqual((await reader.ownershipAround('00000007', reach(0, 4)))!.down.map(edge), [
        '1:00000007>00000008',
        '2:00000008>00000007',
        '3:00000007>00000008',
        '4:00000008>00000007',
      ]);
      assert.deepEqual(
        (await reader.ownershipAround('00000007', reach(3, 0)))!.up.map((p) => `${p.level}:${p.company_number}`),
        ['1:00000007', '2:00000008', '3:00000007'],
      );
    });

    test('ownershipAround counts the companies each controller met controls now', async () => {
      const around = (await reader.ownershipAround('00000002', reach(5, 5)))!;
      // 00000002 controls 00000001; 00000003 controls 00000002; 00000001 controls 00000004 and
      // 00000005 (its hold on 00000006 ceased); 00000004 controls 00000006.
      assert.deepEqual([...around.counts.companies].sort(), [
        ['00000001', 2],
        ['00000002', 1],
        ['00000003', 1],
        ['00000004', 1],
      ]);
      // Alan controls 00000003 and 00000010; his hold on 00000001 ceased.
      assert.deepEqual([...around.counts.persons], [['individual|alan smith|1970|3', 2]]);
    });

    test('the walk on the store: up, down, the cycle and the flags, in one statement', async () => {
      const counted = countingSql(db.sql);
      const counting = createOwnershipReader(counted.sql);
      const graph = (await walkOwnership(counting, '00000001', { direction: 'both', depth: 10 }))!;
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
      assert.equal(counted.statements.length, 1, counted.statements.join('\n---\n'));

      const cycle = (await walkOwnership(reader, '00000007', { direction: 'both', depth: 10 }))!;
      assert.deepEqual(
        cycle.cycles.map((c) => c.companies),
        [['00000007', '00000008']],
      );
      assert.equal(cycle.edges.length, 2);

      const none = (await walkOwnership(reader, '00000009', { direction: 'up', depth: 5 }))!;
      assert.equal(none.flags.no_registrable_psc, true);
    });
  });
}
