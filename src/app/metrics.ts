/**
 * The HTTP app's metrics, served in the Prometheus text format on GET /metrics: requests and their
 * latency by operation and status, quota and free-key refusals, the process's own (memory, event
 * loop, garbage collection), the loads the journal in the store reports — loaders run as
 * separate processes, so the journal is where the API learns how far they are — and webhook
 * delivery: the outcomes this process's sender recorded, and the outbox as the store sees it.
 *
 * Each app has its own registry, so several apps in one process (the tests) never share counts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallMetrics } from '../call/metrics.ts';
import { AppError } from '../errors.ts';
import type { LoadJournal } from '../ports/load-journal.ts';
import type { LoadProgress } from '../domain/loads.ts';
import type { DeliveryOutcome, WebhookStore } from '../ports/webhooks.ts';
import { bearerToken } from '../call/access.ts';
import type { FollowObserver } from '../follow/follow-stream.ts';
import type { IndexTickerState } from '../follow/index-ticker.ts';

/** Seconds, from 1 ms (a lookup) to 10 s (a slow aggregate); anything slower lands in +Inf. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * How long a scrape waits for the load journal (or the webhook outbox) before answering without it
 * (ukcd_store_up 0, ukcd_webhook_queue_up 0).
 */
export const STORE_TIMEOUT_MS = 1000;

/** The `outcome` label of ukcd_webhook_deliveries_total, one per way an attempt ends. */
const WEBHOOK_OUTCOMES = {
  delivered: 'delivered',
  retry: 'retry',
  failed: 'failed',
  'disable-endpoint': 'disabled',
} as const satisfies Record<DeliveryOutcome['status'], string>;

/** The app's metrics: the call pipeline's counters (CallMetrics) and the app's own. */
export interface HttpMetrics extends CallMetrics {
  readonly registry: Registry;
  /** Koa middleware: counts and times every request. Outermost, so it sees the final status. */
  middleware(ctx: Context, next: Next): Promise<void>;
  freeKeyRefused(): void;
  /** Counts an attempt's recorded outcome: the webhook sender's onOutcome. */
  webhookOutcome(status: DeliveryOutcome['status']): void;
  /** What the stream follower in this process reports (`ukcd start` with CH_STREAM_KEY). */
  readonly streams: FollowObserver;
}

export interface HttpMetricsOptions {
  /** Where the load journal is read at each scrape. */
  store: Pick<LoadJournal, 'loadProgress'>;
  /** Where the webhook outbox's figures are read at each scrape; without it, no queue gauges. */
  webhooks?: Pick<WebhookStore, 'queueStats'>;
  storeTimeoutMs?: number;
}

/**
 * The `operation` label of a request: the operation or MCP tool it ran, else the name its route was
 * registered under, else what it was without a route. Never the path: a label's values must stay
 * few, and paths are whatever clients send.
 */
export function operationLabel(request: {
  method: string;
  operation: unknown;
  routeName: unknown;
  routeMatched: unknown;
}): string {
  if (typeof request.operation === 'string') return request.operation;
  if (typeof request.routeName === 'string') return request.routeName;
  if (request.routeMatched === true) return 'other';
  // CORS preflights are answered before routing; everything else unrouted is a 404, a 405, or a
  // body refused for its size before anything looked at the path.
  return request.method === 'OPTIONS' ? 'preflight' : 'unmatched';
}

/** The `operation` label of an answered request (the metrics and the request log agree on it). */
export function requestOperation(ctx: Context): string {
  const router = ctx as Context & { routerName?: unknown; routeMatched?: unknown };
  return operationLabel({
    method: ctx.method,
    operation: ctx.state.operation,
    routeName: router.routerName,
    routeMatched: router.routeMatched,
  });
}

