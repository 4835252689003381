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
    sql = createPgSql({
      connectionString: config.DATABASE_URL,
      ...(options.timeoutMs
        ? { statementTimeoutMs: options.timeoutMs, connectionTimeoutMs: Math.min(options.timeoutMs, 5000) }
        : {}),
    });
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
