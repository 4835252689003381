/**
 * Opens the store the configuration asks for: a real Postgres when DATABASE_URL is set, else
 * PGlite under DATA_DIR, and every port over it. Migrations run on open unless asked not to. The
 * commands of the CLI and the service share this (the composition root): loaders are handed the
 * ports and never build an adapter.
 *
 * PGlite is a database server inside one process, with no way to share its files with another:
 * two processes that open them do not see each other's changes, and the one that closes last
 * writes over the other's (a key revoked beside the service came back when it stopped). So the
 * process that opens PGlite holds DATA_DIR/pglite.lock until it closes the store or exits, and
 * any other that tries is refused with EmbeddedStoreInUseError before it reads or writes anything.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { createAlertDetectionStore } from '../adapters/postgres/alert-detection-store.ts';
import { createCompanyStore } from '../adapters/postgres/company-store.ts';
import type { PostgresCompanyStore } from '../adapters/postgres/company-store.ts';
import { createIndexBuilds } from '../adapters/postgres/index-builds.ts';
import { createKeyStore } from '../adapters/postgres/key-store.ts';
import { createLoadClaims } from '../adapters/postgres/load-claims.ts';
import { createOfficerStore } from '../adapters/postgres/officer-store.ts';
import { createOwnershipReader } from '../adapters/postgres/ownership-reader.ts';
import { createPdfEstimateStore } from '../adapters/postgres/pdf-estimate-store.ts';
import { createPeopleSource } from '../adapters/postgres/people-source.ts';
import { createPscStore } from '../adapters/postgres/psc-store.ts';
import { createWatchlistStore } from '../adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../adapters/postgres/webhook-store.ts';
import { migrate } from '../adapters/postgres/migrate.ts';
import { createPgSql } from '../adapters/sql/pg-sql.ts';
import { createPgliteSql } from '../adapters/sql/pglite-sql.ts';
import type { AlertDetectionStore } from '../ports/alert-detection.ts';
import type { Config } from '../config.ts';
import { acquireLock, LockHeldError } from '../lock-file.ts';
import type { OfficerBackfillJournal, OfficerStore } from '../ports/officers.ts';
import type { OwnershipReader, PscStore } from '../ports/ownership.ts';
import type { PeopleSource } from '../ports/people-index.ts';
import type { PdfEstimateReader, PdfEstimateWriter } from '../ports/pdf-estimates.ts';
import type { KeyStore } from '../ports/keys.ts';
import type { Sql } from '../ports/sql.ts';
import type { WatchlistStore } from '../ports/watchlists.ts';
import type { IndexBuilds, LoadClaims } from '../ports/shared-work.ts';
import type { WebhookStore } from '../ports/webhooks.ts';
import { createSecretSealer, parseSealerKey } from '../webhooks/secret-sealer.ts';

export interface OpenedStore {
  sql: Sql;
  store: PostgresCompanyStore;
  keys: KeyStore;
  watchlists: WatchlistStore;
  pscs: PscStore;
  ownership: OwnershipReader;
  /** Company officers, and the officers backfill's journal. */
  officers: OfficerStore & OfficerBackfillJournal;
  /** Figures estimated from scanned accounts PDFs, kept apart from the iXBRL history. */
  pdfEstimates: PdfEstimateWriter & PdfEstimateReader;
  /** Where loads record the alerts they detect and queue their webhooks (no webhook secret needed). */
  alertDetections: AlertDetectionStore;
  /** The people the people index is built from. */
  peopleSource: PeopleSource;
  /** Shared loads: the claims on the files several processes split (docs/shared-loads.md). */
  loadClaims: LoadClaims;
  /** Shared full index builds: the ranges several processes split. */
  indexBuilds: IndexBuilds;
  /** Where the data lives, for messages. */
  location: string;
}

/** The store a service reads from: the replica of DATABASE_READ_URL when set, else the store itself. */
export interface ReadSide {
  sql: Sql;
  store: PostgresCompanyStore;
  ownership: OwnershipReader;
  officers: OfficerStore;
  pdfEstimates: PdfEstimateReader;
  location: string;
  /** Closes the replica's pool (nothing when reads share the store's). */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** The service's bound on each statement and connection (DATABASE_TIMEOUT_MS); none for loaders. */
  timeoutMs?: number;
  /** Connections in the pool (DATABASE_POOL_SIZE; default 10). */
  poolSize?: number;
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
    const dataDir = resolve(config.DATA_DIR);
    const dir = join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    sql = await openEmbedded(dataDir, dir);
    location = `PGlite in ${dir}`;
  }
  if (options.migrate ?? true) {
    try {
      await migrate(sql);
    } catch (error) {
      await sql.close().catch(() => {});
      throw error;
    }
  }
  return {
    sql,
    store: createCompanyStore(sql),
    keys: createKeyStore(sql),
    watchlists: createWatchlistStore(sql),
    pscs: createPscStore(sql),
    ownership: createOwnershipReader(sql),
    officers: createOfficerStore(sql),
    pdfEstimates: createPdfEstimateStore(sql),
    alertDetections: createAlertDetectionStore(sql),
    peopleSource: createPeopleSource(sql),
    loadClaims: createLoadClaims(sql),
    indexBuilds: createIndexBuilds(sql),
    location,
  };
}

