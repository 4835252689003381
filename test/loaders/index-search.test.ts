/**
 * The search indexer over a real store, into each search adapter: a first run builds everything,
 * later runs re-index only what loads changed, and `ukcd index` does the same from the command line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { TestContext } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import type { CompanyQuery } from '../../src/domain/criteria.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { indexSearch } from '../../loaders/index-search.ts';
import { freshPostgres, testStores, useStore } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { repoRoot } from '../support/samples.ts';
import { company, figures, filing } from '../support/store-records.ts';

const quiet = () => {};
const byNetAssets = (limit = 10): CompanyQuery => ({
  filters: { status: 'any' },
  sort: { field: 'net_assets', descending: true },
  limit,
  asOf: '2025-01-01',
});

interface Target {
  name: string;
  open(
    sql: Parameters<typeof createPgSearchIndex>[0],
  ): Promise<{ index: SearchIndex; target: string; close(): Promise<void> }>;
}

let aliasCounter = 0;
const targets: Target[] = [
  {
    name: 'postgres search',
    open: async (sql) => ({
      index: createPgSearchIndex(sql),
      target: 'postgres:company_search',
      close: async () => {},
    }),
  },
  {
    name: 'elasticsearch',
    async open() {
      const client = new Client({ node: elasticsearchUrl() });
      const alias = `companies_indexer_${process.pid}_${++aliasCounter}`;
      await ensureIndex({ client, alias });
      return {
        index: createEsSearchIndex({ client, alias }),
        target: `elasticsearch:${alias}`,
        async close() {
          await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
          await client.close();
        },
      };
    },
  },
];

for (const target of targets) {
  describe(`indexSearch into ${target.name} (store on PGlite)`, () => {
    const db = useStore(testStores[0]!);

    test('first run builds, later runs update only what changed, --full rebuilds', async (t) => {
      const search = await target.open(db.sql);
      t.after(() => search.close());
      const numbers = Array.from({ length: 30 }, (_, i) => String(i + 1).padStart(8, '0'));
      await db.store.upsertCompanies(
        numbers.map((n) => company(n)),
        '2024-06-01',
      );
      await db.store.saveFilings(
        numbers.map((n, i) =>
          filing(n, 'Accounts_Bulk_Data-2024-02-01.zip', `f${n}.html`, '2023-12-31', 1_000 * (i + 1)),
        ),
        [],
      );

      const first = await indexSearch(db.store, search, { log: quiet, batchSize: 7 });
      assert.deepEqual([first.mode, first.documents], ['full', 30]);
      const top = await search.index.findCompanies(byNetAssets(1));
      assert.equal(top.total, 30);
      assert.deepEqual([top.documents[0]!.company_number, top.documents[0]!.net_assets], ['00000030', 30_000]);

      const unchanged = await indexSearch(db.store, search, { log: quiet });
      assert.deepEqual([unchanged.mode, unchanged.documents], ['update', 0]);

      // A later filing for one company and a register change for another.
      await db.store.saveFilings(
        [
          filing('00000020', 'Accounts_Bulk_Data-2025-02-01.zip', 'g20.html', '2024-12-31', 99_000, {
            prior_balance_sheet_date: '2023-12-31',
            prior: figures(20_000),
          }),
        ],
        [],
      );
      // A later snapshot lists company 7 again, unchanged: nothing of it to re-index.
      await db.store.upsertCompanies(
        [company('00000005', { name: 'RENAMED FIVE LIMITED' }), company('00000007')],
        '2024-07-01',
      );
      const update = await indexSearch(db.store, search, { log: quiet });
      assert.deepEqual([update.mode, update.documents], ['update', 2]);
      const after = await search.index.findCompanies(byNetAssets(1));
      assert.deepEqual(
        [after.documents[0]!.company_number, after.documents[0]!.net_assets, after.documents[0]!.flags],
        ['00000020', 99_000, ['growing', 'rapid_growth']],
      );
      assert.equal((await search.index.searchByName('renamed five', 5)).hits[0]?.company_number, '00000005');

      const full = await indexSearch(db.store, search, { log: quiet, full: true });
      assert.deepEqual([full.mode, full.documents], ['full', 30]);
      assert.equal(await search.index.count(), 30);
    });

    test('accounts published after the register snapshot end "overdue" at the next update', async (t) => {
      const search = await target.open(db.sql);
      t.after(() => search.close());
      // Two companies of their own trade, so the queries see only them in the store the tests share.
      // The snapshot knows of their accounts to 2025-01-31 and wants the next by 2026-10-31.
      const [lagging, late] = ['OV000001', 'OV000002'];
      const register = {
        accounts_last_made_up_to: '2025-01-31',
        accounts_next_due: '2026-10-31',
        sic_codes: ['01110 - Growing of cereals (except rice), leguminous crops and oil seeds'],
      };
      await db.store.upsertCompanies(
        [lagging, late].map((n) => company(n, register)),
        '2026-11-01',
      );
      await db.store.saveFilings(
        [lagging, late].map((n) =>
          filing(n, 'Accounts_Bulk_Data-2025-06-01.zip', `${n}.html`, '2025-01-31', 50_000, {
            published: '2025-06-01',
          }),
        ),
        [],
      );
      await indexSearch(db.store, search, { log: quiet });
      const asOf = '2026-11-21';
      const numbers = async (filters: Partial<CompanyQuery['filters']>, trigger?: CompanyQuery['trigger']) =>
        (
          await search.index.findCompanies({
            ...byNetAssets(),
            filters: { status: 'active', sic: '0111', ...filters },
            ...(trigger ? { trigger } : {}),
            asOf,
          })
        ).documents.map((d) => d.company_number);
      assert.deepEqual(await numbers({}, 'accounts_overdue'), [lagging, late]);

      // The accounts to 2026-01-31 of one of them, published in a daily file after the snapshot.
      await db.store.saveFilings(
        [
          filing(lagging, 'Accounts_Bulk_Data-2026-11-17.zip', `${lagging}-2026.html`, '2026-01-31', 60_000, {
            published: '2026-11-17',
          }),
        ],
        [],
      );
      const update = await indexSearch(db.store, search, { log: quiet });
      assert.deepEqual([update.mode, update.documents], ['update', 1]);
      assert.deepEqual(await numbers({}, 'accounts_overdue'), [late]);
      assert.deepEqual(await numbers({ signal: 'accounts_overdue' }), [late]);
      assert.deepEqual(await numbers({ risk_band: 'low' }), [lagging]);
      assert.deepEqual(await numbers({ risk_band: 'medium' }), [late]);
    });
  });
}

/** A fresh real Postgres database and an Elasticsearch alias name, both removed after the test. */
async function realPostgresAndAlias(t: TestContext, prefix: string) {
  const db = await freshPostgres();
  const client = new Client({ node: elasticsearchUrl() });
  const alias = `${prefix}_${process.pid}`;
  t.after(async () => {
    await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
    await client.close();
    await db.drop();
  });
  return { db, client, alias };
}

