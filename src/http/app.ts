/**
 * The HTTP application: built from its dependencies, not listening, so tests and main.ts share it.
 * Today it serves health only; the API of ../shared/API.md is added operation by operation.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { CompanyStore } from '../ports.ts';

export interface AppDeps {
  store: CompanyStore;
}

export function buildApp(deps: AppDeps): Koa {
  const app = new Koa();
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const counts = await deps.store.counts();
    ctx.body = { status: 'ready', ...counts };
  });
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}
