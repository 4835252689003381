/**
 * Opens the store the configuration asks for: a real Postgres when DATABASE_URL is set, else
 * PGlite under DATA_DIR. Migrations run on open unless asked not to. The loaders and the service
 * share this.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createCompanyStore } from './adapters/postgres/company-store.ts';
import { createKeyStore } from './adapters/postgres/key-store.ts';
import { createWatchlistStore } from './adapters/postgres/watchlist-store.ts';
import { migrate } from './adapters/postgres/migrate.ts';
import { createPgSql } from './adapters/sql/pg-sql.ts';
import { createPgliteSql } from './adapters/sql/pglite-sql.ts';
import type { Config } from './config.ts';
import type { CompanyStore, KeyStore, Sql, WatchlistStore } from './ports.ts';

export interface OpenedStore {
  sql: Sql;
  store: CompanyStore;
  keys: KeyStore;
  watchlists: WatchlistStore;
  /** Where the data lives, for messages. */
  location: string;
}

/** The store a service reads from: the replica of DATABASE_READ_URL when set, else the store itself. */
export interface ReadSide {
  sql: Sql;
  store: CompanyStore;
  location: string;
  /** Closes the replica's pool (nothing when reads share the store's). */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** The service's bound on each statement and connection (DATABASE_TIMEOUT_MS); none for loaders. */
  timeoutMs?: number;
  /** Run the migrations on open (default). The service opens its bounded pool without, see main.ts. */
  migrate?: boolean;
}

export async function openStore(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  options: OpenStoreOptions = {},
): Promise<OpenedStore> {
  let sql: Sql;
  let location: string;
  if (config.DATABASE_URL) {
    sql = createPgSql(pgOptions(config.DATABASE_URL, options));
    location = new URL(config.DATABASE_URL).host;
  } else {
    const dir = join(resolve(config.DATA_DIR), 'pglite');
    mkdirSync(dir, { recursive: true });
    sql = await createPgliteSql({ dataDir: dir });
    location = `PGlite in ${dir}`;
  }
  if (options.migrate ?? true) await migrate(sql);
  return {
    sql,
    store: createCompanyStore(sql),
    keys: createKeyStore(sql),
    watchlists: createWatchlistStore(sql),
    location,
  };
}

export function openReadSide(
  config: Pick<Config, 'DATABASE_READ_URL'>,
  opened: OpenedStore,
  options: OpenStoreOptions = {},
): ReadSide {
  if (!config.DATABASE_READ_URL) {
    return { sql: opened.sql, store: opened.store, location: opened.location, close: async () => {} };
  }
  // No migrations: a standby is read-only and gets the schema from its primary.
  const sql = createPgSql(pgOptions(config.DATABASE_READ_URL, options));
  return {
    sql,
    store: createCompanyStore(sql),
    location: `${new URL(config.DATABASE_READ_URL).host} (read replica)`,
    close: () => sql.close(),
  };
}

function pgOptions(connectionString: string, options: OpenStoreOptions) {
  return {
    connectionString,
    ...(options.timeoutMs
      ? { statementTimeoutMs: options.timeoutMs, connectionTimeoutMs: Math.min(options.timeoutMs, 5000) }
      : {}),
  };
}
