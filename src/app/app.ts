/**
 * The application: built from its dependencies, not listening, so tests and main.ts share it. It
 * wires the three peers that mount the call pipeline (src/call) — the REST routes (src/http), the
 * MCP endpoint (src/mcp) and the web pages (src/web) — with what every request gets: timing,
 * metrics, the request log, errors answered in one place, CORS and the body limits.
 */
import type { Server } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import type { Middleware } from 'koa';
import { pino } from 'pino';
import { cachedAsOf } from '../call/as-of.ts';
import type { CallDeps } from '../call/deps.ts';
import { BODY_LIMIT_BYTES } from '../call/input.ts';
import { addApiReference } from '../http/api-reference.ts';
import { bodyLimit, errorMiddleware } from '../http/errors.ts';
import { issueFreeKey } from '../http/free-keys.ts';
import { openApiDocument } from '../http/openapi.ts';
import { addOperationRoutes } from '../http/routes.ts';
import { addMcpRoute } from '../mcp/route.ts';
import { OPERATIONS } from '../operations/index.ts';
import type { CompanyReader } from '../ports/companies.ts';
import type { Health } from '../ports/health.ts';
import type { LoadJournal } from '../ports/load-journal.ts';
import type { SessionStore } from '../ports/sessions.ts';
import type { StreamLedger } from '../ports/stream-ledger.ts';
import type { WebSettings } from '../web/settings.ts';
import { DEFAULT_WEB_SETTINGS } from '../web/settings.ts';
import { webRoutes } from '../web/web-routes.ts';
import { compress } from './compress.ts';
import { cors } from './cors.ts';
import { hostCheck, LOOPBACK_NAMES } from './host-check.ts';
import type { AllowedHosts } from './host-check.ts';
import { logOutput } from './log-output.ts';
import type { LogOutput } from './log-output.ts';
import { addHealthRoutes } from './health.ts';
import { createHttpMetrics, metricsEndpoint } from './metrics.ts';
import type { HttpMetrics } from './metrics.ts';
import { requestLog } from './request-log.ts';
import type { RequestLogEntry } from './request-log.ts';
import { serverTiming } from './server-timing.ts';
import { unmatchedRequests } from './unmatched-requests.ts';

export interface AppDeps extends Omit<CallDeps, 'clock' | 'metrics' | 'log' | 'asOf'> {
  /** The store the operations read (a read replica, when there is one); its journal says how far the loads reach. */
  store: CompanyReader & Pick<LoadJournal, 'loadProgress' | 'loadedThrough'> & Health;
  /** Where the streams' positions are kept: how recent the newest event applied is (every answer's `as_of`). */
  streams: Pick<StreamLedger, 'newest'>;
  /** The primary, when `store` is a replica: keys, quotas and watchlists live there. */
  primary?: Health;
  clock?: () => Date;
  log?: (line: string) => void;
  /** Where each request's log entry goes (none by default; see jsonRequestLog). */
  requestLog?: (entry: RequestLogEntry) => void;
  /** Trust X-Forwarded-For for the client address (behind a reverse proxy). */
  trustProxy?: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /**
   * The metrics to serve, when the caller needs them too (main.ts counts the webhook sender's
   * outcomes in them); by default the app makes its own, reading the stores it is given.
   */
  metrics?: HttpMetrics;
  /** The web pages for people (src/web): on unless `enabled: false` (WEB_UI=false). */
  web?: Partial<WebSettings>;
  /** Signed-in web sessions (src/web/sessions.ts); absent, the pages have no sign-in. */
  sessions?: SessionStore;
  /**
   * The host names /mcp and the web pages' form posts accept in Host and Origin (host-check.ts);
   * the loopback names by default, as the service binds 127.0.0.1 unless told otherwise.
   */
  allowedHosts?: AllowedHosts;
}

export function buildApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: deps.trustProxy ?? false });
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const metrics = deps.metrics ?? createHttpMetrics({ store: deps.store, webhooks: deps.webhooks.store });
  const clock = deps.clock ?? (() => new Date());
  const asOf = cachedAsOf({ journal: deps.store, streams: deps.streams }, clock);
  const callDeps: CallDeps = { ...deps, clock, metrics, log, asOf };
  // Koa's own error log would repeat what the error middleware already logged.
  app.silent = true;

  // First, so that its time covers everything the app does for the request.
  app.use(serverTiming);
  app.use(metrics.middleware);
  if (deps.requestLog) app.use(requestLog(deps.requestLog));
  app.use(errorMiddleware(log));
  // Inside the error middleware: the API's error bodies are small and left as they are.
  app.use(compress);
  app.use(cors);
  // After CORS, so that a browser can read the refusal; before anything reads the body.
  app.use(hostCheck(deps.allowedHosts ?? LOOPBACK_NAMES));
  app.use(bodyLimit);
  // The pages, before the API's JSON parser: their forms post urlencoded bodies, parsed there.
  const web = { ...DEFAULT_WEB_SETTINGS, ...deps.web };
  if (web.enabled) app.use(webRoutes({ ...callDeps, sessions: deps.sessions }, web));
  app.use(jsonBodies());
  app.use(unmatchedRequests);
  const router = apiRouter(deps, callDeps, metrics);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** The API's routes: health, the document, free keys, metrics, then REST and MCP from the table. */
function apiRouter(deps: AppDeps, callDeps: CallDeps, metrics: HttpMetrics): Router {
  const router = new Router();
  const document = openApiDocument(OPERATIONS);
  // Route names are the `operation` label of their requests in the metrics.
  addHealthRoutes(router, deps);
  router.get('openapi', '/openapi.json', (ctx) => {
    ctx.body = document;
  });
  addApiReference(router);
  router.post('free_key', '/v1/keys/free', (ctx) =>
    issueFreeKey(ctx, { keys: callDeps.keys, metrics }, callDeps.clock()),
  );
  // Not behind an API key and not counted against any quota: it is for the operator's scraper.
  router.get('metrics', '/metrics', metricsEndpoint(metrics, deps.metricsToken));
  addOperationRoutes(router, OPERATIONS, callDeps);
  addMcpRoute(router, OPERATIONS, callDeps);
  return router;
}

/** The API's JSON bodies, up to the limit. */
function jsonBodies(): Middleware {
  return bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${BODY_LIMIT_BYTES}b`,
    encoding: 'utf-8',
    // Malformed JSON is answered by the route, after the key is checked and the call counted,
    // like any other bad input; a body over the limit is refused here, before anything else.
    onError(error, ctx) {
      if ((error as { status?: number }).status === 413) throw error;
      ctx.state.malformedBody = true;
    },
  });
}

/**
 * One JSON line per request, written by pino to `out` (the service's stdout, gathered into
 * batches off the request path; see log-output.ts for why not pino's own destination).
 */
export function jsonRequestLog(
  out: Pick<LogOutput, 'write'> = logOutput(process.stdout, { batchBytes: 4096 }),
): (entry: RequestLogEntry) => void {
  const logger = pino({ base: null, messageKey: 'message' }, { write: (line: string) => out.write(line) });
  return (entry) => logger.info(entry, 'request');
}

/** How long an idle keep-alive connection is kept open: longer than clients keep theirs. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Idle connections kept longer than clients keep theirs (undici 4 s, browsers and proxies up to
 * 60 s). With Node's default of 5 s, a server that closes first races a client reusing the
 * connection, and on a busy machine the client's next request meets a reset.
 */
export function keepConnectionsAlive(server: Server): Server {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}
