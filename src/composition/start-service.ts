/**
 * `ukcd start`, built on the composition root (open-store.ts, open-search.ts). Opens the store (real Postgres
 * with DATABASE_URL, else PGlite under DATA_DIR) and the search index (Elasticsearch with
 * ELASTICSEARCH_URL, else the store's own) and the read replica (DATABASE_READ_URL), loads the
 * sample dataset into an empty embedded store, brings the search index up to date, and serves
 * HTTP until SIGTERM/SIGINT, then closes cleanly.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { loadSampleDataset } from '../../loaders/sample-dataset.ts';
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { buildApp, jsonRequestLog, keepConnectionsAlive } from '../app/app.ts';
import { allowedHostsFor } from '../app/host-check.ts';
import type { AllowedHosts } from '../app/host-check.ts';
import { logOutput } from '../app/log-output.ts';
import type { LogOutput } from '../app/log-output.ts';
import { createHttpMetrics } from '../app/metrics.ts';
import type { HttpMetrics } from '../app/metrics.ts';
import { openSearch } from './open-search.ts';
import { openReadSide, openStore, openWebhookStore } from './open-store.ts';
import type { OpenedStore } from './open-store.ts';
import { updateIndexes } from './update-search.ts';
import { createHttpWebhookTransport } from '../adapters/http/webhook-transport.ts';
import { createSessionStore } from '../adapters/postgres/session-store.ts';
import { createStreamLedger } from '../adapters/postgres/stream-ledger.ts';
import { createWebhookSender } from '../webhooks/sender.ts';
import type { Follower } from '../follow/follower.ts';
import { followStreams } from './follow-streams.ts';

/** Starts the service; it runs until SIGTERM or SIGINT. */
export async function startService(): Promise<Server> {
  const config = loadConfig();
  // Neither a reader that has gone nor one that has stopped reading can stop the service.
  const outputs = { stdout: logOutput(process.stdout, { batchBytes: 4096 }), stderr: logOutput(process.stderr) };
  const log = (line: string) => outputs.stderr.write(`${line}\n`);
  const parts = await openServiceParts(config, log);
  // Made here rather than by buildApp: the sender below counts its outcomes in them.
  const metrics = createHttpMetrics({ store: parts.reads.store, webhooks: parts.webhookStore });
  const server = await listen(config, { ...parts, metrics, log, stdout: outputs.stdout });
  log(`serving on ${listeningUrl(server.address() as AddressInfo)} (GET /healthz)`);
  log(hostCheckLine(allowedHostsFor(config.HOST, config.ALLOWED_HOSTS)));
  const sender = startSender(config, parts.webhookStore, metrics);
  log(sender ? 'webhooks: sending' : 'webhooks: not sending here (DELIVER_WEBHOOKS=false)');
  const follower = followStreams(config, parts.opened, { log, observer: metrics.streams });
  log(follower ? `streams: following ${config.CH_STREAM_URL}` : 'streams: not followed (CH_STREAM_KEY is not set)');
  stopOnSignals(config, { server, sender, follower, parts, log, outputs });
  return server;
}

/** What the service runs on: the store, its read side, the search index and the webhook store. */
interface ServiceParts {
  opened: OpenedStore;
  reads: ReturnType<typeof openReadSide>;
  search: Awaited<ReturnType<typeof openSearch>>;
  webhookStore: ReturnType<typeof openWebhookStore>;
}

