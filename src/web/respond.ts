/**
 * Sending a page: the layout around the page's view, with the navigation and account part the
 * web router put in ctx.state.web.
 */
import type { Context } from 'koa';
import type { SafeHtml } from './html.ts';
import type { Frame } from './layout.ts';
import { layout } from './layout.ts';

/** What the web router's middleware leaves in ctx.state.web for the layout. */
export interface WebState {
  frame: Frame;
}

export interface View {
  title: string;
  /** The page's meta description (what a search engine shows); the site's own when absent. */
  description?: string;
  main: SafeHtml;
  scripts?: readonly string[];
}

/** Answer `view` in the site's layout, as HTML, with `status` (200 unless given). */
export function sendPage(ctx: Context, view: View, status = 200): void {
  const state = ctx.state.web as WebState | undefined;
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = layout({ ...view, path: ctx.path }, state?.frame ?? { nav: [] }).text;
}
