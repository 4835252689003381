/**
 * A search document that gains fields (issue 13: `trajectory`, total assets less current
 * liabilities) reaches an index built before: on Elasticsearch, ensureIndex adds the new fields to
 * the live index (updates keep working) and the indexer, seeing it built from an older mapping
 * version, rebuilds it in full into the next `companies_vN`; on Postgres, the migration empties
 * `company_search`, which the indexer then builds in full. The same for the ownership fields of
 * issue 14 (mapping version 3, migration 009), and the word-start suffixes of names that name
 * search's "contains" tier reads (mapping version 4). The people table is emptied likewise when its
 * documents gain identity verification (migration 075; the Elasticsearch people mapping version 3).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { TestContext } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { listMigrations, migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import type { CompanyFilters, CompanyQuery } from '../../src/domain/criteria.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { indexSearch } from '../../loaders/index-search.ts';
import { testStores, useStore } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { repoRoot } from '../support/samples.ts';
import { criteriaCompanies } from '../support/search-fixtures.ts';
import { company, figures, filing } from '../support/store-records.ts';
import { corporatePsc, individualPsc } from '../support/psc-records.ts';

const quiet = () => {};

/**
 * A companies index behind a new alias as an older version built it: the current mapping without
 * the fields `leftOut`, marked `version` (null: from before versions were kept).
 */
async function olderIndex(t: TestContext, name: string, version: number | null, leftOut: readonly string[]) {
  const client = new Client({ node: elasticsearchUrl() });
  const alias = `${name}_${process.pid}`;
  t.after(async () => {
    await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
    await client.close();
  });
  const mapping = JSON.parse(readFileSync(join(repoRoot, 'index-mappings', 'companies.json'), 'utf8'));
  const { _meta: _version, properties, ...rest } = mapping.mappings;
  const oldProperties = Object.fromEntries(Object.entries(properties).filter(([field]) => !leftOut.includes(field)));
  await client.indices.create({
    index: `${alias}_v1`,
    settings: mapping.settings,
    mappings: { ...rest, ...(version === null ? {} : { _meta: { version } }), properties: oldProperties },
    aliases: { [alias]: {} },
  });
  return { client, alias, target: `elasticsearch:${alias}` };
}

describe('an Elasticsearch index built from an older mapping', () => {
  const db = useStore(testStores[0]!);

  test('gets the new fields at once, and is rebuilt in full by the next indexer run', async (t) => {
    // The mapping as it was before issue 13: no version, no trajectory, no total assets figure.
    const { client, alias, target } = await olderIndex(t, 'companies_upgrade', null, [
      'trajectory',
      'total_assets_less_current_liabilities',
    ]);

    // A company growing over two years, in the store; the old index holds it in the old shape.
    const number = 'UP000001';
    await db.store.upsertCompanies([company(number)], '2024-07-01');
    await db.store.saveFilings(
      [
        filing(number, 'Accounts_Bulk_Data-2025-02-01.zip', 'up1.html', '2024-12-31', 200_000, {
          current: { ...figures(200_000), total_assets_less_current_liabilities: 250_000 },
          prior_balance_sheet_date: '2023-12-31',
          prior: figures(100_000),
        }),
      ],
      [],
    );
    await client.index({ index: alias, id: number, document: { company_number: number, name: 'OLD' }, refresh: true });
    await db.store.recordSearchIndexedThrough(target, await db.store.now());

    await ensureIndex({ client, alias });
    const index = createEsSearchIndex({ client, alias });
    assert.equal(await index.outdated(), true);
    // Updates write every field of the new document: the strict mapping must take them already.
    await index.upsertCompanies([criteriaCompanies.northwind]);

    const run = await indexSearch(db.store, { index, target }, { log: quiet });
    assert.equal(run.mode, 'full');
    assert.equal(await index.outdated(), false);
    assert.deepEqual(Object.keys(await client.indices.get({ index: alias })), [`${alias}_v2`]);
    const query: CompanyQuery = {
      filters: {
        status: 'any',
        trajectory: 'growing',
        figures: { total_assets_less_current_liabilities: { min: 250_000 } },
      },
      sort: { field: 'net_assets', descending: true },
      limit: 10,
      asOf: '2025-06-30',
    };
    assert.deepEqual(
      (await index.findCompanies(query)).documents.map((d) => d.company_number),
      [number],
    );
    assert.equal((await indexSearch(db.store, { index, target }, { log: quiet })).mode, 'update');
  });
});

describe('an Elasticsearch index built from mapping version 2 (before the ownership fields)', () => {
  const db = useStore(testStores[0]!);

  test('is rebuilt with them; PSC changes then reach it through updates', async (t) => {
    const { client, alias, target } = await olderIndex(t, 'companies_upgrade_v2', 2, [
      'controller_count',
      'has_corporate_parent',
      'parent_countries',
    ]);

    const number = 'UP000002';
    const pscs = createPscStore(db.sql);
    await db.store.upsertCompanies([company(number)], '2024-07-01');
    await pscs.upsertPscs([corporatePsc(number, { name: 'ISLAND HOLDINGS LTD', country: 'Jersey' })], '2024-07-01');
    await client.index({ index: alias, id: number, document: { company_number: number, name: 'OLD' }, refresh: true });
    await db.store.recordSearchIndexedThrough(target, await db.store.now());

    await ensureIndex({ client, alias });
    const index = createEsSearchIndex({ client, alias });
    assert.equal(await index.outdated(), true);
    await index.upsertCompanies([criteriaCompanies.northwind]);
    assert.equal((await indexSearch(db.store, { index, target }, { log: quiet })).mode, 'full');
    assert.equal(await index.outdated(), false);
    const numbers = async (filters: Partial<CompanyFilters>) =>
      (
        await index.findCompanies({
          filters: { status: 'any', ...filters },
          sort: { field: 'name', descending: false },
          limit: 10,
          asOf: '2025-06-30',
        })
      ).documents.map((d) => d.company_number);
    assert.deepEqual(await numbers({ parent_country: 'jersey' }), [number]);
    assert.deepEqual(await numbers({ has_corporate_parent: false }), []);

    // The next complete snapshot no longer lists the parent; an individual is notified instead.
    await pscs.upsertPscs(
      [individualPsc(number, { forename: 'Grace', surname: 'Hopper', birthYear: 1966, birthMonth: 12 })],
      '2024-08-01',
    );
    await pscs.markMissingCeased('2024-08-01');
    assert.equal((await indexSearch(db.store, { index, target }, { log: quiet })).mode, 'update');
    assert.deepEqual(await numbers({ parent_country: 'jersey' }), []);
    assert.deepEqual(await numbers({ has_corporate_parent: false, controller_count: { min: 1, max: 1 } }), [number]);
  });
});