describe('ukcd index', () => {
  test('indexes a real Postgres store into Elasticsearch from the command line', async (t) => {
    const { db, client, alias } = await realPostgresAndAlias(t, 'companies_cli');
    const { createCompanyStore } = await import('../../src/adapters/postgres/company-store.ts');
    await createCompanyStore(db.sql).upsertCompanies(
      ['00000001', '00000002', 'SC000003'].map((n) => company(n)),
      '2024-06-01',
    );
    const env = {
      ...process.env,
      DATABASE_URL: db.url,
      ELASTICSEARCH_URL: elasticsearchUrl(),
      ELASTICSEARCH_INDEX: alias,
    };
    const run = spawnSync(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'index'], { env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /search index rebuilt: 3 companies/);
    assert.equal((await client.count({ index: alias })).count, 3);
    const again = spawnSync(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'index'], { env, encoding: 'utf8' });
    assert.match(again.stderr, /search index updated: 0 companies/);
    const bad = spawnSync(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'index', '--fast'], {
      env,
      encoding: 'utf8',
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /usage: ukcd index/);
  });
});

describe('indexing runs on one index take turns', () => {
  test('two runs started at once on an empty index: one builds it, the other waits and only updates', async (t) => {
    const { db, client, alias } = await realPostgresAndAlias(t, 'companies_turns');
    const { createCompanyStore } = await import('../../src/adapters/postgres/company-store.ts');
    const store = createCompanyStore(db.sql);
    await store.upsertCompanies(
      Array.from({ length: 40 }, (_, i) => company(String(i + 1).padStart(8, '0'))),
      '2024-06-01',
    );
    await ensureIndex({ client, alias });
    const search = { index: createEsSearchIndex({ client, alias }), target: `elasticsearch:${alias}` };
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);

    const runs = await Promise.all([
      indexSearch(store, search, { log, batchSize: 5 }),
      indexSearch(store, search, { log, batchSize: 5 }),
    ]);
    assert.deepEqual(runs.map((run) => [run.mode, run.documents]).sort(), [
      ['full', 40],
      ['update', 0],
    ]);
    assert.equal(lines.filter((line) => /another run is indexing it; waiting/.test(line)).length, 1);
    assert.equal(await search.index.count(), 40);
    const versions = await client.indices.get({ index: `${alias}_v*` });
    assert.equal(Object.keys(versions).length, 1, 'one rebuild, not two side by side');
  });
});

describe('a change committed after an update read the changes', () => {
  // The follower writes while the index is updated: a transaction that began before an update
  // started and committed after it read dates its rows (updated_at = now()) before that update's
  // watermark, so the next update must still read them.
  test('is read by the next update (PostgreSQL, Postgres search)', async (t) => {
    const db = await freshPostgres();
    t.after(() => db.drop());
    const { createCompanyStore } = await import('../../src/adapters/postgres/company-store.ts');
    const store = createCompanyStore(db.sql);
    await store.upsertCompanies([company('00000001', { name: 'OLD NAME LIMITED' })], '2024-06-01');
    const search = { index: createPgSearchIndex(db.sql), target: 'postgres:company_search' };
    await indexSearch(store, search, { log: quiet });

    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const writer = db.sql.transaction(async (tx) => {
      await tx.query(`UPDATE companies SET name = 'NEW NAME LIMITED', updated_at = now() WHERE company_number = $1`, [
        '00000001',
      ]);
      written();
      await committed;
    });
    await wrote;
    const during = await indexSearch(store, search, { log: quiet });
    assert.equal(during.documents, 0, 'the uncommitted change is not visible yet');
    commit();
    await writer;

    await indexSearch(store, search, { log: quiet });
    const page = await search.index.searchByName('NEW NAME', 10);
    assert.deepEqual(
      page.hits.map((hit) => hit.company_number),
      ['00000001'],
    );
  });
});
