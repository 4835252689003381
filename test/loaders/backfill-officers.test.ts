/**
 * The officers backfill against the local stand-in for the Companies House API (over real HTTP,
 * through the real client and its rate limiter) and a real store (PGlite): pages followed by
 * start_index, a 429 waited out, watched companies first, a company whose list cannot be read
 * whole written not at all and reported, a rerun continuing the unfinished run, and a file of
 * numbers whose bad line is named.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompaniesHouseApi } from '../../src/adapters/companies-house/api-client.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { officerListPages } from '../../src/synthetic/officers.ts';
import type { OfficerAppointmentPlan } from '../../src/synthetic/officers.ts';
import { backfillOfficers, PAGE_SIZE } from '../../loaders/backfill-officers.ts';
import type { BackfillSelection } from '../../loaders/backfill-officers.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';

const SEED = 11;
const pagePath = (number: string, start: number) =>
  `/company/${number}/officers?items_per_page=${PAGE_SIZE}&start_index=${start}`;

function serve(fake: FakeCompaniesHouseApi, number: string, count: number, firstPerson: number): void {
  const plans: OfficerAppointmentPlan[] = Array.from({ length: count }, (_, i) => ({
    companyNumber: number,
    personId: firstPerson + i,
    appointedOn: `20${String(10 + (i % 15)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
    ...(i % 3 === 2 ? { resignedOn: '2025-06-30' } : {}),
  }));
  officerListPages(SEED, plans, PAGE_SIZE).forEach((page, i) => fake.json(pagePath(number, i * PAGE_SIZE), page));
}

describe('ukcd backfill officers', () => {
  let fake: FakeCompaniesHouseApi;
  let sql: Sql;
  let dir: string;
  before(async () => {
    fake = await startFakeCompaniesHouseApi();
    sql = await createPgliteSql();
    await migrate(sql);
    dir = mkdtempSync(join(tmpdir(), 'ukcd-backfill-'));
    const key = await createKeyStore(sql).createKey({
      hash: 'h',
      prefix: 'ukcd_test',
      plan: 'pro',
      email: null,
      clientIp: null,
    });
    const snapshot = {} as never;
    await createWatchlistStore(sql).add(
      key!.id,
      ['30000002', '30000003'].map((company_number) => ({ company_number, snapshot })),
      50,
    );
  });
  after(async () => {
    await fake.close();
    await sql.close();
  });

  const run = (selection: BackfillSelection) => {
    const officers = createOfficerStore(sql);
    const api = createCompaniesHouseApi({
      apiUrl: fake.url,
      documentApiUrl: fake.url,
      key: 'test-key',
      backoffMs: 5,
      attempts: 3,
    });
    const lines: string[] = [];
    return backfillOfficers(selection, { api, officers, journal: officers, log: (line) => lines.push(line) });
  };
  const requested = (number: string) => fake.requests.filter((r) => r.path.startsWith(`/company/${number}/`)).length;

  test('watched companies: every page by start_index, a 429 waited out, the list written whole', async () => {
    serve(fake, '30000002', 150, 100);
    serve(fake, '30000003', 3, 300);
    fake.fail(pagePath('30000002', 100), { status: 429, retryAfter: '0' });
    const summary = await run({ kind: 'watched' });
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.fetched, 2);
    assert.equal(summary.officers, 153);
    const store = createOfficerStore(sql);
    assert.equal((await store.officersOf('30000002', true)).length, 150);
    assert.equal((await store.officersOf('30000002', false)).length, 100, 'a third resigned');
    assert.deepEqual(
      fake.requests.filter((r) => r.path.startsWith('/company/30000002/')).map((r) => r.path),
      [pagePath('30000002', 0), pagePath('30000002', 100), pagePath('30000002', 100)],
    );
    assert.match(fake.requests[0]!.authorization ?? '', /^Basic /);
  });

  test('a company that cannot be read is not written and leaves the run unfinished; a rerun fetches only it', async () => {
    serve(fake, '30000004', 2, 400);
    serve(fake, '30000005', 2, 500);
    fake.fail(pagePath('30000005', 0), 'reset', 3);
    const file = join(dir, 'companies.txt');
    writeFileSync(file, '# two companies\n30000004\n\n30000005\n');
    const first = await run({ kind: 'file', path: file });
    assert.equal(first.fetched, 1);
    assert.deepEqual(
      first.failed.map((f) => f.company_number),
      ['30000005'],
    );
    assert.deepEqual(await createOfficerStore(sql).officersOf('30000005', true), []);

    const before4 = requested('30000004');
    const second = await run({ kind: 'file', path: file });
    assert.equal(second.resumed, true);
    assert.equal(second.skipped, 1);
    assert.equal(second.fetched, 1);
    assert.deepEqual(second.failed, []);
    assert.equal(requested('30000004'), before4, 'the company fetched in the run is not fetched again');
    assert.equal((await createOfficerStore(sql).officersOf('30000005', true)).length, 2);

    const third = await run({ kind: 'file', path: file });
    assert.equal(third.resumed, false, 'a finished run is not resumed: the next one fetches everything again');
    assert.equal(third.fetched, 2);
  });

  test('an item without officer_role fails its company, naming the item, and writes none of it', async () => {
    serve(fake, '30000006', 2, 600);
    const page = officerListPages(
      SEED,
      [{ companyNumber: '30000006', personId: 601, appointedOn: '2020-01-01' }],
      PAGE_SIZE,
    )[0]!;
    const items = page.items as Record<string, unknown>[];
    delete items[0]!.officer_role;
    fake.json(pagePath('30000006', 0), page);
    const file = join(dir, 'one.txt');
    writeFileSync(file, '30000006\n');
    const summary = await run({ kind: 'file', path: file });
    assert.match(summary.failed[0]?.reason ?? '', /item 0: the appointment has no officer_role/);
    assert.deepEqual(await createOfficerStore(sql).officersOf('30000006', true), []);
  });

  test('a file with a bad number is refused, naming the file and line, before any call', async () => {
    const file = join(dir, 'bad.txt');
    writeFileSync(file, '30000004\nnot-a-number\n');
    const calls = fake.requests.length;
    await assert.rejects(
      run({ kind: 'file', path: file }),
      new RegExp(`${file}:2: "not-a-number" is not a company number`),
    );
    assert.equal(fake.requests.length, calls);
  });

  test('--all: watched companies first, then the register in number order', async () => {
    const { createCompanyStore } = await import('../../src/adapters/postgres/company-store.ts');
    const { company } = await import('../support/store-records.ts');
    await createCompanyStore(sql).upsertCompanies(
      [company('30000001'), company('30000002'), company('30000009')],
      '2026-11-01',
    );
    serve(fake, '30000001', 1, 700);
    serve(fake, '30000009', 1, 900);
    const from = fake.requests.length;
    const summary = await run({ kind: 'all' });
    assert.deepEqual(summary.failed, []);
    const order = fake.requests.slice(from).map((r) => r.path.slice(9, 17));
    assert.deepEqual([...new Set(order)], ['30000002', '30000003', '30000001', '30000009']);
  });
});
