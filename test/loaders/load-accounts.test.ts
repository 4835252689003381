/**
 * The accounts loader on both stores: real samples and generated bulk zips, publication dates
 * from bulk file names, failures recorded, idempotence, skip of completed bulk files, and a load
 * killed half-way.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { describeAccountsSummary, describeRepeatedMembers, loadAccounts } from '../../loaders/load-accounts.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { hasAnyFigure } from '../../src/domain/figures.ts';
import { watchSnapshot } from '../../src/domain/watch-snapshot.ts';
import { companyProfile } from '../../src/operations/company-profile.ts';
import { renderProfile } from '../../src/operations/lookup-company.ts';
import { writeBulkZips } from '../../src/synthetic/bulk-zip.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import type { SyntheticFiling } from '../../src/synthetic/filings.ts';
import { dumpState, freshPostgres, testStores, useStore } from '../support/databases.ts';
import { watchJournal } from '../support/journal-watch.ts';
import { ixDocument, money } from '../support/ixbrl-doc.ts';
import { accountsSamplesDir, repoRoot } from '../support/samples.ts';
import { company } from '../support/store-records.ts';
import { writeZip } from '../support/zip.ts';

const dir = mkdtempSync(join(tmpdir(), 'ukcd-accounts-'));
const quiet = { reportDir: join(dir, 'reports'), log: () => undefined, workers: 2 };

// A generated corpus: several years of filings for 150 companies, in daily bulk zips.
const corpus = join(dir, 'corpus');
const expected = new Map<string, SyntheticFiling['expected'] & { published: string }>();
before(async () => {
  mkdirSync(corpus);
  const filings = [...syntheticFilings({ seed: 7, companies: 150, yearsPerCompany: 4 })];
  for (const f of filings) expected.set(f.fileName, { ...f.expected, published: f.published });
  await writeBulkZips(filings, corpus);
});

for (const kind of testStores) {
  describe(`${kind.name}: ukcd load accounts`, () => {
    const db = useStore(kind);

    test('generated bulk zips load with their known figures and publication dates', async () => {
      const summary = await loadAccounts({ filings: db.store, journal: db.store }, [corpus], quiet);
      assert.equal(summary.failed, 0);
      assert.equal(summary.parsed, expected.size);
      const rows = await db.sql.query<{
        source_file: string;
        published: string;
        balance_sheet_date: string;
        current_figures: unknown;
      }>(`SELECT source_file, published, balance_sheet_date, current_figures FROM filings`);
      assert.equal(rows.rowCount, expected.size);
      for (const row of rows.rows) {
        const want = expected.get(row.source_file)!;
        assert.deepEqual(
          [row.published, row.balance_sheet_date, row.current_figures],
          [want.published, want.balance_sheet_date, want.current],
        );
      }
    });

    test('the history holds every year, from current columns and prior-only years', async () => {
      const history = await db.sql.query<{ n: number; prior_only: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE from_prior_period)::int AS prior_only FROM accounts_history`,
      );
      const years = new Set([...expected.values()].map((e) => `${e.company_number} ${e.balance_sheet_date}`));
      assert.ok(history.rows[0]!.n > years.size, 'years known only from a prior column are added');
      assert.equal(history.rows[0]!.n - history.rows[0]!.prior_only, years.size);
    });

    test('a second run skips completed bulk files and changes nothing; --force reloads to the same state', async () => {
      const state = await dumpState(db.sql);
      const again = await loadAccounts({ filings: db.store, journal: db.store }, [corpus], quiet);
      assert.equal(again.filings, 0);
      assert.equal(again.skipped.length, readdirSync(corpus).length);
      const forced = await loadAccounts({ filings: db.store, journal: db.store }, [corpus], { ...quiet, force: true });
      assert.equal(forced.parsed, expected.size);
      assert.equal(await dumpState(db.sql), state);
    });

    test('while a bulk file loads, its counts so far reach the journal, where another process can read them', async () => {
      const watch = watchJournal(db.store, 'accounts');
      // Each bulk file here holds a few filings and loads in milliseconds; writes that take a little
      // longer, as on a busy database, make every file span several report intervals, so that the
      // test does not depend on how busy the machine is.
      const busy = {
        ...db.store,
        saveFilings: async (...args: Parameters<typeof db.store.saveFilings>) => {
          await new Promise((wake) => setTimeout(wake, 25));
          return db.store.saveFilings(...args);
        },
      };
      const summary = await loadAccounts({ filings: busy, journal: busy }, [corpus], {
        ...quiet,
        force: true,
        progressIntervalMs: 5,
      }).finally(() => watch.stop());
      assert.equal(summary.parsed, expected.size);
      const seen = await watch.stop();
      assert.ok(
        seen.some((load) => load.rows_read > 0),
        `counts were reported while running: ${JSON.stringify(seen.slice(-3))}`,
      );
      for (const load of seen) assert.ok(load.rows_written <= load.rows_read, JSON.stringify(load));
      const progress = await db.store.loadProgress();
      assert.deepEqual(
        progress.running.filter((load) => load.kind === 'accounts'),
        [],
      );
    });

    test('when writing fails the load stops with that error, and the journal records the failure', async () => {
      const failing = {
        ...db.store,
        saveFilings: async () => {
          throw new Error('disk full');
        },
      };
      await assert.rejects(
        loadAccounts({ filings: failing, journal: failing }, [corpus], { ...quiet, batchSize: 20, force: true }),
        /disk full/,
      );
      const failed = (await db.store.loadProgress()).lastFinished.find(
        (load) => load.kind === 'accounts' && load.status === 'failed',
      );
      assert.ok(failed, 'a failed accounts load in the journal');
    });

    test('unreadable filings are recorded with their reason, and the rest still load', async () => {
      const folder = join(dir, `mixed-${kind.name}`);
      mkdirSync(folder);
      copyFileSync(
        join(accountsSamplesDir, 'Prod223_3384_NI681295_20220831.html'),
        join(folder, 'Prod223_3384_NI681295_20220831.html'),
      );
      const whole = readFileSync(join(accountsSamplesDir, 'Prod223_3384_SC722766_20230228.html'));
      writeFileSync(join(folder, 'Prod223_3384_SC722766_20230228.html'), whole.subarray(0, 3000));
      writeFileSync(join(folder, 'notes.txt'), 'not a filing');
      const summary = await loadAccounts({ filings: db.store, journal: db.store }, [folder], {
        ...quiet,
        published: '2023-03-10',
      });
      assert.deepEqual([summary.parsed, summary.failed], [1, 2]);
      assert.deepEqual(summary.failuresByCode, { truncated: 1, not_accounts: 1 });
      const failures = await db.sql.query<{ source_file: string; code: string }>(
        `SELECT source_file, code FROM parse_failures WHERE source_zip = '' ORDER BY 1`,
      );
      assert.deepEqual(failures.rows, [
        { source_file: 'Prod223_3384_SC722766_20230228.html', code: 'truncated' },
        { source_file: 'notes.txt', code: 'not_accounts' },
      ]);
      const report = readFileSync(summary.failureReport!, 'utf8');
      assert.match(report, /"code":"truncated"/);
      const loaded = await db.sql.query<{ published: string }>(
        `SELECT published FROM filings WHERE company_number = 'NI681295'`,
      );
      assert.deepEqual(loaded.rows, [{ published: '2023-03-10' }]);
    });

    test('a bulk zip naming a member more than once loads the last copy of each, however the parses finish, and says so', async () => {
      const folder = join(dir, `repeats-${kind.name}`);
      mkdirSync(folder);
      const bulk = 'Accounts_Bulk_Data-2024-01-02.zip';
      const [a, b, c] = ['Prod223_0001_01234567', 'Prod223_0002_01234568', 'Prod223_0003_01234569'].map(
        (prefix) => `${prefix}_20231231.html`,
      ) as [string, string, string];
      // Facts enough to make a copy slow to parse (about 3 MB). The first copy of a, slow, goes to
      // one worker and its quick last copy to the other, so their parses finish in reverse order.
      const filing = (number: string, netAssets: string, slow = false) =>
        Buffer.from(
          ixDocument(
            money('NetAssetsLiabilities', 'cy', netAssets) +
              (slow
                ? Array.from({ length: 20_000 }, () => `<p>${money('TurnoverRevenue', 'cyd', '5,000')}</p>`).join('\n')
                : ''),
            { number },
          ),
        );
      await writeZip(join(folder, bulk), [
        [a, filing('01234567', '111', true)],
        [a, filing('01234567', '222')],
        [b, filing('01234568', '5,000')],
        [c, filing('01234569', '777')],
        [b, filing('01234568', '6,000')],
        // The last copy of b is cut short: b is a parse failure, whatever its earlier copies held.
        [b, filing('01234568', '7,000').subarray(0, 1500)],
      ]);
      // One batch, and one batch per filing (a repeat across batches), each loaded twice.
      for (const batchSize of [500, 1, 500, 1]) {
        const summary = await loadAccounts({ filings: db.store, journal: db.store }, [folder], {
          ...quiet,
          batchSize,
          force: true,
        });
        const filings = await db.sql.query<{ source_file: string; net_assets: number }>(
          `SELECT source_file, (current_figures->>'net_assets')::int AS net_assets FROM filings WHERE source_zip = $1 ORDER BY 1`,
          [bulk],
        );
        assert.deepEqual(
          filings.rows,
          [
            { source_file: a, net_assets: 222 },
            { source_file: c, net_assets: 777 },
          ],
          `batch size ${batchSize}`,
        );
        const failures = await db.sql.query<{ source_file: string; code: string }>(
          `SELECT source_file, code FROM parse_failures WHERE source_zip = $1`,
          [bulk],
        );
        assert.deepEqual(failures.rows, [{ source_file: b, code: 'truncated' }]);
        assert.deepEqual(summary.repeatedMembers, [
          { zip: bulk, file: a, copies: 2 },
          { zip: bulk, file: b, copies: 3 },
        ]);
        assert.deepEqual([summary.filings, summary.parsed, summary.failed], [3, 2, 1]);
        assert.match(
          describeAccountsSummary(summary),
          new RegExp(
            `; 2 members named more than once in ${bulk}: ${a} \\(2 copies\\), ${b} \\(3 copies\\) \\(the last copy of each kept\\)`,
          ),
        );
        const journal = await db.sql.query<{ repeated: unknown; rows_read: number }>(
          `SELECT detail->'repeated_members' AS repeated, rows_read FROM load_journal WHERE source = $1 ORDER BY id DESC LIMIT 1`,
          [bulk],
        );
        assert.deepEqual(journal.rows, [{ repeated: { [a]: 2, [b]: 3 }, rows_read: 3 }]);
      }
    });

    test('a filing with no figures at its balance sheet date is listed, never the latest accounts, until the next one gives that date figures', async () => {
      // The shape of a real FRS 105 filing (see test/accounts/parse-filing.test.ts): dated
      // 2018-02-28, as is its file name, with "-" untagged in the 2018 column and only the
      // comparative column, to 2016-09-30, tagged.
      const number = '09425999';
      const frs105 = 'https://xbrl.frc.org.uk/FRS-105/2014-09-01/FRS-105-2014-09-01.xsd';
      const stated =
        '<ix:nonNumeric name="bus:BalanceSheetDate" contextRef="pyd" format="ixt:date-day-monthname-year-en">28 February 2018</ix:nonNumeric>';
      const onlyComparative = ixDocument(
        stated + money('NetAssetsLiabilities', 'py', '9,400') + money('TurnoverRevenue', 'pyd', '48,210'),
        {
          contexts: [
            { id: 'py', instant: '2016-09-30' },
            { id: 'pyd', start: '2015-10-01', end: '2016-09-30' },
          ],
          number,
          schemaRef: frs105,
        },
      );
      // The next year's filing, whose comparative column is the 2018 figures.
      const nextYear = ixDocument(
        money('NetAssetsLiabilities', 'cy', '12,000') + money('NetAssetsLiabilities', 'py', '10,100'),
        {
          contexts: [
            { id: 'cy', instant: '2019-02-28' },
            { id: 'py', instant: '2018-02-28' },
          ],
          number,
          schemaRef: frs105,
        },
      );
      const load = async (file: string, document: string, published: string) => {
        const folder = join(dir, `${file}-${kind.name}`);
        mkdirSync(folder);
        writeFileSync(join(folder, file), document);
        const summary = await loadAccounts({ filings: db.store, journal: db.store }, [folder], { ...quiet, published });
        assert.deepEqual([summary.parsed, summary.failed], [1, 0]);
      };
      const lookup = async () => {
        const found = await db.store.getCompany(number);
        assert.ok(found);
        return { found, profile: companyProfile(found, '2019-12-01') };
      };
      await db.store.upsertCompanies([company(number)], '2019-06-01');

      await load(`Prod223_2125_${number}_20180228.html`, onlyComparative, '2018-11-20');
      let { found, profile } = await lookup();
      assert.deepEqual(
        found.accounts.map((a) => [a.balance_sheet_date, hasAnyFigure(a.figures), a.from_prior_period]),
        [
          ['2018-02-28', false, false],
          ['2016-09-30', true, true],
        ],
      );
      // The latest accounts are the newest with figures; the empty filing stays listed, with its warning.
      assert.equal(profile.latest?.balance_sheet_date, '2016-09-30');
      assert.equal(profile.latest.figures.net_assets, 9400);
      assert.equal(profile.trajectory.periods, 1);
      const markdown = renderProfile(profile);
      assert.match(markdown, /## Accounts \(latest: 2016-09-30\)/);
      assert.match(markdown, /- 2018-02-28: no figures are tagged for the balance sheet date 2018-02-28/);
      assert.deepEqual(watchSnapshot(found).net_assets, 9400);

      await load(`Prod223_2300_${number}_20190228.html`, nextYear, '2019-11-20');
      ({ found, profile } = await lookup());
      assert.deepEqual(
        found.accounts.map((a) => [a.balance_sheet_date, a.figures.net_assets, a.from_prior_period, a.quality]),
        [
          ['2019-02-28', 12000, false, []],
          ['2018-02-28', 10100, true, []],
          ['2016-09-30', 9400, true, []],
        ],
      );
      assert.equal(profile.latest?.balance_sheet_date, '2019-02-28');
      assert.deepEqual([profile.trajectory.net_assets.first, profile.trajectory.net_assets.last], [9400, 12000]);
    });
  });
}

describe('what a load says of repeated members', () => {
  const repeats = (zip: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ zip, file: `m${i + 1}.html`, copies: 2 + (i % 2) }));
  const cases: [title: string, repeats: ReturnType<typeof repeats>, said: string][] = [
    [
      'one name in one zip',
      repeats('A.zip', 1),
      '1 member named more than once in A.zip: m1.html (2 copies) (the last copy of each kept)',
    ],
    [
      'two zips, each on its own',
      [...repeats('A.zip', 2), ...repeats('B.zip', 1)],
      '2 members named more than once in A.zip: m1.html (2 copies), m2.html (3 copies) (the last copy of each kept); ' +
        '1 member named more than once in B.zip: m1.html (2 copies) (the last copy of each kept)',
    ],
    [
      'ten names listed, the rest counted',
      repeats('A.zip', 12),
      `12 members named more than once in A.zip: ${repeats('A.zip', 10)
        .map((r) => `${r.file} (${r.copies} copies)`)
        .join(', ')}, 2 more in the load journal (the last copy of each kept)`,
    ],
    [
      'more than three zips: a total',
      ['A', 'B', 'C', 'D'].flatMap((zip) => repeats(`${zip}.zip`, 2)),
      "8 members named more than once in 4 bulk zips (the last copy of each kept; listed in each zip's journal entry)",
    ],
  ];
  for (const [title, given, said] of cases) test(title, () => assert.equal(describeRepeatedMembers(given), said));
});

describe('ukcd load accounts killed with SIGKILL half-way, then run again', () => {
  test('ends in the same state as one clean run (real Postgres)', async () => {
    const killed = await freshPostgres();
    const clean = await freshPostgres();
    try {
      const child = spawn(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'load', 'accounts', corpus], {
        env: { ...process.env, DATABASE_URL: killed.url, DATA_DIR: join(dir, 'data-killed') },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      for (let waited = 0; ; waited += 20) {
        const n = (await killed.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM filings`)).rows[0]!.n;
        if (n >= expected.size / 4) break;
        if (waited > 60_000) assert.fail('the load never got going');
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      await exited;
      const half = (await killed.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM filings`)).rows[0]!.n;
      assert.ok(half < expected.size, `killed half-way (${half} of ${expected.size} filings in)`);

      await loadAccounts(
        { filings: createCompanyStore(killed.sql), journal: createCompanyStore(killed.sql) },
        [corpus],
        quiet,
      );
      await loadAccounts(
        { filings: createCompanyStore(clean.sql), journal: createCompanyStore(clean.sql) },
        [corpus],
        quiet,
      );
      assert.equal(await dumpState(killed.sql), await dumpState(clean.sql));
      // The bulk file being loaded when the process died (if it died inside one) is journalled as
      // interrupted; nothing is left "running", and every bulk file ends with a completed load.
      const journal = await killed.sql.query<{ status: string; n: number }>(
        `SELECT status, count(DISTINCT source)::int AS n FROM load_journal GROUP BY status`,
      );
      const byStatus = Object.fromEntries(journal.rows.map((r) => [r.status, r.n]));
      assert.equal(byStatus.running, undefined);
      assert.ok((byStatus.interrupted ?? 0) <= 1);
      assert.equal(byStatus.done, readdirSync(corpus).length);
    } finally {
      await killed.drop();
      await clean.drop();
    }
  });
});