async function openServiceParts(config: Config, log: (line: string) => void): Promise<ServiceParts> {
  // On a real PostgreSQL the migrations run once, in prepare(), on a pool without the statement
  // timeout: building an index on a large table may take longer than any request may.
  const opened = await openStore(config, {
    timeoutMs: config.DATABASE_TIMEOUT_MS,
    poolSize: config.DATABASE_POOL_SIZE,
    migrate: !config.DATABASE_URL,
  });
  log(`store: ${opened.location}`);
  await prepare(config, opened, log);
  const reads = openReadSide(config, opened, {
    timeoutMs: config.DATABASE_TIMEOUT_MS,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  if (config.DATABASE_READ_URL) log(`reads: ${reads.location}`);
  const search = await openSearch(config, reads.sql, {
    timeoutMs: config.SEARCH_TIMEOUT_MS,
    whenUnavailable: () => log('search: Elasticsearch is not answering; searches answer 503 until it does'),
  });
  log(`search: ${search.location}`);
  return { opened, reads, search, webhookStore: openWebhookStore(config, opened.sql) };
}

/** The app on the service's ports, listening on HOST:PORT once this resolves. */
async function listen(
  config: Config,
  {
    opened,
    reads,
    search,
    webhookStore,
    metrics,
    log,
    stdout,
  }: ServiceParts & { metrics: HttpMetrics; log: (line: string) => void; stdout: LogOutput },
): Promise<Server> {
  const server = buildApp({
    store: reads.store,
    ...(config.DATABASE_READ_URL ? { primary: opened.store } : {}),
    search: search.index,
    ownership: reads.ownership,
    officers: reads.officers,
    // Read where the operations read: a replica's as_of says how far the replica has got.
    streams: createStreamLedger(reads.sql),
    pdfEstimates: reads.pdfEstimates,
    people: search.people,
    keys: opened.keys,
    watchlists: opened.watchlists,
    webhooks: { store: webhookStore, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
    log,
    trustProxy: config.TRUST_PROXY,
    metrics,
    web: {
      enabled: config.WEB_UI,
      csvMaxRows: config.WEB_CSV_MAX_ROWS,
      anonPerMinute: config.WEB_ANON_RATE_PER_MINUTE,
      signedInPerMinute: config.WEB_SIGNED_IN_RATE_PER_MINUTE,
      sessionTtlMinutes: config.WEB_SESSION_TTL_MINUTES,
    },
    sessions: createSessionStore(opened.sql),
    allowedHosts: allowedHostsFor(config.HOST, config.ALLOWED_HOSTS),
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    ...(config.LOG_REQUESTS ? { requestLog: jsonRequestLog(stdout) } : {}),
  }).listen(config.PORT, config.HOST);
  await new Promise<void>((ready, fail) => {
    server.once('listening', ready);
    server.once('error', fail);
  });
  return keepConnectionsAlive(server);
}

/** What the start-up log says of the DNS rebinding check of /mcp and the form posts. */
function hostCheckLine(allowed: AllowedHosts): string {
  return allowed === 'any'
    ? 'hosts: /mcp and form posts accept any Host and Origin (set ALLOWED_HOSTS to the names this service is reached by)'
    : `hosts: /mcp and form posts accept Host and Origin ${allowed.join(', ')} (ALLOWED_HOSTS)`;
}

/** The webhook sender, started; null where this process does not send (DELIVER_WEBHOOKS=false). */
function startSender(config: Config, store: ServiceParts['webhookStore'], metrics: HttpMetrics) {
  if (!config.DELIVER_WEBHOOKS) return null;
  const sender = createWebhookSender({
    store,
    transport: createHttpWebhookTransport(),
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    ...(config.WEBHOOK_LEASE_MS ? { leaseMs: config.WEBHOOK_LEASE_MS } : {}),
    onOutcome: (status) => metrics.webhookOutcome(status),
  });
  sender.start();
  return sender;
}

/** How long closing the stores may take once the requests are done, before the process exits anyway. */
const CLOSE_MS = 30_000;
/** How long the last log lines get to reach their reader. */
const LOG_FLUSH_MS = 1_000;

/**
 * Graceful: stop accepting, let requests in flight finish (for at most SHUTDOWN_GRACE_MS), then
 * close the pools. Idle keep-alive connections are closed at once, the rest when their answer is out.
 * The process always ends: exit 0 when every request finished and everything closed; exit 1 when
 * requests were cut at the end of the grace period, something failed to close, or closing took
 * longer than CLOSE_MS. The embedded store's lock goes with the store, or at exit.
 */
function stopOnSignals(
  config: Config,
  running: {
    server: Server;
    sender: ReturnType<typeof startSender>;
    follower: Follower | null;
    parts: ServiceParts;
    log: (line: string) => void;
    outputs: { stdout: LogOutput; stderr: LogOutput };
  },
): void {
  const { server, sender, follower, parts, log, outputs } = running;
  let closing = false;
  let ended = false;
  const end = async (code: number, line: string) => {
    if (ended) return;
    ended = true;
    log(line);
    // The last lines get a moment to reach a reader that is there; none is waited for longer.
    await Promise.all([outputs.stdout.close(LOG_FLUSH_MS), outputs.stderr.close(LOG_FLUSH_MS)]);
    process.exit(code);
  };
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal}: shutting down; requests in flight have ${config.SHUTDOWN_GRACE_MS} ms to finish`);
    let cut = false;
    const deadline = setTimeout(() => {
      cut = true;
      log('shutdown: grace period over, closing the connections left');
      server.closeAllConnections();
    }, config.SHUTDOWN_GRACE_MS);
    deadline.unref();
    setTimeout(
      () => void end(1, `shutdown: closing did not finish within ${CLOSE_MS} ms of the grace period; exiting (exit 1)`),
      config.SHUTDOWN_GRACE_MS + CLOSE_MS,
    ).unref();
    // The sender stops claiming now; the attempts under way record their outcomes before the pools close.
    // So does the follower: the batch under way commits (with its position) or rolls back.
    const senderStopped = Promise.all([sender?.stop(), follower?.stop()]);
    server.close(() => {
      clearTimeout(deadline);
      void senderStopped
        .then(() => Promise.allSettled([parts.search.close(), parts.reads.close(), parts.opened.sql.close()]))
        .then((closed) => {
          const failures = closed.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
          for (const failure of failures) log(`shutdown: closing failed: ${describe(failure)}`);
          const clean = !cut && failures.length === 0;
          return end(
            clean ? 0 : 1,
            clean
              ? 'shut down'
              : `shut down, ${cut ? 'requests cut at the end of the grace period' : 'not cleanly'} (exit 1)`,
          );
        });
    });
    // Connections idle now close at once; those answering a request close as soon as their
    // answer is out, rather than after the long keep-alive (keepConnectionsAlive).
    server.keepAliveTimeout = 1;
    server.closeIdleConnections();
  };
  // `on`, not `once`: a second signal (a terminal's Ctrl-C reaching both npm's relay and us) must
  // find the handler still there, or Node's default would end the process mid-shutdown.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The address the server really listens on, as a URL: `http://127.0.0.1:3000`, `http://0.0.0.0:3000`
 * for every interface, `http://[::1]:3000` for IPv6.
 */
export function listeningUrl(address: Pick<AddressInfo, 'address' | 'port'>): string {
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Start-up work, which the service's bounds on waiting must not cut short: the sample dataset
 * into an empty embedded store, and bringing the search index up to date (loads keep it current;
 * this catches up on anything loaded with --no-index, or builds it the first time). On a real
 * PostgreSQL it runs on a pool of its own without the statement timeout, and migrates first.
 */
async function prepare(config: Config, embedded: OpenedStore, log: (line: string) => void) {
  const own = config.DATABASE_URL ? await openStore(config) : null;
  const ports = own ?? embedded;
  const { sql, store, pscs, pdfEstimates } = ports;
  try {
    if (!config.DATABASE_URL && (await store.counts()).companies === 0) {
      const sample = await loadSampleDataset({ store, pscs, pdfEstimates }, { dataDir: resolve(config.DATA_DIR), log });
      log(
        `sample dataset loaded: ${sample.companies} companies, ${sample.filings} filings, ${sample.pscs} PSCs and statements, ${sample.pdfEstimates} estimates from paper accounts (snapshot ${sample.snapshotDate})`,
      );
    }
    let reachable = true;
    const search = await openSearch(config, sql, { whenUnavailable: () => (reachable = false) });
    try {
      if (reachable) {
        await updateIndexes(ports, search, { log });
      } else log('search: not brought up to date at start (Elasticsearch is not answering); run `ukcd index` later');
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'UPSTREAM_UNAVAILABLE')) throw error;
      log(`search: not brought up to date at start (${error.message}); run \`ukcd index\` later`);
    } finally {
      await search.close();
    }
  } finally {
    await own?.sql.close();
  }
}
