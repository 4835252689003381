/**
 * What a request no route answered gets: a method the path does not take is a 405 naming the
 * methods it does (RFC 9110 §15.5.6), not the router's 501, which says the server knows no such
 * method at all; a path that does not exist, whatever the method, is a 404 with a pointer to the
 * document. Wraps the router and its allowedMethods, which set the status and Allow header.
 */
import type { Context, Next } from 'koa';

export async function unmatchedRequests(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.body !== undefined && ctx.body !== null) return;
  const allow = ctx.response.get('Allow');
  if ((ctx.status === 405 || ctx.status === 501) && allow !== '') {
    ctx.status = 405;
    ctx.body = { error: `${ctx.method} is not allowed on ${ctx.path}. Allowed: ${allow}.` };
  } else if (ctx.status === 404 || ctx.status === 405 || ctx.status === 501) {
    ctx.remove('Allow');
    ctx.status = 404;
    ctx.body = { error: `No such endpoint: ${ctx.method} ${ctx.path}. See /openapi.json.` };
  }
}
