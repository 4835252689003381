/**
 * The web pages for people, one Koa router mounted by buildApp (when WEB_UI is on): security
 * headers on every answer, HTML error pages, form bodies parsed, the static assets, then each
 * page of PAGES. Its middleware runs only for its own routes; every other path passes through to
 * the API untouched.
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { BODY_LIMIT_BYTES } from '../call/input.ts';
import { asOfLine } from '../operations/envelope.ts';
import { addAssetRoutes, ASSETS_PATH, readAssets } from './assets.ts';
import { htmlErrors } from './error-pages.ts';
import type { NavLink } from './layout.ts';
import type { WebDeps, WebPage } from './page.ts';
import { alertsPage } from './pages/alerts.ts';
import { companyPage } from './pages/company.ts';
import { leadListsPage } from './pages/lead-lists.ts';
import { marketPage } from './pages/market.ts';
import { notFoundPage } from './pages/not-found.ts';
import { peoplePage } from './pages/people.ts';
import { comparePage } from './pages/compare.ts';
import { searchPage } from './pages/search.ts';
import { signInPage } from './pages/sign-in.ts';
import { freeKeyPage } from './pages/free-key.ts';
import { watchlistPage } from './pages/watchlist.ts';
import { createAnonymousLimiter } from './anonymous-limit.ts';
import { visitor } from './visitor.ts';
import type { WebState } from './respond.ts';
import { securityHeaders } from './security-headers.ts';
import type { WebSettings } from './settings.ts';

/** Every page of the site, in the order of the navigation. */
const PAGES: readonly WebPage[] = [
  searchPage,
  companyPage,
  comparePage,
  leadListsPage,
  marketPage,
  peoplePage,
  watchlistPage,
  alertsPage,
  signInPage,
  freeKeyPage,
  // Last: what no page above answers.
  notFoundPage,
];

/** The web router's middleware, for buildApp to mount before the API's JSON body parser. */
export function webRoutes(deps: WebDeps, settings: WebSettings, pages: readonly WebPage[] = PAGES): Middleware {
  const router = new Router();
  const nav = pages.flatMap((page) => (page.nav ? [page.nav] : []));
  router.use(securityHeaders);
  router.use(htmlErrors(deps.log));
  router.use(frame(nav, deps.asOf));
  // Forms post application/x-www-form-urlencoded; the API's parser takes JSON only.
  router.use(bodyParser({ enableTypes: ['form'], formLimit: `${BODY_LIMIT_BYTES}b`, encoding: 'utf-8' }));
  // Who reads, and the per-minute limit on page views: per address, or per signed-in key (not on assets).
  router.use(
    visitor(deps, {
      anonymous: createAnonymousLimiter(settings.anonPerMinute),
      signedIn: createAnonymousLimiter(settings.signedInPerMinute),
    }),
  );
  addAssetRoutes(router, readAssets());
  for (const page of pages) page.register(router, deps, settings);
  return router.routes() as Middleware;
}

/**
 * Put the layout's frame in ctx.state.web: the navigation, and the footer's line on how fresh the
 * data is (the account part is filled in by sign-in). The line is the API's as_of, from the same
 * short cache; assets do not wait for it, and a page whose store does not answer goes without it
 * rather than failing for it (the page says what failed).
 */
function frame(nav: readonly NavLink[], asOf: WebDeps['asOf']) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const line = ctx.path.startsWith(ASSETS_PATH) ? undefined : await asOf().then(asOfLine, () => undefined);
    const state: WebState = { frame: { nav, asOf: line } };
    ctx.state.web = state;
    await next();
  };
}
