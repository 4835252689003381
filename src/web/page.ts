/**
 * A page of the site, as the web router knows it: the routes it adds, and its link in the
 * navigation (if it has one). Each page is one module in src/web/pages/ exporting a WebPage;
 * web-routes.ts lists them.
 */
import type Router from '@koa/router';
import type { CallDeps } from '../call/deps.ts';
import type { SessionStore } from '../ports/sessions.ts';
import type { NavLink } from './layout.ts';
import type { WebSettings } from './settings.ts';

/** What the pages run on: the call pipeline's dependencies (operations' ports, keys, clock, metrics, log). */
export type WebDeps = CallDeps & {
  /** Where signed-in sessions are kept; absent, no one can sign in (every reader is anonymous). */
  sessions?: SessionStore | undefined;
};

export interface WebPage {
  /** Add the page's routes (GET, and POST for forms) to the web router. */
  register(router: Router, deps: WebDeps, settings: WebSettings): void;
  /** Its link in the site's navigation, in the order of the page list. */
  nav?: NavLink;
}
