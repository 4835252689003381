/**
 * The service bench/psc drives, in its own process: the app of `ukcd start` (src/composition/start-service.ts) with its
 * configuration (DATABASE_URL, ELASTICSEARCH_URL, ELASTICSEARCH_PEOPLE_INDEX, pool and timeouts),
 * without the start-up indexing: bringing the companies index of a 5.6-million-company register up
 * to date is not what is measured, and the people index is built by the index-people stages.
 * Prints "serving on URL" on stderr when listening.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.ts';
import { buildApp, jsonRequestLog } from '../src/app/app.ts';
import { openSearch } from '../src/composition/open-search.ts';
import { openStore, openWebhookStore } from '../src/composition/open-store.ts';
import { createStreamLedger } from '../src/adapters/postgres/stream-ledger.ts';

const config = loadConfig();
const log = (line: string) => process.stderr.write(`${line}\n`);
const { sql, store, keys, watchlists, ownership, officers, pdfEstimates } = await openStore(config, {
  timeoutMs: config.DATABASE_TIMEOUT_MS,
  poolSize: config.DATABASE_POOL_SIZE,
  migrate: false,
});
const search = await openSearch(config, sql, { timeoutMs: config.SEARCH_TIMEOUT_MS });
const server = buildApp({
  store,
  search: search.index,
  ownership,
  officers,
  pdfEstimates,
  people: search.people,
  streams: createStreamLedger(sql),
  keys,
  watchlists,
  webhooks: { store: openWebhookStore(config, sql), allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
  log,
  // As `ukcd start`: the request log on stdout (which bench/psc discards, as a log shipper takes it).
  ...(config.LOG_REQUESTS ? { requestLog: jsonRequestLog() } : {}),
}).listen(0, '127.0.0.1', () => log(`serving on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.close();
  setTimeout(() => void Promise.allSettled([search.close(), sql.close()]).then(() => process.exit(0)), 2000);
});
