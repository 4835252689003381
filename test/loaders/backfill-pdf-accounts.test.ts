/**
 * The PDF accounts backfill end to end: the local stand-in for the Public Data and Document APIs
 * (over real HTTP, through the real client and its rate limiter), a real store (PGlite), a real
 * scan from the samples read by Debian's Tesseract. One company's PDF is fetched, kept under
 * DATA_DIR with its sha256 and stored as an estimate with the hand-read figures; a damaged PDF is
 * reported by name and reason and stores nothing; a machine-readable filing (on the Document API
 * or in the store) is passed over; a
 * rerun fetches and reads nothing twice; a company whose history cannot be read leaves the run
 * for a rerun; two processes share one run without doing a company twice.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompaniesHouseApi } from '../../src/adapters/companies-house/api-client.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createPdfAccountsWork } from '../../src/adapters/postgres/pdf-accounts-work.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { backfillPdfAccounts } from '../../loaders/backfill-pdf-accounts.ts';
import type { PdfBackfillSelection } from '../../loaders/backfill-pdf-accounts.ts';
import { accountsHistoryPath, startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import { samplesDir } from '../support/samples.ts';
import { filing } from '../support/store-records.ts';
import { ocrPrograms } from '../support/tesseract.ts';

/** A micro-entity's accounts, three pages; MANIFEST.md row 10 holds its hand-read figures. */
const SCAN = join(samplesDir, 'pdf', 'matei_07479824_2025-01-29_micro-entity.pdf');
const DAMAGED = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer broken', 'latin1');
const contentRequests = (fake: FakeCompaniesHouseApi, id: string) =>
  fake.requests.filter((r) => r.path === `/document/${id}/content`).length;

