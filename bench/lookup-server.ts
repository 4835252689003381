/**
 * The service bench/lookup drives, in its own process: the same app as `npm start`
 * (src/app/app.ts) on the given PostgreSQL database, without the start-up indexing, which
 * lookups do not need. It prints its port on stderr when listening.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createCompanyStore } from '../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../src/adapters/postgres/key-store.ts';
import { createPgSearchIndex } from '../src/adapters/pg-search/pg-search-index.ts';
import { createOfficerStore } from '../src/adapters/postgres/officer-store.ts';
import { createPdfEstimateStore } from '../src/adapters/postgres/pdf-estimate-store.ts';
import { createOwnershipReader } from '../src/adapters/postgres/ownership-reader.ts';
import { createPgPeopleIndex } from '../src/adapters/pg-search/pg-people-index.ts';
import { createWatchlistStore } from '../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../src/adapters/postgres/webhook-store.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { buildApp, jsonRequestLog } from '../src/app/app.ts';
import { createSecretSealer } from '../src/webhooks/secret-sealer.ts';
import { createStreamLedger } from '../src/adapters/postgres/stream-ledger.ts';

const url = process.argv[2];
if (!url) throw new Error('usage: lookup-server.ts DATABASE_URL [pool size]');
// The service's bounds (DATABASE_TIMEOUT_MS default), so that the pool behaves as in production.
const sql = createPgSql({
  connectionString: url,
  max: Number(process.argv[3] ?? 10),
  statementTimeoutMs: 10_000,
  connectionTimeoutMs: 5_000,
});
const app = buildApp({
  store: createCompanyStore(sql),
  search: createPgSearchIndex(sql),
  keys: createKeyStore(sql),
  watchlists: createWatchlistStore(sql),
  ownership: createOwnershipReader(sql),
  officers: createOfficerStore(sql),
  pdfEstimates: createPdfEstimateStore(sql),
  people: createPgPeopleIndex(sql),
  streams: createStreamLedger(sql),
  // Served as by any deployment; the benchmark calls no webhook operation.
  webhooks: { store: createWebhookStore(sql, createSecretSealer(randomBytes(32))), allowPrivate: false },
  log: (line) => process.stderr.write(`${line}\n`),
  // As `npm start` by default: the request log on stdout (LOG_REQUESTS=false turns it off).
  ...(process.env.LOG_REQUESTS === 'false' ? {} : { requestLog: jsonRequestLog() }),
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stderr.write(`port ${(server.address() as AddressInfo).port}\n`);
});
// The load generator may leave requests in flight when it stops: let them finish before closing.
process.on('SIGTERM', () => {
  server.close();
  setTimeout(() => void sql.close().then(() => process.exit(0)), 2000);
});
