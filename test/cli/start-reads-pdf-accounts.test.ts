/**
 * `ukcd start` with CH_API_KEY, as operators run it: a web lookup of a company without
 * machine-readable accounts queues it and says estimates are being prepared; the service's own
 * worker fetches its accounts PDF from the local stand-in for the Companies House APIs at once
 * (woken by the lookup, not by its idle poll), and a damaged PDF is reported in the log by file
 * and reason, recorded, and not promised again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { PDF_ESTIMATE_PENDING } from '../../src/operations/lookup-company.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import { freshPostgres } from '../support/databases.ts';
import { company } from '../support/store-records.ts';
import { waitFor } from '../support/stream-world.ts';
import { startService } from '../support/ukcd-start.ts';
import type { Service } from '../support/ukcd-start.ts';

describe('ukcd start reads accounts PDFs when CH_API_KEY is set', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-start-pdf-'));
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let fake: FakeCompaniesHouseApi;
  let service: Service;

  before(async () => {
    db = await freshPostgres();
    fake = await startFakeCompaniesHouseApi();
    fake.document('docBroken', '09000009', { 'application/pdf': Buffer.from('%PDF-1.4\nnot a document') });
    fake.accountsHistory('09000009', [{ documentId: 'docBroken', madeUpDate: '2023-12-31' }]);
    service = await startService({
      DATABASE_URL: db.url,
      DATA_DIR: dir,
      PORT: '0',
      LOG_REQUESTS: 'false',
      CH_API_KEY: 'k',
      CH_API_URL: fake.url,
      CH_DOCUMENT_API_URL: fake.url,
    });
    await createCompanyStore(db.sql).upsertCompanies(
      [company('09000009', { name: 'PAPER ONLY LIMITED', accounts_last_made_up_to: '2023-12-31' })],
      '2025-01-01',
    );
  });
  after(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
    await fake.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a lookup queues the company, the worker reads its PDF and reports it unreadable', async () => {
    // Said just after the service starts serving: waited for, not read at once.
    await waitFor('the start-up line about PDF accounts', async () =>
      /pdf accounts: lookups queue companies without machine-readable accounts/.test(service.output.join('')),
    );
    const first = await fetch(`${service.url}/company/09000009`);
    assert.equal(first.status, 200);
    assert.ok((await first.text()).includes(PDF_ESTIMATE_PENDING));
    const file = join(dir, 'pdf', '09000009', 'docBroken.pdf');
    const line = await waitFor('the worker to report the PDF', async () =>
      service.output
        .join('')
        .split('\n')
        .find((text) => text.startsWith(`  ${file}: `)),
    );
    assert.match(service.output.join(''), /pdf accounts 09000009: 0 read, 1 unreadable/);
    const recorded = await db.sql.query<{ outcome: string; reason: string }>(
      `SELECT outcome, reason FROM pdf_accounts_documents WHERE document_id = 'docBroken'`,
    );
    assert.equal(recorded.rows[0]?.outcome, 'failed');
    assert.equal(line, `  ${file}: ${recorded.rows[0]?.reason}`);
    const estimates = await db.sql.query(`SELECT 1 FROM pdf_estimates WHERE company_number = '09000009'`);
    assert.equal(estimates.rowCount, 0, 'an unreadable PDF stores nothing');
    const again = await fetch(`${service.url}/company/09000009`);
    assert.ok(!(await again.text()).includes(PDF_ESTIMATE_PENDING), 'done within the day: not promised again');
    assert.equal(fake.requests.filter((r) => r.path === '/document/docBroken/content').length, 1);
  });
});
