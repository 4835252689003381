/**
 * The HTTP application: built from its dependencies, not listening, so tests and main.ts share it.
 * REST routes and MCP tools come from the one operation table; errors become answers in one place.
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import { destination, pino } from 'pino';
import { addMcpRoute } from '../mcp/route.ts';
import type { WebSettings } from '../web/settings.ts';
import { DEFAULT_WEB_SETTINGS } from '../web/settings.ts';
import { webRoutes } from '../web/web-routes.ts';
import { OPERATIONS } from '../operations/index.ts';
import type { CompanyReader } from '../ports/companies.ts';
import type { Health } from '../ports/health.ts';
import type { LoadJournal } from '../ports/load-journal.ts';
import type { SessionStore } from '../ports/sessions.ts';
import { addApiReference } from './api-reference.ts';
import { cors } from './cors.ts';
import { BODY_LIMIT_BYTES, bodyLimit, errorMiddleware } from './errors.ts';
import { issueFreeKey } from './free-keys.ts';
import { createHttpMetrics, metricsEndpoint } from './metrics.ts';
import type { HttpMetrics } from './metrics.ts';
import { unmatchedRequests } from './unmatched-requests.ts';
import { openApiDocument } from './openapi.ts';
import { requestLog } from './request-log.ts';
import { serverTiming } from './server-timing.ts';
import type { RequestLogEntry } from './request-log.ts';
import type { HttpDeps } from './routes.ts';
import { addOperationRoutes } from './routes.ts';

export interface AppDeps extends Omit<HttpDeps, 'clock' | 'metrics' | 'log'> {
  /** The store the operations read (a read replica, when there is one). */
  store: CompanyReader & Pick<LoadJournal, 'loadProgress'> & Health;
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
}

export function buildApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: deps.trustProxy ?? false });
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const metrics = deps.metrics ?? createHttpMetrics({ store: deps.store, webhooks: deps.webhooks.store });
  const httpDeps: HttpDeps = { ...deps, clock: deps.clock ?? (() => new Date()), metrics, log };
  // Koa's own error log would repeat what the error middleware already logged.
  app.silent = true;
  const router = new Router();
  const document = openApiDocument(OPERATIONS);

  // Route names are the `operation` label of their requests in the metrics.
  router.get('healthz', '/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  // Ready when the store (and its read replica, if any) and the search index answer; which one
  // does not, otherwise. Cheap enough to probe every few seconds: a round trip to each database,
  // the index's document count.
  router.get('readyz', '/readyz', async (ctx) => {
    const [store, replica, search] = await Promise.allSettled([
      (deps.primary ?? deps.store).ping(),
      deps.primary ? deps.store.ping() : Promise.resolve(),
      deps.search.count(),
    ]);
    const ready = [store, replica, search].every((check) => check.status === 'fulfilled');
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'ready' : 'unavailable',
      store: { ok: store.status === 'fulfilled' },
      ...(deps.primary ? { replica: { ok: replica.status === 'fulfilled' } } : {}),
      search: search.status === 'fulfilled' ? { ok: true, indexed: search.value } : { ok: false },
    };
  });
  router.get('openapi', '/openapi.json', (ctx) => {
    ctx.body = document;
  });
  addApiReference(router);
  router.post('free_key', '/v1/keys/free', (ctx) => issueFreeKey(ctx, httpDeps, httpDeps.clock()));
  // Not behind an API key and not counted against any quota: it is for the operator's scraper.
  router.get('metrics', '/metrics', metricsEndpoint(metrics, deps.metricsToken));
  addOperationRoutes(router, OPERATIONS, httpDeps);
  addMcpRoute(router, OPERATIONS, httpDeps);

  // First, so that its time covers everything the app does for the request.
  app.use(serverTiming);
  app.use(metrics.middleware);
  if (deps.requestLog) app.use(requestLog(deps.requestLog));
  app.use(errorMiddleware(log));
  app.use(cors);
  app.use(bodyLimit);
  // The pages, before the API's JSON parser: their forms post urlencoded bodies, parsed there.
  const web = { ...DEFAULT_WEB_SETTINGS, ...deps.web };
  if (web.enabled) app.use(webRoutes({ ...httpDeps, sessions: deps.sessions }, web));
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: `${BODY_LIMIT_BYTES}b`,
      encoding: 'utf-8',
      // Malformed JSON is answered by the route, after the key is checked and the call counted,
      // like any other bad input; a body over the limit is refused here, before anything else.
      onError(error, ctx) {
        if ((error as { status?: number }).status === 413) throw error;
        ctx.state.malformedBody = true;
      },
    }),
  );
  app.use(unmatchedRequests);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** One JSON line per request on stdout, written by pino off the request path (buffered). */
export function jsonRequestLog(): (entry: RequestLogEntry) => void {
  const logger = pino({ base: null, messageKey: 'message' }, destination({ dest: 1, sync: false, minLength: 4096 }));
  return (entry) => logger.info(entry, 'request');
}
