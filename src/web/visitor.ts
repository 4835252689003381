/**
 * Who is reading, for every page: a signed-in key (its session, read from the cookie) or an
 * anonymous visitor. The header shows which, with the sign-out form or the sign-in link. An
 * anonymous visitor's page views are limited per client address (Koa's ctx.ip, which follows
 * X-Forwarded-For only with the app's proxy setting); a signed-in one's are counted against the
 * key instead, where each page runs its operations (run-signed-in.ts). Static assets are neither.
 */
import type { Context, Next } from 'koa';
import { AppError } from '../errors.ts';
import type { SessionStore } from '../ports/sessions.ts';
import type { AnonymousLimiter } from './anonymous-limit.ts';
import type { SafeHtml } from './html.ts';
import { html } from './html.ts';
import type { WebState } from './respond.ts';
import type { SignedIn } from './sessions.ts';
import { readSession } from './sessions.ts';

/** The signed-in visitor of this request, or null when anonymous. */
export function signedInOf(ctx: Context): SignedIn | null {
  return (ctx.state.signedIn as SignedIn | null | undefined) ?? null;
}

/**
 * Middleware of the web router, after the layout's frame is set and inside the HTML error pages
 * (a refusal is the friendly 429 page). `sessions` absent: no one can sign in, every reader is
 * anonymous.
 */
export function visitor(deps: { sessions?: SessionStore | undefined; clock: () => Date }, limiter: AnonymousLimiter) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path.startsWith('/assets/')) return next();
    const signedIn = deps.sessions ? await readSession(ctx, deps.sessions, deps.clock()) : null;
    ctx.state.signedIn = signedIn;
    const state = ctx.state.web as WebState | undefined;
    if (state && deps.sessions) state.frame = { ...state.frame, account: accountPart(signedIn) };
    if (signedIn === null) {
      const taken = await limiter.take(ctx.ip);
      if (!taken.allowed)
        throw new AppError(
          'RATE_LIMITED',
          `Too many pages were asked for from your address in the last minute. Please wait ${taken.retryAfterSeconds} ` +
            `second${taken.retryAfterSeconds === 1 ? '' : 's'} and try again, or sign in with an API key: a signed-in ` +
            `reader's pages count against the key's monthly quota instead.`,
          {},
          { headers: { 'Retry-After': String(taken.retryAfterSeconds) } },
        );
    }
    await next();
  };
}

/**
 * The header's account part. Signed in: the key's prefix (what operators know a key by, never
 * the key) and the sign-out form with the session's CSRF token. Anonymous: the sign-in link.
 */
function accountPart(signedIn: SignedIn | null): SafeHtml {
  if (signedIn === null) return html`<div class="site-account"><a href="/sign-in">Sign in</a></div>`;
  return html`<div class="site-account">
<span>Signed in with key ${signedIn.key.prefix}…</span>
<form action="/sign-out" method="post">
<input type="hidden" name="csrf" value="${signedIn.csrfToken}">
<button type="submit">Sign out</button>
</form>
</div>`;
}