/**
 * The webhook store over `sql`, its secrets sealed with WEBHOOK_SECRET_KEY, or when that is unset
 * with the key in DATA_DIR/webhook-secret.key, generated on first use. Only the service opens it:
 * a loader has no secrets to seal and should not create the key file.
 */
export function openWebhookStore(config: Pick<Config, 'DATA_DIR' | 'WEBHOOK_SECRET_KEY'>, sql: Sql): WebhookStore {
  const key = config.WEBHOOK_SECRET_KEY ?? keptSealerKey(resolve(config.DATA_DIR));
  return createWebhookStore(sql, createSecretSealer(parseSealerKey(key)));
}

/** The name of the file in DATA_DIR that keeps the generated webhook secret key. */
export const WEBHOOK_SECRET_KEY_FILE = 'webhook-secret.key';

/**
 * The generated key, base64: read from DATA_DIR, or written there once, readable by its owner only.
 * Losing it makes every stored secret unreadable (deliveries then fail until endpoints are
 * registered again), so it is never replaced once written.
 */
function keptSealerKey(dataDir: string): string {
  const path = join(dataDir, WEBHOOK_SECRET_KEY_FILE);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  // Written whole beside it, then linked into place: linking fails if the name exists, so two
  // processes starting at once keep one key, and neither can read a half-written file.
  const draft = `${path}.${process.pid}.tmp`;
  writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(path, 'utf8');
}

/** The embedded store is open in another process (named in the message, with what to do). */
export class EmbeddedStoreInUseError extends Error {}

/** The name of the lock file in DATA_DIR held by the process that has the embedded store open. */
const EMBEDDED_STORE_LOCK = 'pglite.lock';

/** PGlite in `dir`, under the data directory's lock, which closing the store releases. */
async function openEmbedded(dataDir: string, dir: string): Promise<Sql> {
  let lock;
  try {
    lock = await acquireLock(join(dataDir, EMBEDDED_STORE_LOCK), describeThisProcess());
  } catch (error) {
    if (!(error instanceof LockHeldError)) throw error;
    const { pid, holder } = error.owner;
    throw new EmbeddedStoreInUseError(
      `the embedded store in ${dataDir} is open in another process: pid ${pid}${holder ? ` (${holder})` : ''}.\n` +
        'PGlite can be opened by one process at a time; a change made beside that process would not be seen by it, ' +
        'and would be lost when it stops.\n' +
        'Stop that process (the service stops cleanly on Ctrl-C or SIGTERM) and run this command again; ' +
        'or run the service on PostgreSQL (DATABASE_URL), where commands run beside it.\n' +
        `(The lock is ${error.path}: it goes when that process ends, and is taken over if the process is gone.)`,
      { cause: error },
    );
  }
  let sql: Sql;
  try {
    sql = await createPgliteSql({ dataDir: dir });
  } catch (error) {
    await lock.release();
    throw error;
  }
  return {
    ...sql,
    async close() {
      try {
        await sql.close();
      } finally {
        await lock.release();
      }
    },
  };
}

/**
 * What the lock's owner is, for the message another process shows: `ukcd keys revoke`, say. Only
 * the command's words, never its values (a key being revoked, a file, an address).
 */
function describeThisProcess(): string {
  const [, script = '', ...args] = process.argv;
  const program = /^ukcd(\.m?[jt]s)?$/.test(basename(script)) ? 'ukcd' : `node ${basename(script)}`;
  const words = [];
  for (const arg of args.slice(0, 2)) {
    if (!/^[a-z]+$/.test(arg)) break;
    words.push(arg);
  }
  return [program, ...words].join(' ');
}

export function openReadSide(
  config: Pick<Config, 'DATABASE_READ_URL'>,
  opened: OpenedStore,
  options: OpenStoreOptions = {},
): ReadSide {
  if (!config.DATABASE_READ_URL) {
    return {
      sql: opened.sql,
      store: opened.store,
      ownership: opened.ownership,
      officers: opened.officers,
      pdfEstimates: opened.pdfEstimates,
      location: opened.location,
      close: async () => {},
    };
  }
  // No migrations: a standby is read-only and gets the schema from its primary.
  const sql = createPgSql(pgOptions(config.DATABASE_READ_URL, options));
  return {
    sql,
    store: createCompanyStore(sql),
    ownership: createOwnershipReader(sql),
    officers: createOfficerStore(sql),
    pdfEstimates: createPdfEstimateStore(sql),
    location: `${new URL(config.DATABASE_READ_URL).host} (read replica)`,
    close: () => sql.close(),
  };
}

function pgOptions(connectionString: string, options: OpenStoreOptions) {
  return {
    connectionString,
    ...(options.poolSize ? { max: options.poolSize } : {}),
    ...(options.timeoutMs
      ? { statementTimeoutMs: options.timeoutMs, connectionTimeoutMs: Math.min(options.timeoutMs, 5000) }
      : {}),
  };
}