describe('an Elasticsearch index built from mapping version 3 (before the word-start suffixes of names)', () => {
  const db = useStore(testStores[0]!);

  test('is rebuilt with them, so that a phrase found inside a name ranks as "contains" at once', async (t) => {
    const { client, alias, target } = await olderIndex(t, 'companies_upgrade_v3', 3, ['name_suffixes']);
    const names = ['CARE AT HOME LTD', 'BEST HOME CARE LTD'];
    await db.store.upsertCompanies(
      names.map((name, i) => company(`UP00003${i}`, { name })),
      '2024-07-01',
    );
    await db.store.recordSearchIndexedThrough(target, await db.store.now());

    await ensureIndex({ client, alias });
    const index = createEsSearchIndex({ client, alias, nameSearchCacheEntries: 0 });
    assert.equal(await index.outdated(), true);
    assert.equal((await indexSearch(db.store, { index, target }, { log: quiet })).mode, 'full');
    assert.equal(await index.outdated(), false);
    const found = await index.searchByName('home care', 10);
    assert.deepEqual(
      found.hits.map((hit) => hit.name),
      ['BEST HOME CARE LTD', 'CARE AT HOME LTD'],
    );
  });
});

describe('the Postgres search table after migration 009', () => {
  test('is emptied (so the indexer builds it in full) and has the ownership columns', async () => {
    const sql = await createPgliteSql();
    try {
      const migrations = listMigrations();
      await migrate(
        sql,
        migrations.filter((m) => m.version < 9),
      );
      await sql.query(
        `INSERT INTO company_search (company_number, name, name_words, name_length, status, active, type, sic_codes,
           status_groups, type_key, sic_prefixes, must_file, charges_outstanding, flags, risk_band, risk_band_if_overdue,
           trajectory)
         VALUES ('00000001', 'A LTD', ' A', 5, 'Active', true, 'ltd', '{}', '{}', 'ltd', '{}', true, 0, '{}', 'low', 'low',
           'stable')`,
      );
      await migrate(sql, migrations);
      const count = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM company_search');
      assert.equal(count.rows[0]!.count, 0);
      const columns = await sql.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'company_search'
         AND column_name IN ('controller_count', 'has_corporate_parent', 'parent_countries') ORDER BY 1`,
      );
      assert.deepEqual(
        columns.rows.map((r) => r.column_name),
        ['controller_count', 'has_corporate_parent', 'parent_countries'],
      );
    } finally {
      await sql.close();
    }
  });
});

describe('the Postgres search table after migration 006', () => {
  test('is emptied (so the indexer builds it in full) and has the new columns', async () => {
    const sql = await createPgliteSql();
    try {
      const migrations = listMigrations();
      await migrate(
        sql,
        migrations.filter((m) => m.version < 6),
      );
      await sql.query(
        `INSERT INTO company_search (company_number, name, name_words, name_length, status, active, type, sic_codes,
           status_groups, type_key, sic_prefixes, must_file, charges_outstanding, flags, risk_band, risk_band_if_overdue)
         VALUES ('00000001', 'A LTD', ' A', 5, 'Active', true, 'ltd', '{}', '{}', 'ltd', '{}', true, 0, '{}', 'low', 'low')`,
      );
      await migrate(sql, migrations);
      const count = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM company_search');
      assert.equal(count.rows[0]!.count, 0);
      const columns = await sql.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'company_search'
         AND column_name IN ('trajectory', 'total_assets_less_current_liabilities') ORDER BY 1`,
      );
      assert.deepEqual(
        columns.rows.map((r) => r.column_name),
        ['total_assets_less_current_liabilities', 'trajectory'],
      );
    } finally {
      await sql.close();
    }
  });
});

describe('the Postgres people table after migration 075', () => {
  test('is emptied, so the indexer builds it in full with identity verification on every person', async () => {
    const sql = await createPgliteSql();
    try {
      const migrations = listMigrations();
      await migrate(
        sql,
        migrations.filter((m) => m.version < 75),
      );
      // A document as built before: its companies carry no identity_verification.
      await sql.query(
        `INSERT INTO people_search (person_key, kind, name_words, name_length, current_companies, document)
         VALUES ('individual|jane doe|1975|3', 'individual', ' JANE DOE', 8, 1, '{"companies": [{}]}')`,
      );
      await migrate(sql, migrations);
      const count = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM people_search');
      assert.equal(count.rows[0]!.count, 0);
    } finally {
      await sql.close();
    }
  });
});
