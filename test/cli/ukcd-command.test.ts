/**
 * The `ukcd` command line refuses what it does not understand with a clear message and status 2,
 * before doing anything: never a stack trace, never a service started on arguments it ignored.
 * `ukcd load` takes URLs too: a file the server has is downloaded and loaded, one it has not is a
 * clear failure that loads nothing.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PAGE_SIZE } from '../../loaders/backfill-officers.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import type { PersonDocument } from '../../src/domain/people.ts';
import { writeBulkZips } from '../../src/synthetic/bulk-zip.ts';
import { officerListPages } from '../../src/synthetic/officers.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import { repoRoot } from '../support/samples.ts';

function ukcd(args: string[], dataDir: string) {
  const run = spawnSync(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ELASTICSEARCH_URL: '', PORT: '0', CH_API_KEY: '' },
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr };
}

describe('ukcd usage errors', () => {
  const cases: [string[], RegExp][] = [
    [['bogus'], /^unknown command "bogus"/],
    [['generate', 'register', '--help'], /^Unknown option '--help'\nRun "ukcd help"/],
    [['generate', 'accounts', '--out'], /^Option '--out <value>' argument missing\nRun "ukcd help"/],
    [['generate', 'accounts', '--out', 'x', '--from', '2024-1-1'], /^--from must be a date YYYY-MM-DD/],
    [['parse', '--bogus'], /^ukcd parse has no option "--bogus"\nusage: ukcd parse PATH/],
    [['parse'], /^usage: ukcd parse PATH/],
    [['start', '--port', '8080'], /^ukcd start takes no arguments, got "--port 8080": it is configured by environment/],
    [['index', '--fast'], /usage: ukcd index/],
    [['backfill', 'people'], /^cannot backfill "people"\nusage: ukcd backfill officers/],
    [['backfill', 'officers', '--watched', '--all'], /^choose one of --watched, --all and --companies FILE/],
    [['backfill', 'officers', '--companies'], /^Option '--companies <value>' argument missing/],
    [
      ['backfill', 'pdf-accounts', '--watched', '--all-without-figures'],
      /^choose one of --watched, --all-without-figures and --companies FILE\nusage: ukcd backfill officers/,
    ],
    [['backfill', 'pdf-accounts', '--all'], /^Unknown option '--all'.*\nusage: ukcd backfill officers/],
    [['backfill', 'pdf-accounts'], /^CH_API_KEY is not set: the PDF backfill reads the Companies House Document API/],
    [
      ['load', 'register', 'x.zip', '--snapshot-date', '2024-02-30'],
      /^--snapshot-date must be a date YYYY-MM-DD, got "2024-02-30"/,
    ],
    [['sync', '--since', '2024-13-01'], /^--since must be a date YYYY-MM-DD, got "2024-13-01"/],
  ];
  for (const [args, message] of cases) {
    test(`ukcd ${args.join(' ')}`, () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-usage-'));
      try {
        const run = ukcd(args, dataDir);
        assert.equal(run.status, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
        assert.deepEqual(readdirSync(dataDir), [], 'nothing written');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

describe('ukcd load from a URL', () => {
  test('downloads and loads what the server has; a file it has not fails clearly and loads nothing', async (t) => {
    const work = mkdtempSync(join(tmpdir(), 'ukcd-url-'));
    const { zips } = await writeBulkZips(
      syntheticFilings({ seed: 9, companies: 5, yearsPerCompany: 1, fromYear: 2023 }),
      join(work, 'served'),
    );
    const served = new Map(zips.map((zip) => [`/${basename(zip)}`, zip]));
    const server = createServer((request, response) => {
      const file = served.get(request.url ?? '');
      if (!file) return void response.writeHead(404).end('not here');
      response.writeHead(200, { 'content-type': 'application/zip' });
      createReadStream(file).pipe(response);
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    t.after(() => {
      server.close();
      rmSync(work, { recursive: true, force: true });
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ukcdAsync = (args: string[]) =>
      new Promise<{ status: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), ...args], {
          env: { ...process.env, DATA_DIR: join(work, 'data'), DATABASE_URL: '', ELASTICSEARCH_URL: '' },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (status) => done({ status, stderr }));
      });

    const missing = await ukcdAsync(['load', 'accounts', `${base}/Accounts_Bulk_Data-2020-01-01.zip`, '--no-index']);
    assert.equal(missing.status, 1, missing.stderr);
    assert.match(missing.stderr, /download failed: .*Accounts_Bulk_Data-2020-01-01\.zip: HTTP 404/);
    assert.match(missing.stderr, /nothing was loaded/);
    assert.doesNotMatch(missing.stderr, /\n\s+at /, 'no stack trace');

    const first = [...served.keys()][0]!;
    const loaded = await ukcdAsync(['load', 'accounts', `${base}${first}`, '--no-index']);
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.match(loaded.stderr, /accounts: (\d+) of \1 filings loaded from 1 inputs/);
    assert.deepEqual(readdirSync(join(work, 'data', 'downloads')), [first.slice(1)]);
  });
});

describe('ukcd backfill officers', () => {
  test('the officers fetched reach the people index, unless --no-index', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-backfill-'));
    const api = await startFakeCompaniesHouseApi();
    t.after(async () => {
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const [page] = officerListPages(
      3,
      [{ companyNumber: '00000001', personId: 1, appointedOn: '2020-01-01' }],
      PAGE_SIZE,
    );
    api.json(`/company/00000001/officers?items_per_page=${PAGE_SIZE}&start_index=0`, page);
    const numbers = join(dataDir, 'numbers.txt');
    writeFileSync(numbers, '00000001\n');
    const run = async (...more: string[]) => {
      // Spawned, not spawnSync: the stand-in API answers from this process's event loop.
      const child = spawn(
        process.execPath,
        [join(repoRoot, 'bin', 'ukcd.mjs'), 'backfill', 'officers', '--companies', numbers, ...more],
        {
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            DATABASE_URL: '',
            ELASTICSEARCH_URL: '',
            CH_API_KEY: 'test-key',
            CH_API_URL: api.url,
          },
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      return { code, stderr };
    };
    const people = async () => {
      const sql = await createPgliteSql({ dataDir: join(dataDir, 'pglite') });
      try {
        return (await sql.query<{ document: PersonDocument }>('SELECT document FROM people_search')).rows.map(
          (row) => row.document,
        );
      } finally {
        await sql.close();
      }
    };

    const unindexed = await run('--no-index');
    assert.equal(unindexed.code, 0, unindexed.stderr);
    assert.doesNotMatch(unindexed.stderr, /people index/);
    assert.deepEqual(await people(), []);

    const indexed = await run();
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.match(indexed.stderr, /people index rebuilt: 1 people/);
    const [officer] = await people();
    assert.deepEqual(
      [officer?.roles, officer?.appointments.map((a) => a.company_number)],
      [['director'], ['00000001']],
    );
  });
});
