/**
 * The stores every store test runs against: PGlite in-process, and a fresh database on the real
 * PostgreSQL server that scripts/postgres.sh installs and starts. A missing server is a failure
 * with the script's own message, never a skip.
 */
import { after, before } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import type { PostgresCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { serviceUrl } from './service-url.ts';

/** URL of the test server's maintenance database, starting the server if needed. */
function postgresServerUrl(): string {
  return serviceUrl('UKCD_TEST_DATABASE_URL', 'postgres.sh');
}

let counter = 0;

/** A new, empty, migrated database on the real server; `url` lets child processes use it too. */
export async function freshPostgres(): Promise<{ sql: Sql; url: string; drop(): Promise<void> }> {
  const admin = createPgSql({ connectionString: postgresServerUrl(), max: 1 });
  const name = `ukcd_t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = postgresServerUrl().replace(/\/[^/]*$/, `/${name}`);
  const sql = createPgSql({ connectionString: url });
  await migrate(sql);
  return {
    sql,
    url,
    async drop() {
      await sql.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

export interface TestStore {
  name: 'pglite' | 'postgres';
  open(): Promise<{ sql: Sql; close(): Promise<void> }>;
}

export const testStores: TestStore[] = [
  {
    name: 'pglite',
    async open() {
      const sql = await createPgliteSql();
      await migrate(sql);
      return { sql, close: () => sql.close() };
    },
  },
  {
    name: 'postgres',
    async open() {
      const db = await freshPostgres();
      return { sql: db.sql, close: () => db.drop() };
    },
  },
];

/**
 * Inside a describe: opens a fresh store of `kind` before its tests and closes it after. The
 * tests read `db.sql` and `db.store`.
 */
export function useStore(kind: TestStore): { readonly sql: Sql; readonly store: PostgresCompanyStore } {
  let opened: { sql: Sql; close(): Promise<void> } | undefined;
  let store: PostgresCompanyStore | undefined;
  before(async () => {
    opened = await kind.open();
    store = createCompanyStore(opened.sql);
  });
  after(async () => opened?.close());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useStore: the store opens before the first test');
    return value;
  };
  return {
    get sql() {
      return ready(opened).sql;
    },
    get store() {
      return ready(store);
    },
  };
}

/** Everything the loaders write (the search index they update included), in a stable order without ids and timestamps: two loads that end alike dump alike. */
export async function dumpState(sql: Sql): Promise<string> {
  const tables = [
    `SELECT to_jsonb(c) - 'updated_at' AS row FROM companies c ORDER BY company_number`,
    `SELECT to_jsonb(f) - 'id' - 'loaded_at' AS row FROM filings f ORDER BY source_zip, source_file`,
    `SELECT to_jsonb(h) - 'filing_id' AS row FROM accounts_history h ORDER BY company_number, balance_sheet_date`,
    `SELECT to_jsonb(p) - 'recorded_at' AS row FROM parse_failures p ORDER BY source_zip, source_file`,
    `SELECT to_jsonb(s) AS row FROM company_search s ORDER BY company_number`,
  ];
  const parts: string[] = [];
  for (const query of tables) {
    const result = await sql.query<{ row: unknown }>(query);
    parts.push(result.rows.map((r) => JSON.stringify(r.row)).join('\n'));
  }
  return parts.join('\n---\n');
}
