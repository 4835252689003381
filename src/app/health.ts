/**
 * GET /healthz (the process answers) and GET /readyz (its dependencies answer too). Route names
 * are the `operation` label of their requests in the metrics.
 */
import type Router from '@koa/router';
import type { Health } from '../ports/health.ts';
import type { SearchIndex } from '../ports/search-index.ts';

export interface HealthDeps {
  /** The store the operations read (a read replica, when there is one). */
  store: Pick<Health, 'ping'>;
  /** The primary, when `store` is a replica. */
  primary?: Pick<Health, 'ping'> | undefined;
  search: Pick<SearchIndex, 'count'>;
}

export function addHealthRoutes(router: Router, deps: HealthDeps): void {
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
}