export function createHttpMetrics(options: HttpMetricsOptions): HttpMetrics {
  const registry = new Registry();
  // Unprefixed (process_*, nodejs_*), as the usual Node.js dashboards expect; once per registry.
  collectDefaultMetrics({ register: registry });
  const middleware = requestMetrics(registry);
  const quotaRefusals = new Counter({
    name: 'ukcd_quota_refusals_total',
    help: 'Calls refused because the key used up its monthly quota, by plan and channel (rest or mcp).',
    labelNames: ['plan', 'channel'] as const,
    registers: [registry],
  });
  const freeKeysRefused = new Counter({
    name: 'ukcd_free_keys_refused_total',
    help: 'Free keys refused because the client address had its hourly allowance.',
    registers: [registry],
  });
  const deliveries = deliveryCounter(registry);
  const timeoutMs = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
  addLoadGauges(registry, options.store, timeoutMs);
  if (options.webhooks) addWebhookQueueGauges(registry, options.webhooks, timeoutMs);

  return {
    registry,
    middleware,
    quotaRefused(plan, channel) {
      quotaRefusals.inc({ plan, channel });
    },
    freeKeyRefused() {
      freeKeysRefused.inc();
    },
    webhookOutcome(status) {
      deliveries.inc({ outcome: WEBHOOK_OUTCOMES[status] });
    },
    streams: streamMetrics(registry),
  };
}

