/**
 * `ukcd sync` against a local stand-in for the Companies House download service over real HTTP,
 * serving generated files in the real formats: what it plans, that a dropped connection resumes
 * where it stopped (in the same run and in a later one), that a damaged zip is refused by name
 * and holds back the days after it, that a link naming a path is refused rather than written
 * outside the downloads folder, and that the store and the search index end up with the data.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import type { PostgresCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import { writeBulkZips } from '../../src/synthetic/bulk-zip.ts';
import { writeRegisterSnapshot } from '../../src/synthetic/register-files.ts';
import { indexSearch } from '../../loaders/index-search.ts';
import { downloadResumable } from '../../loaders/sync/resumable-download.ts';
import type { SyncOptions } from '../../loaders/sync/sync.ts';
import { describeSyncSummary, syncFromCompaniesHouse } from '../../loaders/sync/sync.ts';
import { openZipFile } from '../../loaders/zip-reader.ts';
import type { DownloadService } from '../support/download-service.ts';
import { startDownloadService } from '../support/download-service.ts';
import { individualLine, statementLine, totalsLine, writeSnapshotFile } from '../support/psc-snapshot-lines.ts';
import { dumpState } from '../support/databases.ts';
import { repoRoot } from '../support/samples.ts';
import { writeZip } from '../support/zip.ts';

const SEED = 11;
const execFileAsync = promisify(execFile);
const quiet = () => {};

let root: string;
let served: string;
let registerFiles: Map<string, string>;
/** Daily accounts zips generated, oldest first: [name, path]. */
let dailies: [string, string][];
let service: DownloadService;

async function filingsIn(path: string): Promise<number> {
  const zip = await openZipFile(path);
  zip.close();
  return zip.entryCount;
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ukcd-sync-'));
  served = join(root, 'served');
  await mkdir(served);
  registerFiles = new Map();
  for (const date of ['2024-05-01', '2024-06-01']) {
    const { files } = await writeRegisterSnapshot({
      seed: SEED,
      companies: 400,
      snapshotDate: date,
      outDir: join(root, 'gen'),
    });
    registerFiles.set(date, files[0]!);
  }
  const accountsDir = join(root, 'gen', 'accounts');
  const { zips } = await writeBulkZips(
    syntheticFilings({ seed: SEED, companies: 400, yearsPerCompany: 1, fromYear: 2023 }),
    accountsDir,
  );
  // The last days of the stream, each holding a few filings: big enough to cut part-way.
  const picked = [];
  for (const zip of zips.toReversed()) {
    if ((await stat(zip)).size > 8_000) picked.unshift(zip);
    if (picked.length === 8) break;
  }
  dailies = picked.map((path) => [path.slice(path.lastIndexOf('/') + 1), path]);
  service = await startDownloadService(served);
});

after(async () => {
  await service?.close();
  await rm(root, { recursive: true, force: true });
});

async function serve(...paths: string[]): Promise<void> {
  for (const path of paths) await copyFile(path, join(served, path.slice(path.lastIndexOf('/') + 1)));
}

interface World {
  sql: Sql;
  store: PostgresCompanyStore;
  search: SearchIndex;
  downloads: string;
  options: SyncOptions;
  lines: string[];
}

async function openWorld(): Promise<World> {
  const sql = await createPgliteSql();
  await migrate(sql);
  const store = createCompanyStore(sql);
  const search = createPgSearchIndex(sql);
  const downloads = await mkdtemp(join(root, 'downloads-'));
  const lines: string[] = [];
  return {
    sql,
    store,
    search,
    downloads,
    lines,
    options: {
      baseUrl: service.url,
      downloadDir: downloads,
      reportDir: join(downloads, 'reports'),
      pscs: createPscStore(sql),
      workers: 1,
      download: { attempts: 3, retryDelayMs: 10, idleTimeoutMs: 5_000 },
      updateSearch: async () => {
        await indexSearch(store, { index: search, target: 'postgres:company_search' }, { log: quiet });
      },
      log: (line) => lines.push(line),
    },
  };
}

