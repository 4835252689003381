/**
 * The filings stream, on PGlite and on PostgreSQL, with the local Companies House API for
 * documents: an accounts filing whose document is offered as XHTML becomes figures on the lookup
 * and a new_accounts alert; the daily bulk file carrying the same accounts later leaves one filing,
 * not two; a PDF-only document is left alone and counted; a filing of another kind is recorded only.
 */
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAccounts } from '../../loaders/load-accounts.ts';
import { createCompaniesHouseApi } from '../../src/adapters/companies-house/api-client.ts';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createDocumentQueue, filingsApplier } from '../../src/adapters/postgres/stream-filings.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import type { AlertDetectionDeps } from '../../src/alert-detection/detect-alerts.ts';
import { startFollower } from '../../src/follow/follower.ts';
import type { Follower } from '../../src/follow/follower.ts';
import type { StreamGet } from '../../src/follow/follow-stream.ts';
import { get } from '../../src/net/http-get.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import { testStores, useStore } from '../support/databases.ts';
import { accountsSamplesDir } from '../support/samples.ts';
import { company } from '../support/store-records.ts';
import { eventLine, startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { waitFor, watchWithEndpoint } from '../support/stream-world.ts';
import type { WatchingKey } from '../support/stream-world.ts';
import { writeZip } from '../support/zip.ts';

const FILER = '09355500';
const SAMPLE = 'Prod223_3384_09355500_20221231.html';
const PDF_FILER = '00000002';

function filingEvent(timepoint: number, number: string, transaction: string, data: Record<string, unknown>): string {
  return eventLine(
    timepoint,
    '2026-11-26T10:00:00',
    `/company/${number}/filing-history/${transaction}`,
    { transaction_id: transaction, date: '2026-11-26', ...data },
    { kind: 'filing-history' },
  );
}

for (const kind of testStores) {
  describe(`${kind.name}: following the filings stream`, () => {
    const db = useStore(kind);
    const dir = mkdtempSync(join(tmpdir(), 'ukcd-follow-filings-'));
    let server: FakeStreamServer;
    let api: FakeCompaniesHouseApi;
    let follower: Follower;
    let watcher: WatchingKey;
    let alerts: AlertDetectionDeps;
    const log: string[] = [];

    before(async () => {
      await db.store.upsertCompanies(
        [
          company(FILER, { accounts_last_made_up_to: '2021-12-31', accounts_next_due: '2099-09-30' }),
          company(PDF_FILER, { accounts_next_due: '2099-09-30' }),
        ],
        '2026-11-01',
      );
      watcher = await watchWithEndpoint(db.sql, db.store, [FILER]);
      api = await startFakeCompaniesHouseApi();
      api.document('doc-xhtml', FILER, {
        'application/pdf': Buffer.from('%PDF-1.4'),
        'application/xhtml+xml': readFileSync(join(accountsSamplesDir, SAMPLE)),
      });
      api.document('doc-pdf', PDF_FILER, { 'application/pdf': Buffer.from('%PDF-1.4') });
      server = await startFakeStreamServer({ key: 'k' });
      alerts = {
        store: db.store,
        ownership: createOwnershipReader(db.sql),
        detections: createAlertDetectionStore(db.sql),
      };
      follower = startFollower(
        {
          ledger: createStreamLedger(db.sql),
          appliers: [filingsApplier()],
          detection: alerts,
          documents: {
            queue: createDocumentQueue(db.sql),
            api: createCompaniesHouseApi({ apiUrl: api.url, documentApiUrl: api.url, key: 'api-key' }),
            filings: db.store,
          },
        },
        {
          baseUrl: server.url,
          key: 'k',
          get: get as StreamGet,
          stallMs: 2_000,
          lease: { holder: 'test-follower', seconds: 30 },
          backoffMs: 10,
          log: (line) => log.push(line),
        },
      );
      await waitFor('the follower to connect', async () => server.connected('filings') > 0);
    });
    after(async () => {
      await follower.stop();
      await Promise.all([server.close(), api.close(), watcher.close()]);
      rmSync(dir, { recursive: true, force: true });
    });

    const status = async (transaction: string) =>
      (
        await db.sql.query<{ document_status: string }>(
          `SELECT document_status FROM stream_filings WHERE transaction_id = $1`,
          [transaction],
        )
      ).rows[0]?.document_status;

    test('filed iXBRL accounts become figures on the lookup and a new_accounts alert', async () => {
      server.publish('filings', [
        filingEvent(1, FILER, 'T-ACCOUNTS', {
          category: 'accounts',
          type: 'AA',
          description: 'accounts-with-accounts-type-micro-entity',
          description_values: { made_up_date: '2022-12-31' },
          links: { document_metadata: `${api.url}/document/doc-xhtml` },
        }),
        filingEvent(2, PDF_FILER, 'T-PDF', {
          category: 'accounts',
          type: 'AA',
          description_values: { made_up_date: '2025-12-31' },
          links: { document_metadata: `${api.url}/document/doc-pdf` },
        }),
        filingEvent(3, FILER, 'T-OFFICER', { category: 'officers', type: 'AP01' }),
      ]);
      await waitFor('the XHTML document loaded', async () => (await status('T-ACCOUNTS')) === 'loaded');
      await waitFor('the PDF-only document passed over', async () => (await status('T-PDF')) === 'pdf_only');
      assert.equal(await status('T-OFFICER'), 'none');

      const lookup = await db.store.getCompany(FILER);
      const latest = lookup!.accounts[0]!;
      assert.equal(latest.balance_sheet_date, '2022-12-31');
      assert.ok(
        Object.values(latest.figures).some((value) => value !== null),
        JSON.stringify(latest),
      );
      const detected = await db.sql.query<{ alert_key: string }>(
        `SELECT alert_key FROM alert_detections WHERE key_id = $1`,
        [watcher.keyId],
      );
      assert.ok(
        detected.rows.some((row) => row.alert_key.includes('new_accounts')),
        JSON.stringify(detected.rows),
      );
      // The PDF's content was never asked for; the XHTML's was, with the Accept of its type.
      assert.ok(!api.requests.some((r) => r.path === '/document/doc-pdf/content'));
      assert.ok(
        api.requests.some((r) => r.path === '/document/doc-xhtml/content' && r.accept === 'application/xhtml+xml'),
      );
    });

    test('the daily bulk file with the same accounts leaves one filing, not two', async () => {
      const zip = join(dir, 'Accounts_Bulk_Data-2026-11-27.zip');
      await writeZip(zip, { [SAMPLE]: readFileSync(join(accountsSamplesDir, SAMPLE)) });
      const before = await db.store.getCompany(FILER);
      const summary = await loadAccounts({ filings: db.store, journal: db.store, alerts }, [zip], {
        reportDir: join(dir, 'reports'),
        log: () => undefined,
        workers: 1,
      });
      assert.equal(summary.failed, 0);
      const rows = await db.sql.query<{ source_zip: string }>(
        `SELECT source_zip FROM filings WHERE company_number = $1`,
        [FILER],
      );
      assert.deepEqual(
        rows.rows.map((row) => row.source_zip),
        ['Accounts_Bulk_Data-2026-11-27.zip'],
      );
      const after = await db.store.getCompany(FILER);
      assert.deepEqual(
        after!.accounts.map((entry) => [entry.balance_sheet_date, entry.figures]),
        before!.accounts.map((entry) => [entry.balance_sheet_date, entry.figures]),
      );
      assert.equal(summary.alerts?.alerts, 0, 'new_accounts was sent when the document came');
    });
  });
}