describe('ukcd backfill pdf-accounts', () => {
  let fake: FakeCompaniesHouseApi;
  let sql: Sql;
  let dataDir: string;
  const scan = readFileSync(SCAN);
  before(async () => {
    fake = await startFakeCompaniesHouseApi();
    sql = await createPgliteSql();
    await migrate(sql);
    dataDir = mkdtempSync(join(tmpdir(), 'ukcd-pdf-backfill-'));
    fake.document('docScan07479824', '07479824', { 'application/pdf': scan });
    fake.accountsHistory('07479824', [{ documentId: 'docScan07479824', madeUpDate: '2023-12-31' }]);
    fake.document('docDamaged', '09000001', { 'application/pdf': DAMAGED });
    fake.document('docIxbrl', '09000001', {
      'application/pdf': DAMAGED,
      'application/xhtml+xml': Buffer.from('<html/>'),
    });
    fake.accountsHistory('09000001', [
      { documentId: 'docIxbrl', madeUpDate: '2024-03-31' },
      { documentId: 'docDamaged', madeUpDate: '2023-03-31' },
    ]);
  });
  after(async () => {
    await fake.close();
    await sql.close();
  });

  const run = (selection: PdfBackfillSelection, holder?: string) => {
    const work = createPdfAccountsWork(sql);
    const api = createCompaniesHouseApi({
      apiUrl: fake.url,
      documentApiUrl: fake.url,
      key: 'test-key',
      backoffMs: 5,
      attempts: 3,
    });
    return backfillPdfAccounts(selection, {
      api,
      documents: work,
      queue: work,
      journal: work,
      estimates: createPdfEstimateStore(sql),
      dataDir,
      read: { programs: ocrPrograms() },
      log: () => {},
      ...(holder ? { holder } : {}),
    });
  };
  const companiesFile = (name: string, numbers: string[]) => {
    const path = join(dataDir, name);
    writeFileSync(path, `${numbers.join('\n')}\n`);
    return { kind: 'file' as const, path };
  };

  test('one company: its PDF kept with its sha256 and read into an estimate; a damaged one reported, nothing stored', async () => {
    const selection = companiesFile('two.txt', ['07479824', '9000001']);
    const summary = await run(selection);
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.fetched, 2);
    assert.equal(summary.read, 1);
    const kept = join(dataDir, 'pdf', '07479824', 'docScan07479824.pdf');
    assert.deepEqual(readFileSync(kept), scan);
    const estimates = await createPdfEstimateStore(sql).pdfEstimatesOf('07479824');
    assert.equal(estimates.length, 1);
    const [estimate] = estimates;
    assert.equal(estimate!.documentId, 'docScan07479824');
    assert.equal(estimate!.transactionId, 'T074798240');
    assert.equal(estimate!.sha256, createHash('sha256').update(scan).digest('hex'));
    assert.equal(estimate!.balanceSheetDate, '2023-12-31');
    // The hand-read values of MANIFEST.md row 10.
    assert.equal(estimate!.current.net_assets, -11535);
    assert.equal(estimate!.current.equity, -11535);
    assert.equal(estimate!.current.current_assets, 2086);
    assert.equal(estimate!.current.creditors_within_one_year, 13621);
    assert.equal(estimate!.confidence.net_assets, 'high');

    const damaged = join(dataDir, 'pdf', '09000001', 'docDamaged.pdf');
    assert.equal(summary.unreadable.length, 1);
    assert.equal(summary.unreadable[0]!.file, damaged);
    assert.ok(summary.unreadable[0]!.reason.length > 10, summary.unreadable[0]!.reason);
    assert.deepEqual(await createPdfEstimateStore(sql).pdfEstimatesOf('09000001'), []);
    const known = await createPdfAccountsWork(sql).knownDocuments('09000001');
    assert.equal(known.get('docDamaged')?.outcome, 'failed');
    assert.equal(known.get('docDamaged')?.reason, summary.unreadable[0]!.reason);
    assert.equal(known.get('docIxbrl')?.outcome, 'machine_readable');
    assert.equal(contentRequests(fake, 'docIxbrl'), 0, 'a filing with iXBRL is not downloaded');
  });

  test('a rerun fetches and reads nothing twice', async () => {
    const selection = companiesFile('two.txt', ['07479824', '9000001']);
    const before = await createPdfEstimateStore(sql).pdfEstimatesOf('07479824');
    const documentRequests = fake.requests.filter((r) => r.path.startsWith('/document/')).length;
    const summary = await run(selection);
    assert.equal(summary.resumed, false, 'the first run finished');
    assert.equal(summary.fetched, 2);
    assert.equal(summary.read, 0);
    assert.deepEqual(summary.unreadable, []);
    assert.equal(fake.requests.filter((r) => r.path.startsWith('/document/')).length, documentRequests);
    assert.deepEqual(await createPdfEstimateStore(sql).pdfEstimatesOf('07479824'), before);
  });

  test('a company whose history cannot be read leaves the run unfinished; a rerun does only it', async () => {
    fake.accountsHistory('09000002', [{ documentId: 'docDamaged2', madeUpDate: '2022-06-30' }]);
    fake.document('docDamaged2', '09000002', { 'application/pdf': DAMAGED });
    fake.fail(accountsHistoryPath('09000002'), 'reset', 3);
    const selection = companiesFile('resume.txt', ['07479824', '09000002']);
    const first = await run(selection);
    assert.deepEqual(
      first.failed.map((f) => f.company_number),
      ['09000002'],
    );
    assert.equal(contentRequests(fake, 'docDamaged2'), 0);
    const second = await run(selection);
    assert.equal(second.resumed, true);
    assert.equal(second.skipped, 1, '07479824 was finished in this run');
    assert.equal(second.fetched, 1);
    assert.deepEqual(second.failed, []);
    assert.equal(contentRequests(fake, 'docDamaged2'), 1);
    assert.equal(second.unreadable.length, 1);
  });

  test('a filing whose made-up date the store holds as iXBRL is passed over without asking the Document API', async () => {
    await createCompanyStore(sql).saveFilings([filing('09000003', 'Accounts_Bulk.zip', 'a.html', '2022-12-31', 5)], []);
    fake.accountsHistory('09000003', [{ documentId: 'docHeld', madeUpDate: '2022-12-31' }]);
    fake.document('docHeld', '09000003', { 'application/pdf': DAMAGED });
    const summary = await run(companiesFile('held.txt', ['09000003']));
    assert.equal(summary.fetched, 1);
    assert.equal(summary.read, 0);
    assert.deepEqual(summary.unreadable, []);
    assert.deepEqual(
      fake.requests.filter((r) => r.path.startsWith('/document/docHeld')),
      [],
    );
  });

  test('two processes share one run: each company is fetched once', async () => {
    const numbers = Array.from({ length: 6 }, (_, i) => `0910000${i}`);
    for (const number of numbers) {
      fake.document(`doc${number}`, number, { 'application/pdf': DAMAGED });
      fake.accountsHistory(number, [{ documentId: `doc${number}`, madeUpDate: '2021-12-31' }]);
    }
    const selection = companiesFile('shared.txt', numbers);
    const [a, b] = await Promise.all([run(selection, 'process-a'), run(selection, 'process-b')]);
    assert.equal(a.fetched + b.fetched, numbers.length);
    assert.ok(a.fetched > 0 && b.fetched > 0, `split ${a.fetched}/${b.fetched}`);
    for (const number of numbers) assert.equal(contentRequests(fake, `doc${number}`), 1, number);
  });
});
