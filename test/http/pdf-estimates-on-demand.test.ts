/**
 * Estimates on demand, end to end: a lookup of a company whose accounts are not machine-readable
 * queues it (once, however often it is looked up) and says in JSON, Markdown and the web page that
 * estimates are being prepared; the service's worker takes it from the queue, fetches its
 * accounts PDF from the local stand-in for the Companies House APIs, reads it by OCR (a real scan,
 * Debian's Tesseract) and stores the estimate; the next lookup shows it and no longer says it is
 * pending. A
 * company with no accounts filed, and a service without an API key, queue nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompaniesHouseApi } from '../../src/adapters/companies-house/api-client.ts';
import { createPdfAccountsWork } from '../../src/adapters/postgres/pdf-accounts-work.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { PDF_ESTIMATE_PENDING } from '../../src/operations/lookup-company.ts';
import { startPdfWorker } from '../../loaders/pdf-accounts/work-queue.ts';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import { testStores } from '../support/databases.ts';
import { samplesDir } from '../support/samples.ts';
import { ocrPrograms } from '../support/tesseract.ts';

const SCAN = join(samplesDir, 'pdf', 'matei_07479824_2025-01-29_micro-entity.pdf');

const queueRows = (world: World) =>
  world.sql.query<{ company_number: string; requested_at: string; pending: boolean }>(
    `SELECT company_number, requested_at::text, (finished_at IS NULL OR finished_at < requested_at) AS pending
     FROM pdf_accounts_queue ORDER BY company_number`,
  );

describe('estimates from PDF accounts on demand', () => {
  let world: World;
  let plain: World;
  let fake: FakeCompaniesHouseApi;
  let key: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW, queuePdfAccounts: true });
    plain = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    const register = [
      { number: '07479824', name: 'PAPER FILER LIMITED', lastMadeUp: '2023-12-31' },
      { number: '07000002', name: 'NEVER FILED LIMITED', lastMadeUp: '' },
    ];
    await world.loadRegister(register, '2025-01-01');
    await plain.loadRegister(register, '2025-01-01');
    key = await world.issueKey('pro');
    fake = await startFakeCompaniesHouseApi();
    fake.document('docScan', '07479824', { 'application/pdf': readFileSync(SCAN) });
    fake.accountsHistory('07479824', [{ documentId: 'docScan', madeUpDate: '2023-12-31' }]);
  });
  after(async () => {
    await fake.close();
    await world.close();
    await plain.close();
  });

  test('a lookup queues the company once and says estimates are being prepared', async () => {
    const first = await call(world, '/v1/company?number=07479824&format=json', { key });
    assert.equal(first.status, 200);
    assert.equal(first.body.pdf_estimate_pending, true);
    assert.deepEqual(first.body.accounts, []);
    const queued = (await queueRows(world)).rows;
    assert.deepEqual(
      queued.map((row) => [row.company_number, row.pending]),
      [['07479824', true]],
    );
    const text = markdown(await call(world, '/v1/company?number=07479824', { key }));
    assert.ok(text.includes(PDF_ESTIMATE_PENDING), text);
    const page = await fetch(`${world.url}/company/07479824`);
    assert.equal(page.status, 200);
    assert.ok((await page.text()).includes(PDF_ESTIMATE_PENDING));
    assert.deepEqual((await queueRows(world)).rows, queued, 'looked up three times, queued once');
  });

  test('a company with no accounts filed is not queued', async () => {
    const answer = await call(world, '/v1/company?number=07000002&format=json', { key });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.pdf_estimate_pending, undefined);
    assert.deepEqual(
      (await queueRows(world)).rows.map((row) => row.company_number),
      ['07479824'],
    );
  });

  test('without an API key nothing is queued and nothing is promised', async () => {
    const plainKey = await plain.issueKey('pro');
    const answer = await call(plain, '/v1/company?number=07479824&format=json', { key: plainKey });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.pdf_estimate_pending, undefined);
    assert.deepEqual((await queueRows(plain)).rows, []);
  });

  test('the worker reads the queued company; the next lookup is no longer pending', async () => {
    const work = createPdfAccountsWork(world.sql);
    const estimates = createPdfEstimateStore(world.sql);
    let worked!: (line: string) => void;
    const done = new Promise<string>((resolve) => (worked = resolve));
    const worker = startPdfWorker({
      api: createCompaniesHouseApi({ apiUrl: fake.url, documentApiUrl: fake.url, key: 'test-key', backoffMs: 5 }),
      documents: work,
      estimates,
      queue: work,
      dataDir: mkdtempSync(join(tmpdir(), 'ukcd-pdf-worker-')),
      read: { programs: ocrPrograms() },
      // Idle polls never come into it: the company is queued before the worker starts.
      pollMs: 3_600_000,
      log: (line) => {
        if (line.startsWith('pdf accounts 07479824')) worked(line);
      },
    });
    try {
      assert.match(await done, /^pdf accounts 07479824: 1 read, 0 unreadable/);
    } finally {
      await worker.stop();
    }
    const [estimate] = await estimates.pdfEstimatesOf('07479824');
    assert.equal(estimate?.documentId, 'docScan');
    assert.equal(estimate?.current.net_assets, -11535);
    assert.deepEqual(
      (await queueRows(world)).rows.map((row) => [row.company_number, row.pending]),
      [['07479824', false]],
    );
    const next = await call(world, '/v1/company?number=07479824&format=json', { key });
    assert.equal(next.body.pdf_estimate_pending, undefined);
    const shown = (
      next.body.accounts as {
        source: { kind: string };
        document_id: string | null;
        figures: { net_assets: number | null };
      }[]
    ).map((entry) => [entry.source.kind, entry.document_id, entry.figures.net_assets]);
    assert.deepEqual(shown, [['pdf_ocr', 'docScan', -11535]], 'the next lookup shows the estimate');
    assert.ok(!markdown(await call(world, '/v1/company?number=07479824', { key })).includes(PDF_ESTIMATE_PENDING));
    assert.deepEqual(
      (await queueRows(world)).rows.map((row) => [row.company_number, row.pending]),
      [['07479824', false]],
      'read within the day: not queued again',
    );
  });

  test('a day later a lookup queues the company again for newer PDFs, but promises nothing: it has an estimate', async () => {
    await world.sql.query(
      `UPDATE pdf_accounts_queue SET requested_at = requested_at - interval '2 days', finished_at = finished_at - interval '2 days'`,
    );
    const answer = await call(world, '/v1/company?number=07479824&format=json', { key });
    assert.equal(answer.body.pdf_estimate_pending, undefined);
    assert.equal((answer.body.accounts as unknown[]).length, 1);
    assert.deepEqual(
      (await queueRows(world)).rows.map((row) => [row.company_number, row.pending]),
      [['07479824', true]],
    );
  });
});
