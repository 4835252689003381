/**
 * The composition root: the only module that knows every adapter. Opens the store (real Postgres
 * with DATABASE_URL, else PGlite under DATA_DIR) and the search index (Elasticsearch with
 * ELASTICSEARCH_URL, else the store's own), loads the sample dataset into an empty embedded
 * store, brings the search index up to date, and serves HTTP until SIGTERM/SIGINT, then closes
 * cleanly.
 */
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { indexSearch } from '../loaders/index-search.ts';
import { loadSampleDataset } from '../loaders/sample-dataset.ts';
import { loadConfig } from './config.ts';
import { buildApp, jsonRequestLog } from './http/app.ts';
import { openSearch } from './open-search.ts';
import { openStore } from './open-store.ts';

export async function main(): Promise<Server> {
  const config = loadConfig();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const { sql, store, keys, watchlists, location } = await openStore(config);
  log(`store: ${location}`);
  if (!config.DATABASE_URL && (await store.counts()).companies === 0) {
    const sample = await loadSampleDataset(store, { dataDir: resolve(config.DATA_DIR), log });
    log(
      `sample dataset loaded: ${sample.companies} companies, ${sample.filings} filings (snapshot ${sample.snapshotDate})`,
    );
  }
  const search = await openSearch(config, sql);
  log(`search: ${search.location}`);
  // Loads keep the index current; this catches up on anything loaded with --no-index, or builds
  // the index the first time.
  await indexSearch(store, search, { log });
  const server = buildApp({
    store,
    search: search.index,
    keys,
    watchlists,
    log,
    trustProxy: config.TRUST_PROXY,
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    ...(config.LOG_REQUESTS ? { requestLog: jsonRequestLog() } : {}),
  }).listen(config.PORT);
  await new Promise<void>((ready) => server.once('listening', ready));
  log(`serving on http://localhost:${config.PORT} (GET /healthz)`);

  const shutdown = () => {
    log('shutting down');
    server.close(() => void Promise.all([search.close(), sql.close()]).then(() => process.exit(0)));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return server;
}