describe('ukcd sync from a download service', { concurrency: false }, () => {
  let world: World;
  /** The n-th daily file served, from 1. */
  const day = (n: number): [string, string] => dailies[n - 1]!;

  before(async () => {
    await rm(served, { recursive: true, force: true });
    await mkdir(served);
    world = await openWorld();
  });
  after(() => world.sql.close());

  test('a fresh store takes the newest register snapshot and every daily file; a dropped download resumes', async () => {
    await serve(registerFiles.get('2024-05-01')!, registerFiles.get('2024-06-01')!, day(1)[1], day(2)[1], day(3)[1]);
    service.dropNext(day(2)[0], 3_000);
    service.requests.length = 0;

    const summary = await syncFromCompaniesHouse(world.store, world.options);

    assert.deepEqual(summary.problems, []);
    assert.equal(summary.plan.register?.date, '2024-06-01');
    assert.deepEqual(
      summary.plan.accounts.map((f) => f.name),
      [day(1)[0], day(2)[0], day(3)[0]],
    );
    assert.equal(
      service.fileRequests('BasicCompanyDataAsOneFile-2024-05-01.zip').length,
      0,
      'the older snapshot is not fetched',
    );
    const d2Requests = service.fileRequests(day(2)[0]);
    assert.deepEqual(
      d2Requests.map((r) => [r.range, r.status]),
      [
        [null, 200],
        ['bytes=3000-', 206],
      ],
      'the second attempt asks only for the bytes after the 3,000 received',
    );
    assert.ok(world.lines.some((line) => line.includes(`${day(2)[0]}: downloaded`) && line.includes('1 resumed')));

    const expectedFilings = (await Promise.all([day(1), day(2), day(3)].map(([, path]) => filingsIn(path)))).reduce(
      (a, b) => a + b,
    );
    assert.equal(summary.accounts?.parsed, expectedFilings);
    assert.equal(summary.accounts?.failed, 0);
    const counts = await world.store.counts();
    assert.equal(counts.filings, expectedFilings);
    assert.equal(counts.companies, summary.register?.rowsWritten);
    assert.equal(await world.store.loadedThrough('register'), '2024-06-01');
    assert.equal(await world.store.loadedThrough('accounts'), day(3)[0].slice(19, 29));

    assert.equal(summary.indexed, true);
    assert.equal(await world.search.count(), counts.companies, 'the search index holds every company loaded');
    assert.deepEqual(
      (await readdir(world.downloads)).filter((f) => f.endsWith('.zip') || f.includes('.part')),
      [],
      'loaded downloads are removed',
    );
  });

  test('the next sync fetches only the daily file that is new', async () => {
    await serve(day(4)[1]);
    service.requests.length = 0;
    const before = await world.store.counts();

    const summary = await syncFromCompaniesHouse(world.store, world.options);

    assert.deepEqual(summary.problems, []);
    assert.equal(summary.plan.register, null);
    assert.deepEqual(
      service.requests.filter((r) => r.file.endsWith('.zip')).map((r) => r.file),
      [day(4)[0]],
    );
    const after = await world.store.counts();
    assert.equal(after.filings - before.filings, await filingsIn(day(4)[1]));
    assert.ok(world.lines.some((line) => line.includes('register: nothing newer than the snapshot loaded')));
  });

  test('a damaged zip is fetched once more, then refused by name; the days after it wait', async () => {
    const damaged = join(root, day(5)[0]);
    const bytes = await readFile(day(5)[1]);
    // Flip bytes inside the first member's compressed data: the zip still opens, the CRC fails.
    for (let i = 200; i < 240; i++) bytes[i] = bytes[i]! ^ 0xff;
    await writeFile(damaged, bytes);
    await serve(damaged, day(6)[1]);
    service.requests.length = 0;
    const before = await world.store.counts();

    const summary = await syncFromCompaniesHouse(world.store, world.options);

    assert.equal(summary.problems.length, 1);
    assert.match(
      summary.problems[0]!,
      new RegExp(`^${day(5)[0]}: failed its check twice: .*(CRC|inflat|invalid)`, 'i'),
    );
    assert.equal(service.fileRequests(day(5)[0]).length, 2, 'downloaded again once before giving up');
    assert.equal(service.fileRequests(day(6)[0]).length, 0, 'the day after waits for the next sync');
    assert.deepEqual(await world.store.counts(), before, 'nothing was loaded');
    assert.equal(await world.store.loadedThrough('accounts'), day(4)[0].slice(19, 29));

    // The service puts the file right: the next sync loads it and the day after.
    await serve(day(5)[1]);
    const fixed = await syncFromCompaniesHouse(world.store, world.options);
    assert.deepEqual(fixed.problems, []);
    assert.deepEqual(
      fixed.plan.accounts.map((f) => f.name),
      [day(5)[0], day(6)[0]],
    );
    assert.equal(await world.store.loadedThrough('accounts'), day(6)[0].slice(19, 29));
  });

  test('a download cut off in one run resumes in the next, and a server without ranges restarts it', async () => {
    await serve(day(7)[1]);
    service.dropNext(day(7)[0], 2_500);
    const once = { ...world.options, download: { attempts: 1, retryDelayMs: 10, idleTimeoutMs: 5_000 } };

    const held = await dumpState(world.sql);
    const failed = await syncFromCompaniesHouse(world.store, once);
    assert.equal(failed.problems.length, 1);
    assert.equal(await dumpState(world.sql), held, 'a download that broke changes nothing stored');
    assert.match(failed.problems[0]!, new RegExp(`^${day(7)[0]}: .*gave up after 1 attempts`));
    assert.equal((await stat(join(world.downloads, `${day(7)[0]}.part`))).size, 2_500, 'the bytes received are kept');

    service.requests.length = 0;
    const resumed = await syncFromCompaniesHouse(world.store, world.options);
    assert.deepEqual(resumed.problems, []);
    assert.deepEqual(
      service.fileRequests(day(7)[0]).map((r) => [r.range, r.status]),
      [['bytes=2500-', 206]],
    );

    await serve(day(8)[1]);
    service.dropNext(day(8)[0], 2_000);
    service.ignoreRanges = true;
    try {
      service.requests.length = 0;
      const restarted = await syncFromCompaniesHouse(world.store, world.options);
      assert.deepEqual(restarted.problems, []);
      assert.deepEqual(
        service.fileRequests(day(8)[0]).map((r) => [r.range, r.status]),
        [
          [null, 200],
          ['bytes=2000-', 200],
        ],
      );
      assert.equal(restarted.accounts?.parsed, await filingsIn(day(8)[1]), 'the restarted file is whole');
    } finally {
      service.ignoreRanges = false;
    }
  });

  test('a link whose file name is a path is refused and reported, and nothing is written outside the downloads folder', async () => {
    // A genuine new day beside the hostile link, to show that the rest of the page is still loaded.
    const genuine = 'Accounts_Bulk_Data-2026-11-19.zip';
    await copyFile(day(1)[1], join(served, genuine));
    // The downloads folder two levels down, and the folder the link aims at beside them, so that
    // a write through the link would land.
    const base = await mkdtemp(join(root, 'hostile-'));
    const downloads = join(base, 'a', 'b');
    await mkdir(downloads, { recursive: true });
    await mkdir(join(base, 'x'));
    const href = '..%2F..%2Fx%2FAccounts_Bulk_Data-2026-11-20.zip';
    service.extraLinks.push({ page: 'en_accountsdata.html', href, file: day(2)[1] });
    service.requests.length = 0;
    try {
      const summary = await syncFromCompaniesHouse(world.store, {
        ...world.options,
        downloadDir: downloads,
        keepDownloads: true,
      });

      assert.deepEqual(summary.problems, [
        `en_accountsdata.html: refused the link "${href}": its file name holds a path`,
      ]);
      assert.deepEqual(
        summary.plan.accounts.map((f) => f.name),
        [genuine],
        'the genuine file is still loaded',
      );
      assert.equal(summary.accounts?.parsed, await filingsIn(day(1)[1]));
      assert.deepEqual(service.fileRequests(decodeURIComponent(href)), [], 'the refused link is never fetched');
      assert.deepEqual(
        (await readdir(base, { recursive: true })).sort(),
        ['a', join('a', 'b'), join('a', 'b', genuine), 'x'],
        'nothing written but the genuine download, in its folder',
      );
    } finally {
      service.extraLinks.length = 0;
    }
  });
});

