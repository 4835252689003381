/**
 * The sample dataset the embedded default loads on first start: generated in the real formats and
 * loaded through the real loaders, with something for every endpoint to show.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadSampleDataset } from '../../loaders/sample-dataset.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { FUNDED_MIN_NET_ASSETS, YOUNG_YEARS } from '../../src/domain/triggers.ts';
import type { Sql } from '../../src/ports.ts';
import { testStores } from '../support/databases.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-sample-'));
let sql: Sql;
let close: () => Promise<void>;
let summary: Awaited<ReturnType<typeof loadSampleDataset>>;

before(async () => {
  ({ sql, close } = await testStores[0]!.open());
  summary = await loadSampleDataset(createCompanyStore(sql), {
    dataDir,
    companies: 400,
    years: 5,
    today: new Date('2026-11-21T12:00:00Z'),
    log: () => undefined,
  });
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
