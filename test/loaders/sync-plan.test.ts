/**
 * Reading the download service's pages and planning a sync: tables of what is offered and what
 * is loaded, and what a sync should fetch.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  dailyAccountsFiles,
  fileNameProblem,
  isSyncFileName,
  linkedFiles,
  pscReleases,
  registerReleases,
} from '../../loaders/sync/listing.ts';
import type { ListedFile } from '../../loaders/sync/listing.ts';
import { planSync } from '../../loaders/sync/plan.ts';
import { parseContentRange } from '../../loaders/sync/resumable-download.ts';

const BASE = 'https://download.companieshouse.gov.uk/en_output.html';
const files = (...names: string[]): ListedFile[] => names.map((name) => ({ name, url: `https://x/${name}` }));

describe('linked files of a page', () => {
  test('relative, absolute and nested links resolve against the page; other anchors are kept by name once', () => {
    const html = `<html><body>
      <a href="BasicCompanyDataAsOneFile-2024-06-01.zip">BasicCompanyDataAsOneFile-2024-06-01.zip (460Mb)</a>
      <A HREF="/archive/Accounts_Bulk_Data-2024-06-04.zip">x</A>
      <a href="https://mirror.example/BasicCompanyData-2024-06-01-part1_7.zip">part 1</a>
      <a href="BasicCompanyDataAsOneFile-2024-06-01.zip">again</a>
      <a>no href</a><a href="http://[bad">bad</a>
    </body></html>`;
    assert.deepEqual(linkedFiles(html, BASE).files, [
      {
        name: 'BasicCompanyDataAsOneFile-2024-06-01.zip',
        url: 'https://download.companieshouse.gov.uk/BasicCompanyDataAsOneFile-2024-06-01.zip',
      },
      {
        name: 'Accounts_Bulk_Data-2024-06-04.zip',
        url: 'https://download.companieshouse.gov.uk/archive/Accounts_Bulk_Data-2024-06-04.zip',
      },
      {
        name: 'BasicCompanyData-2024-06-01-part1_7.zip',
        url: 'https://mirror.example/BasicCompanyData-2024-06-01-part1_7.zip',
      },
    ]);
  });
});

describe('file names from a page', () => {
  // [decoded last segment of a link, why it is not a plain file name (null: it is), a file sync fetches]
  const cases: [string, string | null, boolean][] = [
    ['Accounts_Bulk_Data-2026-11-20.zip', null, true],
    ['BasicCompanyDataAsOneFile-2024-06-01.zip', null, true],
    ['BasicCompanyData-2024-06-01-part3_7.zip', null, true],
    ['accounts_bulk_data-2026-11-20.ZIP', null, true],
    ['../../x/Accounts_Bulk_Data-2026-11-20.zip', 'its file name holds a path', false],
    ['..\\Accounts_Bulk_Data-2026-11-20.zip', 'its file name holds a path', false],
    ['/etc/Accounts_Bulk_Data-2026-11-20.zip', 'its file name holds a path', false],
    ['..', 'its file name is a folder', false],
    ['Accounts_Bulk_Data-2026-11-20.zip\u0000.html', 'its file name holds control characters', false],
    ['Accounts_Bulk_Data-2026-11-20.zip\n', 'its file name holds control characters', false],
    ['Accounts_Monthly_Data-May2024.zip', null, false],
    ['BasicCompanyDataAsOneFile-2024-06-01.csv', null, false],
    ['Accounts_Bulk_Data-2026-11-20.zip.exe', null, false],
    ['x-Accounts_Bulk_Data-2026-11-20.zip', null, false],
    ['index.html', null, false],
    ['persons-with-significant-control-snapshot-2026-01-05.zip', null, true],
    ['psc-snapshot-2026-01-05_3of28.zip', null, true],
    ['psc-snapshot-2026-01-05_3of28.txt', null, false],
    ['persons-with-significant-control-snapshot-2026-01-05.zip.part', null, false],
    ['../psc-snapshot-2026-01-05_3of28.zip', 'its file name holds a path', false],
  ];
  for (const [name, problem, fetched] of cases) {
    test(JSON.stringify(name), () => {
      assert.equal(fileNameProblem(name), problem);
      assert.equal(isSyncFileName(name), fetched);
    });
  }

  test('a link whose decoded name holds a path is refused, not listed, even when its tail is a product file', () => {
    const html = `<a href="..%2F..%2Fx%2FAccounts_Bulk_Data-2026-11-20.zip">a</a>
      <a href="a%5C..%5CBasicCompanyDataAsOneFile-2026-11-01.zip">b</a>
      <a href="%E0%A4%A.zip">c</a>
      <a href="Accounts_Bulk_Data-2026-11-19.zip">d</a>`;
    const links = linkedFiles(html, BASE);
    assert.deepEqual(
      links.files.map((f) => f.name),
      ['Accounts_Bulk_Data-2026-11-19.zip'],
    );
    assert.deepEqual(links.refused, [
      { href: '..%2F..%2Fx%2FAccounts_Bulk_Data-2026-11-20.zip', reason: 'its file name holds a path' },
      { href: 'a%5C..%5CBasicCompanyDataAsOneFile-2026-11-01.zip', reason: 'its file name holds a path' },
      { href: '%E0%A4%A.zip', reason: 'its file name cannot be decoded' },
    ]);
  });

  test('a listed file whose name holds a path is never offered, whatever made the list', () => {
    const hostile = [{ name: '../x/Accounts_Bulk_Data-2026-11-20.zip', url: 'https://x/a' }];
    assert.deepEqual(dailyAccountsFiles(hostile), []);
    assert.deepEqual(
      registerReleases([{ name: '../x/BasicCompanyDataAsOneFile-2026-11-01.zip', url: 'https://x/b' }]),
      [],
    );
  });
});

describe('register releases offered', () => {
  const cases: { name: string; offered: string[]; releases: [string, string[]][] }[] = [
    {
      name: 'the one file is preferred to the parts of the same date',
      offered: [
        'BasicCompanyData-2024-06-01-part1_2.zip',
        'BasicCompanyData-2024-06-01-part2_2.zip',
        'BasicCompanyDataAsOneFile-2024-06-01.zip',
      ],
      releases: [['2024-06-01', ['BasicCompanyDataAsOneFile-2024-06-01.zip']]],
    },
    {
      name: 'all parts of a date, in part order',
      offered: ['BasicCompanyData-2024-06-01-part2_2.zip', 'BasicCompanyData-2024-06-01-part1_2.zip'],
      releases: [
        ['2024-06-01', ['BasicCompanyData-2024-06-01-part1_2.zip', 'BasicCompanyData-2024-06-01-part2_2.zip']],
      ],
    },
    {
      name: 'a date with a part missing cannot be loaded whole and is not offered',
      offered: ['BasicCompanyData-2024-06-01-part1_3.zip', 'BasicCompanyData-2024-06-01-part3_3.zip'],
      releases: [],
    },
    {
      name: 'newest first; unzipped CSVs and other files ignored',
      offered: [
        'BasicCompanyDataAsOneFile-2024-05-01.zip',
        'BasicCompanyDataAsOneFile-2024-07-01.csv',
        'BasicCompanyDataAsOneFile-2024-06-01.zip',
        'index.html',
      ],
      releases: [
        ['2024-06-01', ['BasicCompanyDataAsOneFile-2024-06-01.zip']],
        ['2024-05-01', ['BasicCompanyDataAsOneFile-2024-05-01.zip']],
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(
        registerReleases(files(...c.offered)).map((r) => [r.date, r.files.map((f) => f.name)]),
        c.releases,
      );
    });
  }
});

describe('PSC snapshots offered', () => {
  const cases: { name: string; offered: string[]; releases: [string, string[]][] }[] = [
    {
      name: 'the one file is preferred to the parts of the same date',
      offered: [
        'psc-snapshot-2026-01-05_1of2.zip',
        'psc-snapshot-2026-01-05_2of2.zip',
        'persons-with-significant-control-snapshot-2026-01-05.zip',
      ],
      releases: [['2026-01-05', ['persons-with-significant-control-snapshot-2026-01-05.zip']]],
    },
    {
      name: 'all parts of a date, in part order; a date with a part missing is not offered',
      offered: [
        'psc-snapshot-2026-01-05_10of10.zip',
        ...Array.from({ length: 9 }, (_, i) => `psc-snapshot-2026-01-05_${i + 1}of10.zip`),
        'psc-snapshot-2026-01-06_1of2.zip',
      ],
      releases: [['2026-01-05', Array.from({ length: 10 }, (_, i) => `psc-snapshot-2026-01-05_${i + 1}of10.zip`)]],
    },
    {
      name: 'newest first; register files and unzipped snapshots ignored',
      offered: [
        'persons-with-significant-control-snapshot-2026-01-04.zip',
        'persons-with-significant-control-snapshot-2026-01-06.txt',
        'BasicCompanyDataAsOneFile-2026-01-01.zip',
        'persons-with-significant-control-snapshot-2026-01-05.zip',
      ],
      releases: [
        ['2026-01-05', ['persons-with-significant-control-snapshot-2026-01-05.zip']],
        ['2026-01-04', ['persons-with-significant-control-snapshot-2026-01-04.zip']],
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(
        pscReleases(files(...c.offered)).map((r) => [r.date, r.files.map((f) => f.name)]),
        c.releases,
      );
    });
  }

  test('the newest PSC snapshot is planned when it is newer than the one loaded', () => {
    const pscs = pscReleases(
      files(
        'persons-with-significant-control-snapshot-2026-01-04.zip',
        'persons-with-significant-control-snapshot-2026-01-05.zip',
      ),
    );
    const plan = (loaded: string | null) =>
      planSync(
        { registers: [], dailies: [], pscs },
        { lastRegisterSnapshot: null, lastAccountsPublished: null, lastPscSnapshot: loaded },
      ).psc?.date ?? null;
    assert.deepEqual(
      [plan(null), plan('2026-01-04'), plan('2026-01-05'), plan('2026-01-06')],
      ['2026-01-05', '2026-01-05', null, null],
    );
  });
});

describe('daily accounts files offered', () => {
  test('daily files only, oldest first; monthly archives and bad dates ignored', () => {
    const offered = files(
      'Accounts_Bulk_Data-2024-06-05.zip',
      'Accounts_Monthly_Data-May2024.zip',
      'Accounts_Bulk_Data-2024-06-04.zip',
      'Accounts_Bulk_Data-2024-02-30.zip',
    );
    assert.deepEqual(
      dailyAccountsFiles(offered).map((f) => [f.published, f.name]),
      [
        ['2024-06-04', 'Accounts_Bulk_Data-2024-06-04.zip'],
        ['2024-06-05', 'Accounts_Bulk_Data-2024-06-05.zip'],
      ],
    );
  });
});

describe('planning a sync', () => {
  const registers = registerReleases(
    files('BasicCompanyDataAsOneFile-2024-05-01.zip', 'BasicCompanyDataAsOneFile-2024-06-01.zip'),
  );
  const dailies = dailyAccountsFiles(
    files(
      'Accounts_Bulk_Data-2024-06-04.zip',
      'Accounts_Bulk_Data-2024-06-05.zip',
      'Accounts_Bulk_Data-2024-06-06.zip',
    ),
  );
  const cases: {
    name: string;
    register: string | null;
    accounts: string | null;
    since?: string;
    wantRegister: string | null;
    wantAccounts: string[];
  }[] = [
    {
      name: 'nothing loaded: the newest snapshot and every daily file',
      register: null,
      accounts: null,
      wantRegister: '2024-06-01',
      wantAccounts: ['2024-06-04', '2024-06-05', '2024-06-06'],
    },
    {
      name: 'nothing loaded, with a first date',
      register: null,
      accounts: null,
      since: '2024-06-05',
      wantRegister: '2024-06-01',
      wantAccounts: ['2024-06-05', '2024-06-06'],
    },
    {
      name: 'the loaded snapshot is the newest: no register; daily files after the last loaded',
      register: '2024-06-01',
      accounts: '2024-06-04',
      wantRegister: null,
      wantAccounts: ['2024-06-05', '2024-06-06'],
    },
    {
      name: 'an older snapshot loaded: the newest; --since does not apply once accounts are loaded',
      register: '2024-05-01',
      accounts: '2024-06-06',
      since: '2024-01-01',
      wantRegister: '2024-06-01',
      wantAccounts: [],
    },
    {
      name: 'a newer snapshot loaded than any offered (from a file): none',
      register: '2024-07-01',
      accounts: '2024-07-31',
      wantRegister: null,
      wantAccounts: [],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const plan = planSync(
        { registers, dailies },
        { lastRegisterSnapshot: c.register, lastAccountsPublished: c.accounts, accountsSince: c.since ?? null },
      );
      assert.equal(plan.register?.date ?? null, c.wantRegister);
      assert.deepEqual(
        plan.accounts.map((f) => f.published),
        c.wantAccounts,
      );
    });
  }
});

describe('Content-Range', () => {
  const cases: [string | null, ReturnType<typeof parseContentRange>][] = [
    ['bytes 3000-9999/10000', { start: 3000, total: 10000 }],
    ['bytes 0-0/*', { start: 0, total: null }],
    ['bytes */10000', null],
    ['items 1-2/3', null],
    [null, null],
  ];
  for (const [header, expected] of cases) {
    test(String(header), () => assert.deepEqual(parseContentRange(header), expected));
  }
});