describe('ukcd sync of the PSC snapshot', { concurrency: false }, () => {
  let world: World;
  let pscDir: string;
  const whole = (date: string) => `persons-with-significant-control-snapshot-${date}.zip`;
  const part = (date: string, i: number, of: number) => `psc-snapshot-${date}_${i}of${of}.zip`;
  /** PSCs of companies 10000000 + `from` .. + `to` - 1, a statement every tenth, and the totals line. */
  const lines = (from: number, to: number) => {
    const out = [];
    for (let i = from; i < to; i++) {
      const number = String(10_000_000 + i);
      out.push(i % 10 === 9 ? statementLine(number, 's') : individualLine(number, 'p'));
    }
    return out;
  };
  const pscCount = async (where = 'true') =>
    (await world.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM psc WHERE ${where}`)).rows[0]!.n;

  before(async () => {
    await rm(served, { recursive: true, force: true });
    await mkdir(served);
    pscDir = await mkdtemp(join(root, 'psc-'));
    world = await openWorld();
  });
  after(() => world.sql.close());

  test('a fresh store takes the newest snapshot, as its one file rather than its parts; a dropped download resumes', async () => {
    await writeSnapshotFile(served, whole('2026-01-04'), [...lines(0, 100), totalsLine(90, 10)]);
    const newest = [...lines(0, 400), totalsLine(360, 40)];
    await writeSnapshotFile(served, whole('2026-01-05'), newest);
    await writeSnapshotFile(served, part('2026-01-05', 1, 2), newest.slice(0, 200));
    await writeSnapshotFile(served, part('2026-01-05', 2, 2), newest.slice(200));
    service.dropNext(whole('2026-01-05'), 2_000);
    service.requests.length = 0;

    const summary = await syncFromCompaniesHouse(world.store, { ...world.options, only: 'psc' });

    assert.deepEqual(summary.problems, []);
    assert.deepEqual(
      summary.plan.psc?.files.map((f) => f.name),
      [whole('2026-01-05')],
    );
    assert.deepEqual([summary.plan.register, summary.plan.accounts], [null, []], 'only the PSC page is read');
    assert.deepEqual(
      service.requests.map((r) => [r.file, r.range, r.status]),
      [
        ['en_pscdata.html', null, 200],
        [whole('2026-01-05'), null, 200],
        [whole('2026-01-05'), 'bytes=2000-', 206],
      ],
    );
    assert.deepEqual(
      [summary.psc?.complete, summary.psc?.pscsWritten, summary.psc?.statementsWritten, summary.psc?.rejected],
      [true, 360, 40, 0],
    );
    assert.equal(await pscCount(), 400);
    assert.equal(await world.store.loadedThrough('psc'), '2026-01-05');
    assert.equal(summary.indexed, true);
    assert.ok(world.lines.some((line) => line.startsWith('PSC: snapshot 2026-01-05 to load')));
    assert.deepEqual(await readdir(world.downloads), [], 'the loaded download is removed');
  });

  test('the next sync finds nothing newer; a date with a part missing is not offered', async () => {
    await writeSnapshotFile(served, part('2026-01-06', 1, 2), lines(0, 10));
    service.requests.length = 0;
    const summary = await syncFromCompaniesHouse(world.store, { ...world.options, only: 'psc' });
    assert.deepEqual([summary.problems, summary.plan.psc, summary.psc, summary.indexed], [[], null, null, false]);
    assert.deepEqual(
      service.requests.map((r) => r.file),
      ['en_pscdata.html'],
    );
    assert.ok(world.lines.some((line) => line === 'PSC: nothing newer than the snapshot loaded'));
  });

  test('a newer snapshot in parts is loaded whole: what it no longer lists is kept, ceased', async () => {
    // Five of the 450 held no longer listed: within what one month's snapshot may mark ceased (2%).
    const next = [...lines(5, 450), totalsLine(400, 45)];
    await writeSnapshotFile(served, part('2026-01-06', 1, 2), next.slice(0, 150));
    await writeSnapshotFile(served, part('2026-01-06', 2, 2), next.slice(150));
    const summary = await syncFromCompaniesHouse(world.store, world.options);
    assert.deepEqual(summary.problems, []);
    assert.deepEqual(
      summary.plan.psc?.files.map((f) => f.name),
      [part('2026-01-06', 1, 2), part('2026-01-06', 2, 2)],
    );
    assert.deepEqual([summary.psc?.complete, summary.psc?.markedCeased], [true, 5]);
    assert.equal(await pscCount(), 450, 'nothing deleted');
    assert.equal(await pscCount(`ceased_by_snapshot = '2026-01-06'`), 5);
    assert.match(describeSyncSummary(summary), /PSC 2026-01-06: 400 PSCs and 45 statements/);
  });

  test('a damaged PSC zip is fetched once more, then refused by name; nothing is loaded', async () => {
    // The day after's snapshot lists what the day before's did: nothing for it to mark ceased.
    const good = await writeSnapshotFile(pscDir, whole('2026-01-07'), [...lines(5, 450), totalsLine(400, 45)]);
    const bytes = await readFile(good);
    for (let i = 200; i < 240; i++) bytes[i] = bytes[i]! ^ 0xff;
    await writeFile(join(served, whole('2026-01-07')), bytes);
    service.requests.length = 0;
    const before = await pscCount(`snapshot_date = '2026-01-07'`);

    const summary = await syncFromCompaniesHouse(world.store, { ...world.options, only: 'psc' });

    assert.equal(summary.problems.length, 1);
    assert.match(summary.problems[0]!, /^PSC snapshot 2026-01-07: failed its check twice: .*(CRC|inflat|invalid)/i);
    assert.equal(service.fileRequests(whole('2026-01-07')).length, 2);
    assert.equal(await pscCount(`snapshot_date = '2026-01-07'`), before);
    assert.equal(await world.store.loadedThrough('psc'), '2026-01-06');

    await copyFile(good, join(served, whole('2026-01-07')));
    const fixed = await syncFromCompaniesHouse(world.store, { ...world.options, only: 'psc' });
    assert.deepEqual(fixed.problems, []);
    assert.equal(await world.store.loadedThrough('psc'), '2026-01-07');
  });

  test('a zip that holds something else than one PSC file is refused before loading', async () => {
    const other = join(pscDir, 'other.zip');
    await writeZip(other, { 'a.txt': Buffer.from(`${lines(0, 1)[0]}\n`), 'b.txt': Buffer.from('x\n') });
    await copyFile(other, join(served, whole('2026-01-08')));
    const summary = await syncFromCompaniesHouse(world.store, { ...world.options, only: 'psc' });
    assert.deepEqual(summary.problems.length, 1);
    assert.match(
      summary.problems[0]!,
      /^PSC snapshot 2026-01-08: failed its check twice: holds 2 files, not one PSC snapshot file/,
    );
    await rm(join(served, whole('2026-01-08')));
  });

  test('a link on the PSC page whose file name is a path is refused and reported', async () => {
    const href = '..%2F..%2Fx%2Fpsc-snapshot-2026-01-09_1of1.zip';
    service.extraLinks.push({ page: 'en_pscdata.html', href, file: join(served, whole('2026-01-07')) });
    service.requests.length = 0;
    try {
      const summary = await syncFromCompaniesHouse(world.store, { ...world.options, only: 'psc' });
      assert.deepEqual(summary.problems, [`en_pscdata.html: refused the link "${href}": its file name holds a path`]);
      assert.equal(summary.plan.psc, null);
      assert.deepEqual(service.fileRequests(decodeURIComponent(href)), []);
    } finally {
      service.extraLinks.length = 0;
    }
  });
});

describe('resumable download', () => {
  test('a file changed on the server since the part was saved is fetched whole, not spliced', async () => {
    const dir = await mkdtemp(join(root, 'changed-'));
    const file = join(served, 'Accounts_Bulk_Data-2030-01-02.zip');
    await copyFile(dailies[0]![1], file);
    const target = join(dir, 'Accounts_Bulk_Data-2030-01-02.zip');
    service.dropNext('Accounts_Bulk_Data-2030-01-02.zip', 1_000);
    await assert.rejects(
      downloadResumable(`${service.url}Accounts_Bulk_Data-2030-01-02.zip`, target, { attempts: 1 }),
      /gave up after 1 attempts/,
    );
    // New contents, new ETag: If-Range no longer matches, so the server sends the whole file.
    await copyFile(dailies[1]![1], file);
    const later = new Date(Date.now() + 5_000);
    await import('node:fs/promises').then((fs) => fs.utimes(file, later, later));
    const result = await downloadResumable(`${service.url}Accounts_Bulk_Data-2030-01-02.zip`, target, { attempts: 1 });
    assert.equal(result.resumed, 0);
    assert.deepEqual(await readFile(target), await readFile(dailies[1]![1]));
    await rm(file);
  });

  test('a missing file is a permanent error, not retried', async () => {
    const before = service.requests.length;
    await assert.rejects(
      downloadResumable(`${service.url}Accounts_Bulk_Data-1999-01-01.zip`, join(root, 'missing.zip'), {
        attempts: 4,
        retryDelayMs: 10,
      }),
      /HTTP 404/,
    );
    assert.equal(service.requests.length - before, 1);
  });
});

describe('ukcd sync from the command line', () => {
  test('loads into the embedded store, exits 0, and a second sync finds nothing new', async () => {
    const dataDir = await mkdtemp(join(root, 'cli-'));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ELASTICSEARCH_URL: '' };
    // Asynchronous: the service answering the child runs in this process.
    const run = async (...args: string[]) => {
      try {
        const { stderr } = await execFileAsync(
          process.execPath,
          [join(repoRoot, 'bin/ukcd.mjs'), 'sync', '--base-url', service.url, ...args],
          { env, timeout: 180_000 },
        );
        return { status: 0, stderr };
      } catch (error) {
        const failed = error as { code?: number; stderr?: string };
        return { status: failed.code ?? -1, stderr: failed.stderr ?? String(error) };
      }
    };
    await rm(served, { recursive: true, force: true });
    await mkdir(served);
    await serve(registerFiles.get('2024-06-01')!, dailies[0]![1]);

    const first = await run('--workers', '1');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stderr, /register: snapshot 2024-06-01 to load/);
    assert.match(
      first.stderr,
      /sync: register 2024-06-01: \d+ rows; accounts: \d+ filings read, 0 could not be read; search index updated/,
    );

    const second = await run();
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stderr, /sync: nothing new loaded/);

    const refused = await run('--only', 'everything');
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /--only must be register, accounts or psc, got "everything"/);
  });
});
