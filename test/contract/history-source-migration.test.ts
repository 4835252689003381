/**
 * Migration 018 on a database loaded before it: every history row gets the source of the filing
 * it was taken from (a prior-year-only year, the later filing's), and the lookup shows it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { listMigrations, migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import { company, figures } from '../support/store-records.ts';

test('migration 018 copies each history row’s filing source from its filing', async () => {
  const sql = await createPgliteSql();
  try {
    const before = listMigrations().filter((m) => m.version < 18);
    await migrate(sql, before);
    const store = createCompanyStore(sql);
    await store.upsertCompanies([company('00000042')], '2024-01-01');
    // The history as the loader wrote it before 018: no source columns.
    const filed = await sql.query<{ id: string }>(
      `INSERT INTO filings (company_number, source_zip, source_file, published, balance_sheet_date, standard,
         current_figures, prior_balance_sheet_date, prior_figures)
       VALUES ('00000042', 'Accounts_Bulk_Data-2024-06-01.zip', 'Prod223_0001_00000042_20231231.html', '2024-06-01',
         '2023-12-31', 'FRS 102', $1, '2022-12-31', $2)
       RETURNING id`,
      [JSON.stringify(figures(300)), JSON.stringify(figures(200))],
    );
    const id = filed.rows[0]!.id;
    await sql.query(
      `INSERT INTO accounts_history (company_number, balance_sheet_date, standard, figures, from_prior_period, filing_id)
       VALUES ('00000042', '2023-12-31', 'FRS 102', $1, false, $3), ('00000042', '2022-12-31', 'FRS 102', $2, true, $3)`,
      [JSON.stringify(figures(300)), JSON.stringify(figures(200)), id],
    );
    assert.deepEqual(await migrate(sql), ['018_history_source', ...laterThan18()]);
    const found = await store.getCompany('00000042');
    const source = { zip: 'Accounts_Bulk_Data-2024-06-01.zip', file: 'Prod223_0001_00000042_20231231.html' };
    assert.deepEqual(
      found?.accounts.map((a) => [a.balance_sheet_date, a.from_prior_period, a.source]),
      [
        ['2023-12-31', false, source],
        ['2022-12-31', true, source],
      ],
    );
  } finally {
    await sql.close();
  }
});

function laterThan18(): string[] {
  return listMigrations()
    .filter((m) => m.version > 18)
    .map((m) => m.name);
}