/** The requests and their latency, by operation and status: the middleware that counts and times them. */
function requestMetrics(registry: Registry): HttpMetrics['middleware'] {
  const requests = new Counter({
    name: 'ukcd_http_requests_total',
    help: 'HTTP requests answered, by operation (or route) and status.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'ukcd_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by operation (or route) and status.',
    labelNames: ['operation', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // One child per label pair, made once: a request then costs a map lookup, an inc and an observe.
  const children = new Map<string, { inc(): void; observe(seconds: number): void }>();
  const childFor = (operation: string, status: number) => {
    const key = `${operation} ${status}`;
    let child = children.get(key);
    if (!child) {
      const labels = { operation, status: String(status) };
      const counter = requests.labels(labels);
      const histogram = duration.labels(labels);
      child = { inc: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
      children.set(key, child);
    }
    return child;
  };
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const child = childFor(requestOperation(ctx), ctx.status);
      child.inc();
      child.observe((performance.now() - started) / 1000);
    }
  };
}

/** The follower's progress: events applied, lag behind published_at, reconnections, gaps, documents. */
function streamMetrics(registry: Registry): FollowObserver {
  const applied = new Counter({
    name: 'ukcd_stream_events_applied_total',
    help: 'Events of the Companies House streams this process applied, by stream.',
    labelNames: ['stream'] as const,
    registers: [registry],
  });
  const lag = new Gauge({
    name: 'ukcd_stream_lag_seconds',
    help: "How far the last batch applied was behind Companies House: now less its last event's published_at.",
    labelNames: ['stream'] as const,
    registers: [registry],
  });
  const timepoint = new Gauge({
    name: 'ukcd_stream_timepoint',
    help: 'The timepoint of the last event applied, by stream (where a restart resumes).',
    labelNames: ['stream'] as const,
    registers: [registry],
  });
  const reconnects = new Counter({
    name: 'ukcd_stream_reconnects_total',
    help: 'Reconnections to a stream, by stream and reason (drop, stall, rate-limited, refused).',
    labelNames: ['stream', 'reason'] as const,
    registers: [registry],
  });
  const gaps = new Counter({
    name: 'ukcd_stream_gaps_total',
    help:
      'Times a stream could not resume (416) and was read again from now: the events in between are caught up ' +
      'through the REST API for the watched companies (with CH_API_KEY) and by the next snapshot load; ' +
      'stream_gaps in the store says from which timepoint and how far the catch-up is.',
    labelNames: ['stream'] as const,
    registers: [registry],
  });
  const badLines = new Counter({
    name: 'ukcd_stream_bad_lines_total',
    help: 'Lines of a stream that were not events, skipped (stream_bad_lines in the store keeps them), by stream.',
    labelNames: ['stream'] as const,
    registers: [registry],
  });
  const documents = new Counter({
    name: 'ukcd_stream_documents_total',
    help: 'Accounts documents of the filings stream, by outcome (loaded, pdf_only, already_loaded, failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // The index ticker's last state: read at each scrape, so that the lag grows while changes wait.
  let index: IndexTickerState | null = null;
  new Gauge({
    name: 'ukcd_stream_index_updated_timestamp_seconds',
    help: 'When the search indexes were last brought up to date with the changes the streams applied (Unix time).',
    registers: [registry],
    collect() {
      if (index?.updatedAt != null) this.set(index.updatedAt / 1000);
    },
  });
  new Gauge({
    name: 'ukcd_stream_index_lag_seconds',
    help:
      'How long the oldest change applied from the streams has waited for the search indexes (0 when none waits); ' +
      'they are brought up to date at most every UKCD_STREAM_INDEX_SECONDS.',
    registers: [registry],
    collect() {
      this.set(index?.pendingSince != null ? Math.max(0, (Date.now() - index.pendingSince) / 1000) : 0);
    },
  });
  const indexFailures = new Counter({
    name: 'ukcd_stream_index_failures_total',
    help: 'Runs bringing the search indexes up to date after stream changes that failed (tried again at the next tick).',
    registers: [registry],
  });
  return {
    applied(stream, batch) {
      applied.labels({ stream }).inc(batch.events);
      timepoint.labels({ stream }).set(batch.timepoint);
      const published = Date.parse(
        /Z$|[+-]\d\d:\d\d$/.test(batch.publishedAt) ? batch.publishedAt : `${batch.publishedAt}Z`,
      );
      if (Number.isFinite(published)) lag.labels({ stream }).set(Math.max(0, (Date.now() - published) / 1000));
    },
    reconnected: (stream, reason) => reconnects.labels({ stream, reason }).inc(),
    gap: (stream) => gaps.labels({ stream }).inc(),
    badLine: (stream) => badLines.labels({ stream }).inc(),
    document: (outcome) => documents.labels({ outcome }).inc(),
    indexState: (state) => {
      index = state;
    },
    indexFailed: () => indexFailures.inc(),
  };
}

/** The webhook sender's recorded outcomes, every one from the start at 0 so that rate() sees the first. */
function deliveryCounter(registry: Registry): Counter<'outcome'> {
  const deliveries = new Counter({
    name: 'ukcd_webhook_deliveries_total',
    help:
      "Webhook attempts this process's sender made and recorded, by outcome: delivered (2xx), retry (to be tried " +
      'again), failed (given up), disabled (the endpoint disabled: 410 Gone or three days failing).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of Object.values(WEBHOOK_OUTCOMES)) deliveries.labels({ outcome }).inc(0);
  return deliveries;
}

/**
 * A reading from the store shared by the gauges that show it. Every gauge's collect() awaits the
 * same reading (prom-client collects all metrics of a scrape at once), and at most one query is
 * in flight: a store that hangs costs each scrape `timeoutMs`, never a pile of waiting queries.
 * `apply` gets the value, or null when there was none in time.
 */
function sharedReading<T>(
  read: () => Promise<T>,
  timeoutMs: number,
  apply: (value: T | null) => void,
): () => Promise<void> {
  let query: Promise<T> | null = null;
  let reading: Promise<void> | null = null;
  return () => {
    reading ??= within(timeoutMs, (query ??= read().finally(() => (query = null))))
      .then(apply, () => apply(null))
      .finally(() => (reading = null));
    return reading;
  };
}

/** Gauges read from the load journal when scraped (one shared, bounded reading a scrape). */
function addLoadGauges(registry: Registry, store: Pick<LoadJournal, 'loadProgress'>, timeoutMs: number): void {
  const refresh = sharedReading(
    () => store.loadProgress(),
    timeoutMs,
    (progress) => showLoads(gauges, progress),
  );
  const gauges = loadGauges(
    (name, help, labelNames) => new Gauge({ name, help, labelNames, registers: [registry], collect: refresh }),
  );
}

type MakeGauge = (name: string, help: string, labelNames: readonly string[]) => Gauge;

/** The load journal's gauges: whether it was read, the running loads, the newest finished of each kind. */
function loadGauges(gauge: MakeGauge) {
  const running = ['kind', 'source'];
  const finished = ['kind', 'status'];
  return {
    up: gauge('ukcd_store_up', 'Whether this scrape read the load journal from the store in time (1) or not (0).', []),
    running: gauge('ukcd_load_running', 'Loads the journal says are running (always 1).', running),
    started: gauge('ukcd_load_started_timestamp_seconds', 'When each running load started (Unix time).', running),
    rowsRead: gauge(
      'ukcd_load_rows_read',
      'Rows (register) or filings (accounts) a running load has read so far.',
      running,
    ),
    rowsWritten: gauge('ukcd_load_rows_written', 'Rows or filings a running load has written so far.', running),
    rowsRejected: gauge('ukcd_load_rows_rejected', 'Rows or filings a running load has rejected so far.', running),
    lastFinished: gauge(
      'ukcd_load_last_finished_timestamp_seconds',
      'When the newest load of each kind that ended with each status (done, failed, interrupted) ended (Unix time).',
      finished,
    ),
    lastWritten: gauge(
      'ukcd_load_last_rows_written',
      'Rows or filings written by the newest load of each kind that ended with each status.',
      finished,
    ),
    lastRejected: gauge(
      'ukcd_load_last_rows_rejected',
      'Rows or filings rejected by the newest load of each kind that ended with each status.',
      finished,
    ),
    lastPartial: gauge(
      'ukcd_load_last_partial',
      'Whether the newest snapshot load of each kind that ended with each status was taken as partial (1: nothing was marked as no longer listed; the reason label says why) or complete (0).',
      [...finished, 'reason'],
    ),
  };
}

/** A reading of the load journal on its gauges; none (null) leaves only ukcd_store_up, at 0. */
function showLoads({ up, ...fromStore }: ReturnType<typeof loadGauges>, progress: LoadProgress | null): void {
  // Nothing stale: without a reading, the loads are absent and ukcd_store_up says why.
  for (const metric of Object.values(fromStore)) metric.reset();
  up.set(progress ? 1 : 0);
  if (!progress) return;
  const seconds = (iso: string) => Date.parse(iso) / 1000;
  for (const load of progress.running) {
    const labels = { kind: load.kind, source: load.source };
    fromStore.running.set(labels, 1);
    fromStore.started.set(labels, seconds(load.started_at));
    fromStore.rowsRead.set(labels, load.rows_read);
    fromStore.rowsWritten.set(labels, load.rows_written);
    fromStore.rowsRejected.set(labels, load.rows_rejected);
  }
  for (const load of progress.lastFinished) {
    const labels = { kind: load.kind, status: load.status };
    fromStore.lastFinished.set(labels, seconds(load.finished_at));
    fromStore.lastWritten.set(labels, load.rows_written);
    fromStore.lastRejected.set(labels, load.rows_rejected);
    if (load.kind !== 'accounts' && load.status === 'done') {
      fromStore.lastPartial.set({ ...labels, reason: load.partial_because ?? '' }, load.partial_because ? 1 : 0);
    }
  }
}

/**
 * Gauges of the webhook outbox, read from the store when scraped (one shared, bounded reading a
 * scrape). They describe the database, so every instance on it shows the same figures.
 */
function addWebhookQueueGauges(registry: Registry, store: Pick<WebhookStore, 'queueStats'>, timeoutMs: number): void {
  const refresh = sharedReading(() => store.queueStats(), timeoutMs, apply);
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers: [registry], collect: refresh });
  const up = gauge(
    'ukcd_webhook_queue_up',
    'Whether this scrape read the webhook outbox from the store in time (1) or not (0).',
  );
  const pending = gauge(
    'ukcd_webhook_deliveries_pending',
    'Webhook deliveries pending (due now, being sent, or waiting for a retry): the depth of the outbox.',
  );
  const oldestAge = gauge(
    'ukcd_webhook_oldest_pending_age_seconds',
    'How long the oldest pending webhook delivery has been in the outbox; 0 when none is pending.',
  );
  const disabled = gauge(
    'ukcd_webhook_endpoints_disabled',
    'Webhook endpoints disabled (410 Gone, or every attempt failing for three days).',
  );
  function apply(stats: Awaited<ReturnType<WebhookStore['queueStats']>> | null): void {
    up.set(stats ? 1 : 0);
    // Unknown is NaN, not 0: an outbox that could not be read must not look empty.
    pending.set(stats ? stats.pending : NaN);
    oldestAge.set(stats ? (stats.oldest_pending_age_ms ?? 0) / 1000 : NaN);
    disabled.set(stats ? stats.disabled_endpoints : NaN);
  }
}

/** The promise's value, or a rejection once `ms` have passed without one. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /metrics. With a token, only `Authorization: Bearer <token>` may read it (compared in
 * constant time); without one it is open, for a scraper on a private network.
 */
export function metricsEndpoint(metrics: HttpMetrics, token: string | undefined) {
  const expected = token === undefined ? null : digest(token);
  return async (ctx: Context): Promise<void> => {
    if (expected) {
      const presented = bearerToken(ctx.get('authorization'));
      if (presented === null || !timingSafeEqual(digest(presented), expected))
        throw new AppError('UNAUTHORIZED', 'Send Authorization: Bearer <METRICS_TOKEN> to read the metrics.');
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
