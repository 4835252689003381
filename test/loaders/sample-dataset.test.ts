/**
 * The sample dataset the embedded default loads on first start: generated in the real formats and
 * loaded through the real loaders, with something for every endpoint to show.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { indexSearch } from '../../loaders/index-search.ts';
import { loadSampleDataset } from '../../loaders/sample-dataset.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import type { CompanyFilters, CompanyQuery } from '../../src/domain/criteria.ts';
import { FUNDED_MIN_NET_ASSETS, YOUNG_YEARS } from '../../src/domain/triggers.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { testStores } from '../support/databases.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-sample-'));
let sql: Sql;
let close: () => Promise<void>;
let summary: Awaited<ReturnType<typeof loadSampleDataset>>;

before(async () => {
  ({ sql, close } = await testStores[0]!.open());
  summary = await loadSampleDataset(
    { store: createCompanyStore(sql), pscs: createPscStore(sql), pdfEstimates: createPdfEstimateStore(sql) },
    {
      dataDir,
      companies: 400,
      years: 5,
      today: new Date('2026-11-21T12:00:00Z'),
      log: () => undefined,
    },
  );
});
after(async () => close());

async function one(query: string): Promise<number> {
  return (await sql.query<{ n: number }>(query)).rows[0]!.n;
}

test('the files are written in the real formats and names', () => {
  assert.match(
    readdirSync(join(dataDir, 'sample', 'register', '2026-11-01')).join(),
    /BasicCompanyData(AsOneFile)?-2026-11-01/,
  );
  assert.ok(
    readdirSync(join(dataDir, 'sample', 'accounts')).every((name) =>
      /^Accounts_Bulk_Data-\d{4}-\d{2}-\d{2}\.zip$/.test(name),
    ),
  );
  assert.equal(summary.snapshotDate, '2026-11-01');
});

test('companies that file on paper have estimates of those accounts, never of a year the bulk data has', async () => {
  assert.ok(summary.pdfEstimates > 0, 'some estimates');
  assert.equal(await one(`SELECT count(*)::int AS n FROM pdf_estimates`), summary.pdfEstimates);
  assert.equal(
    await one(`SELECT count(*)::int AS n FROM pdf_estimates e LEFT JOIN companies c USING (company_number)
      WHERE c.company_number IS NULL`),
    0,
    'every estimate is of a company on the register',
  );
  assert.equal(
    await one(`SELECT count(*)::int AS n FROM pdf_estimates e
      JOIN filings f ON f.company_number = e.company_number AND f.balance_sheet_date = e.balance_sheet_date`),
    0,
    'no estimate of accounts that are in the bulk data',
  );
  assert.ok(
    (await one(`SELECT count(*)::int AS n FROM pdf_estimates e
      WHERE NOT EXISTS (SELECT 1 FROM filings f WHERE f.company_number = e.company_number)`)) > 0,
    'some companies have estimates and no machine-readable accounts at all',
  );
  assert.ok(
    (await one(`SELECT count(*)::int AS n FROM pdf_estimates WHERE read_at > '2026-11-21T23:59:59Z'`)) === 0,
    'nothing read after the day the sample is made',
  );
});

test('a PSC snapshot of the same day is loaded whole: who controls the companies, with corporate parents on the register', async () => {
  assert.match(
    readdirSync(join(dataDir, 'sample', 'psc', '2026-11-01')).join(),
    /^persons-with-significant-control-snapshot-2026-11-01\.zip$/,
  );
  const journal = await sql.query<{ rows_rejected: number; detail: { complete: boolean; snapshotDate: string } }>(
    `SELECT rows_rejected, detail FROM load_journal WHERE kind = 'psc' AND status = 'done'`,
  );
  assert.deepEqual(
    journal.rows.map((r) => [r.rows_rejected, r.detail.complete, r.detail.snapshotDate]),
    [[0, true, '2026-11-01']],
  );
  assert.equal(await one(`SELECT count(*)::int AS n FROM psc`), summary.pscs);
  const controlled = await one(
    `SELECT count(DISTINCT p.company_number)::int AS n FROM psc p JOIN companies c USING (company_number) WHERE NOT p.ceased`,
  );
  const live = await one(`SELECT count(*)::int AS n FROM companies WHERE status <> 'Dissolved'`);
  assert.ok(
    controlled / live > 0.8,
    `${controlled} of ${live} companies on the register have current PSCs or statements`,
  );
  const kinds = await sql.query<{ kind_class: string }>(`SELECT DISTINCT kind_class FROM psc ORDER BY 1`);
  for (const kind of ['corporate', 'individual', 'statement'])
    assert.ok(
      kinds.rows.some((r) => r.kind_class === kind),
      `some ${kind} PSCs: ${JSON.stringify(kinds.rows)}`,
    );
  const parents = await one(
    `SELECT count(*)::int AS n FROM psc p JOIN companies c ON c.company_number = p.registered_company_number WHERE NOT p.ceased`,
  );
  const overseas = await one(`SELECT count(*)::int AS n FROM psc WHERE overseas AND NOT ceased`);
  const ceased = await one(`SELECT count(*)::int AS n FROM psc WHERE ceased`);
  for (const [what, n] of Object.entries({ parents, overseas, ceased })) assert.ok(n > 0, `${what}: ${n}`);
});

test('hundreds of companies with several years of accounts each, nothing rejected', async () => {
  assert.ok(summary.companies >= 400, `${summary.companies} companies`);
  assert.ok(summary.filings >= 1000, `${summary.filings} filings`);
  assert.equal(await one(`SELECT count(*)::int AS n FROM parse_failures`), 0);
  const multiYear = await one(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM accounts_history GROUP BY company_number HAVING count(*) >= 3) x`,
  );
  assert.ok(multiYear >= 100, `${multiYear} companies with 3+ years`);
});

test('nearly every filing belongs to a company on the register; those that left it are marked dissolved', async () => {
  const orphans = await one(
    `SELECT count(DISTINCT f.company_number)::int AS n FROM filings f LEFT JOIN companies c USING (company_number) WHERE c.company_number IS NULL`,
  );
  const filers = await one(`SELECT count(DISTINCT company_number)::int AS n FROM filings`);
  // A company dissolved before the first snapshot is in none: real snapshots list live companies only.
  assert.ok(orphans / filers < 0.02, `${orphans} of ${filers} filers not on the register`);
  const dissolved = await one(
    `SELECT count(*)::int AS n FROM companies WHERE status = 'Dissolved' AND removed_from_register = DATE '2026-11-01'`,
  );
  assert.ok(dissolved > 0, `${dissolved} marked dissolved by the later snapshot`);
});

test('some companies have negative net assets, overdue accounts, charges, distress statuses, and young funded ones', async () => {
  const negative = await one(
    `SELECT count(DISTINCT company_number)::int AS n FROM accounts_history WHERE (figures->>'net_assets')::numeric < 0`,
  );
  const overdue = await one(`SELECT count(*)::int AS n FROM companies WHERE accounts_next_due < DATE '2026-11-21'`);
  const charged = await one(`SELECT count(*)::int AS n FROM companies WHERE charges_outstanding > 0`);
  const distress = await one(`SELECT count(*)::int AS n FROM companies WHERE status <> 'Active'`);
  // What the young_and_funded trigger looks for, so that it has something to show too.
  const youngFunded = await one(
    `SELECT count(DISTINCT c.company_number)::int AS n FROM companies c JOIN accounts_history h USING (company_number)
     WHERE c.incorporated > DATE '2026-11-21' - interval '${YOUNG_YEARS} years'
       AND (h.figures->>'net_assets')::numeric >= ${FUNDED_MIN_NET_ASSETS}`,
  );
  for (const [what, n] of Object.entries({ negative, overdue, charged, distress, youngFunded }))
    assert.ok(n > 0, `${what}: ${n}`);
});

test('filings were published recently, relative to the sample day', async () => {
  const recent = await one(`SELECT count(*)::int AS n FROM filings WHERE published > DATE '2026-10-21'`);
  assert.ok(recent > 0, `${recent} filings in the last 30 days`);
  assert.equal(
    await one(`SELECT count(*)::int AS n FROM filings WHERE published > DATE '2026-11-21'`),
    0,
    'nothing from the future',
  );
});

test('searched as the service would: no dissolved company is low risk, none overdue with newer accounts on file', async () => {
  const index = createPgSearchIndex(sql);
  await indexSearch(createCompanyStore(sql), { index, target: 'postgres:company_search' }, { log: () => undefined });
  const asOf = '2026-11-21';
  const find = (filters: Partial<CompanyFilters>, trigger?: CompanyQuery['trigger']) =>
    index.findCompanies({
      filters: { status: 'any', ...filters },
      sort: { field: 'net_assets', descending: true },
      limit: 10_000,
      asOf,
      ...(trigger ? { trigger } : {}),
    });
  const dissolved = await find({ status: 'dissolved' });
  assert.ok(dissolved.total > 0, `${dissolved.total} dissolved`);
  assert.deepEqual(
    dissolved.documents.filter((d) => d.risk_band !== 'high').map((d) => [d.company_number, d.risk_band]),
    [],
  );
  // The register snapshot (2026-11-01) lags the accounts published since: some companies it shows
  // as past their due date have filed newer accounts than it knows of, and they are not overdue.
  const lagging = await one(
    `SELECT count(*)::int AS n FROM companies c
     WHERE c.accounts_next_due < DATE '${asOf}' AND c.status <> 'Dissolved'
       AND (SELECT max(balance_sheet_date) FROM accounts_history h WHERE h.company_number = c.company_number)
         > coalesce(c.accounts_last_made_up_to, DATE '0001-01-01')`,
  );
  assert.ok(lagging > 0, `${lagging} companies filed after the snapshot`);
  const overdue = await find({}, 'accounts_overdue');
  assert.ok(overdue.total > 0, `${overdue.total} overdue`);
  const newer = await sql.query<{ company_number: string }>(
    `SELECT c.company_number FROM companies c JOIN accounts_history h USING (company_number)
     WHERE c.company_number = ANY($1::text[]) AND h.balance_sheet_date > coalesce(c.accounts_last_made_up_to, DATE '0001-01-01')`,
    [overdue.documents.map((d) => d.company_number)],
  );
  assert.deepEqual(newer.rows, []);
});
