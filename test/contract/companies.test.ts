/**
 * The CompanyStore contract (CompanyWriter and CompanyReader), run against every store: PGlite and
 * a real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import { countingSql } from '../support/batch-fixtures.ts';
import { testStores, useStore } from '../support/databases.ts';
import { REGISTER, seedOwnershipWorld } from '../support/ownership-world.ts';
import { company, figures, filing } from '../support/store-records.ts';

for (const kind of testStores) {
  describe(`${kind.name}: CompanyStore`, () => {
    const db = useStore(kind);

    test('an upserted company reads back whole', async () => {
      await db.store.upsertCompanies([company('00000001')], '2024-01-01');
      const found = await db.store.getCompany('00000001');
      assert.ok(found);
      assert.deepEqual(
        { ...found.company },
        { ...company('00000001'), snapshot_date: '2024-01-01', removed_from_register: null },
      );
      assert.deepEqual(found.accounts, []);
      assert.equal(await db.store.getCompany('99999999'), null);
    });

    test('a number repeated within one batch keeps its last row', async () => {
      await db.store.upsertCompanies(
        [company('00000005', { name: 'FIRST' }), company('00000005', { name: 'SECOND' })],
        '2024-01-01',
      );
      assert.equal((await db.store.getCompany('00000005'))?.company.name, 'SECOND');
    });

    test('a newer snapshot updates; an older one never overwrites it', async () => {
      await db.store.upsertCompanies([company('00000002', { status: 'Liquidation' })], '2024-02-01');
      await db.store.upsertCompanies([company('00000002', { status: 'Active' })], '2024-01-01');
      assert.equal((await db.store.getCompany('00000002'))?.company.status, 'Liquidation');
    });

    test('a complete snapshot marks the companies it no longer lists as dissolved, and they come back if listed again', async () => {
      await db.store.upsertCompanies([company('00000003'), company('00000004')], '2024-03-01');
      await db.store.upsertCompanies([company('00000003')], '2024-04-01');
      const marked = await db.store.markRemovedFromRegister('2024-04-01');
      assert.ok(marked >= 1);
      const gone = await db.store.getCompany('00000004');
      assert.equal(gone?.company.status, 'Dissolved');
      assert.equal(gone?.company.removed_from_register, '2024-04-01');
      assert.equal((await db.store.getCompany('00000003'))?.company.status, 'Active');
      await db.store.upsertCompanies([company('00000004')], '2024-05-01');
      assert.equal((await db.store.getCompany('00000004'))?.company.removed_from_register, null);
    });

    test('history: one entry per balance sheet date, newest first, prior-period years marked', async () => {
      await db.store.upsertCompanies([company('00000010')], '2024-01-01');
      await db.store.saveFilings(
        [
          filing('00000010', 'Accounts_Bulk_Data-2023-06-01.zip', 'a.html', '2022-12-31', 200, {
            prior_balance_sheet_date: '2021-12-31',
            prior: figures(150),
            published: '2023-06-01',
          }),
          filing('00000010', 'Accounts_Bulk_Data-2024-06-01.zip', 'b.html', '2023-12-31', 300, {
            prior_balance_sheet_date: '2022-12-31',
            prior: figures(999),
            published: '2024-06-01',
          }),
        ],
        [],
      );
      const found = await db.store.getCompany('00000010');
      assert.deepEqual(
        found?.accounts.map((a) => [a.balance_sheet_date, a.figures.net_assets, a.from_prior_period, a.published]),
        [
          ['2023-12-31', 300, false, '2024-06-01'],
          // The filing's own column beats the later filing's prior column (999).
          ['2022-12-31', 200, false, '2023-06-01'],
          ['2021-12-31', 150, true, '2023-06-01'],
        ],
      );
      // Each year names the file its figures came from; a prior-year-only year, the filing that reported it.
      assert.deepEqual(
        found?.accounts.map((a) => [a.balance_sheet_date, a.source]),
        [
          ['2023-12-31', { zip: 'Accounts_Bulk_Data-2024-06-01.zip', file: 'b.html' }],
          ['2022-12-31', { zip: 'Accounts_Bulk_Data-2023-06-01.zip', file: 'a.html' }],
          ['2021-12-31', { zip: 'Accounts_Bulk_Data-2023-06-01.zip', file: 'a.html' }],
        ],
      );
    });

    test('history: a file loaded on its own, outside a bulk zip, has no zip; an amendment brings its own file', async () => {
      await db.store.upsertCompanies([company('00000018')], '2024-01-01');
      await db.store.saveFilings([filing('00000018', '', 'Prod223_0001_00000018_20231231.html', '2023-12-31', 7)], []);
      assert.deepEqual((await db.store.getCompany('00000018'))?.accounts[0]?.source, {
        zip: null,
        file: 'Prod223_0001_00000018_20231231.html',
      });
      await db.store.saveFilings(
        [
          filing('00000018', 'Accounts_Bulk_Data-2024-09-01.zip', 'amended.html', '2023-12-31', 8, {
            published: '2024-09-01',
          }),
        ],
        [],
      );
      const [entry] = (await db.store.getCompanies(['00000018']))[0]?.accounts ?? [];
      assert.deepEqual(
        [entry?.figures.net_assets, entry?.source],
        [8, { zip: 'Accounts_Bulk_Data-2024-09-01.zip', file: 'amended.html' }],
      );
    });

    test('an amended filing (published later) replaces the original for its date, whatever the load order', async () => {
      const amended = filing('00000011', 'Accounts_Bulk_Data-2024-03-01.zip', 'amended.html', '2023-12-31', 500, {
        published: '2024-03-01',
      });
      const original = filing('00000011', 'Accounts_Bulk_Data-2024-02-01.zip', 'orig.html', '2023-12-31', 400, {
        published: '2024-02-01',
      });
      await db.store.saveFilings([amended], []);
      await db.store.saveFilings([original], []);
      const found = await db.store.getCompany('00000011');
      assert.equal(found, null, 'no register row yet');
      const rows = await db.sql.query<{ na: number }>(
        `SELECT (figures->>'net_assets')::int AS na FROM accounts_history WHERE company_number = '00000011'`,
      );
      assert.deepEqual(rows.rows, [{ na: 500 }]);
    });

    test('a batch holding one member twice (a zip may repeat a name) keeps the later, as two batches would', async () => {
      await db.store.upsertCompanies([company('00000019')], '2024-01-01');
      const zip = 'Accounts_Bulk_Data-2024-01-05.zip';
      await db.store.saveFilings(
        [
          filing('00000019', zip, 'twice.html', '2023-12-31', 1),
          filing('00000019', zip, 'twice.html', '2023-12-31', 2),
        ],
        [
          { source_zip: zip, source_file: 'bad-twice.html', code: 'truncated', message: 'first' },
          { source_zip: zip, source_file: 'bad-twice.html', code: 'empty', message: 'second' },
        ],
      );
      const [entry] = (await db.store.getCompany('00000019'))?.accounts ?? [];
      assert.equal(entry?.figures.net_assets, 2);
      const failures = await db.sql.query(`SELECT code FROM parse_failures WHERE source_file = 'bad-twice.html'`);
      assert.deepEqual(failures.rows, [{ code: 'empty' }]);
    });

    test('saving the same filings twice changes nothing', async () => {
      const batch = [filing('00000012', 'Accounts_Bulk_Data-2024-01-02.zip', 'x.html', '2023-03-31', 7)];
      await db.store.saveFilings(batch, []);
      const before = await db.sql.query(`SELECT count(*)::int AS n FROM filings WHERE company_number = '00000012'`);
      await db.store.saveFilings(batch, []);
      const after = await db.sql.query(`SELECT count(*)::int AS n FROM filings WHERE company_number = '00000012'`);
      assert.deepEqual(after.rows, before.rows);
    });

    test('quality warnings follow their period into the history', async () => {
      await db.store.saveFilings(
        [
          filing('00000013', 'z.zip', 'q.html', '2023-03-31', 7, {
            prior_balance_sheet_date: '2022-03-31',
            prior: figures(5),
            quality: [
              { field: 'employees', period: 'current', message: 'current one' },
              { field: 'employees', period: 'prior', message: 'prior one' },
            ],
          }),
        ],
        [],
      );
      const rows = await db.sql.query<{ d: string; q: { message: string }[] }>(
        `SELECT balance_sheet_date AS d, quality AS q FROM accounts_history WHERE company_number = '00000013' ORDER BY 1`,
      );
      assert.deepEqual(
        rows.rows.map((r) => [r.d, r.q.map((w) => w.message)]),
        [
          ['2022-03-31', ['prior one']],
          ['2023-03-31', ['current one']],
        ],
      );
    });

    test('a filing with no figures at its balance sheet date is listed until a later prior column gives that date figures, whatever the load order', async () => {
      // What the parser makes of a filing that tags only its comparative column: its stated date
      // 2018-02-28, all-null current figures with a quality warning, and the 2016 column as prior.
      const noFigures = (number: string) =>
        filing(number, 'Accounts_Bulk_Data-2018-11-20.zip', `Prod223_2125_${number}_20180228.html`, '2018-02-28', 0, {
          current: emptyFigures(),
          prior_balance_sheet_date: '2016-09-30',
          prior: figures(9400),
          published: '2018-11-20',
          quality: [
            {
              field: 'balance_sheet_date',
              period: 'current',
              message:
                'no figures are tagged for the balance sheet date 2018-02-28; the figures tagged for 2016-09-30 are the prior period',
            },
          ],
        });
      const nextYear = (number: string) =>
        filing(
          number,
          'Accounts_Bulk_Data-2019-11-20.zip',
          `Prod223_2300_${number}_20190228.html`,
          '2019-02-28',
          12000,
          {
            prior_balance_sheet_date: '2018-02-28',
            prior: figures(10100),
            published: '2019-11-20',
          },
        );
      const history = async (number: string) =>
        (await db.store.getCompany(number))?.accounts.map((a) => [
          a.balance_sheet_date,
          a.figures.net_assets,
          a.from_prior_period,
          a.quality.map((q) => q.field),
        ]);
      // Both ways of reading: the full scan and the changed companies.
      const indexed = async (number: string, changedSince?: string) => {
        for await (const batch of db.store.companiesForIndex(1000, changedSince)) {
          const found = batch.find((source) => source.company.company_number === number);
          if (found) return found.accounts.map((a) => [a.balance_sheet_date, a.figures.net_assets]);
        }
        return undefined;
      };
      await db.store.upsertCompanies([company('00000015'), company('00000016')], '2024-01-01');

      await db.store.saveFilings([noFigures('00000015')], []);
      // Until a later filing arrives, the empty entry is in the history with its warning...
      assert.deepEqual(await history('00000015'), [
        ['2018-02-28', null, false, ['balance_sheet_date']],
        ['2016-09-30', 9400, true, []],
      ]);
      // ...but the search index reads only entries with figures.
      assert.deepEqual(await indexed('00000015'), [['2016-09-30', 9400]]);

      await db.store.saveFilings([nextYear('00000015')], []);
      await db.store.saveFilings([nextYear('00000016')], []);
      await db.store.saveFilings([noFigures('00000016')], []);
      const want = [
        ['2019-02-28', 12000, false, []],
        // The next year's comparative column beats the empty current column for the same date.
        ['2018-02-28', 10100, true, []],
        ['2016-09-30', 9400, true, []],
      ];
      assert.deepEqual(await history('00000015'), want);
      assert.deepEqual(await history('00000016'), want);
      assert.deepEqual(await indexed('00000016', '1970-01-01T00:00:00Z'), [
        ['2019-02-28', 12000],
        ['2018-02-28', 10100],
        ['2016-09-30', 9400],
      ]);
    });

    test('an amendment with no figures does not replace the figures of the original', async () => {
      const original = filing('00000017', 'Accounts_Bulk_Data-2024-02-01.zip', 'orig.html', '2023-12-31', 400, {
        published: '2024-02-01',
      });
      const empty = filing('00000017', 'Accounts_Bulk_Data-2024-03-01.zip', 'amended.html', '2023-12-31', 0, {
        current: emptyFigures(),
        published: '2024-03-01',
      });
      await db.store.saveFilings([original, empty], []);
      const rows = await db.sql.query<{ na: number }>(
        `SELECT (figures->>'net_assets')::int AS na FROM accounts_history WHERE company_number = '00000017'`,
      );
      assert.deepEqual(rows.rows, [{ na: 400 }]);
    });

    test('a failure is recorded, and cleared when the same file later parses', async () => {
      await db.store.saveFilings(
        [],
        [{ source_zip: 'f.zip', source_file: 'bad.html', code: 'truncated', message: 'cut short' }],
      );
      assert.equal((await db.sql.query(`SELECT 1 FROM parse_failures WHERE source_file = 'bad.html'`)).rowCount, 1);
      await db.store.saveFilings([filing('00000014', 'f.zip', 'bad.html', '2023-03-31', 1)], []);
      assert.equal((await db.sql.query(`SELECT 1 FROM parse_failures WHERE source_file = 'bad.html'`)).rowCount, 0);
    });
  });

  describe(`${kind.name}: CompanyReader.companyWithPscs`, () => {
    const db = useStore(kind);
    const reader = () => createOwnershipReader(db.sql);
    before(() => seedOwnershipWorld(db));

    test('companyWithPscs: the company as getCompany reads it and its PSCs as pscsOf does, in one statement', async () => {
      for (const number of [...REGISTER, '99999999'])
        for (const includeCeased of [false, true]) {
          const [found, pscs] = [await db.store.getCompany(number), await reader().pscsOf(number, includeCeased)];
          const statements = countingSql(db.sql);
          const both = await createCompanyStore(statements.sql).companyWithPscs(number, includeCeased);
          assert.equal(statements.statements.length, 1, `${number}: one statement`);
          assert.deepEqual(both, found && { ...found, pscs }, `${number}, include_ceased ${includeCeased}`);
        }
      const withHistory = await db.store.companyWithPscs('00000001', true);
      assert.deepEqual(
        [withHistory!.accounts.map((a) => a.balance_sheet_date), withHistory!.pscs.length],
        [['2023-12-31', '2022-12-31'], 4],
      );
    });
  });
}
