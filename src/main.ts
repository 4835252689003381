/**
 * The composition root: the only module that knows every adapter. Opens the store (real Postgres
 * with DATABASE_URL, else PGlite under DATA_DIR), loads the sample dataset into an empty embedded
 * store, and serves HTTP until SIGTERM/SIGINT, then closes cleanly.
 */
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { loadSampleDataset } from '../loaders/sample-dataset.ts';
import { loadConfig } from './config.ts';
import { buildApp } from './http/app.ts';
import { openStore } from './open-store.ts';

export async function main(): Promise<Server> {
  const config = loadConfig();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const { sql, store, location } = await openStore(config);
  log(`store: ${location}`);
  if (!config.DATABASE_URL && (await store.counts()).companies === 0) {
    const sample = await loadSampleDataset(store, { dataDir: resolve(config.DATA_DIR), log });
    log(
      `sample dataset loaded: ${sample.companies} companies, ${sample.filings} filings (snapshot ${sample.snapshotDate})`,
    );
  }
  const server = buildApp({ store }).listen(config.PORT);
  await new Promise<void>((ready) => server.once('listening', ready));
  log(`serving on http://localhost:${config.PORT} (GET /healthz)`);

  const shutdown = () => {
    log('shutting down');
    server.close(() => void sql.close().then(() => process.exit(0)));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return server;
}
