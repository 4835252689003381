/**
 * Who is reading, for every page: a signed-in key (its session, read from the cookie) or an
 * anonymous visitor. The header shows which, with the sign-out form or the sign-in link. Page
 * views are limited per minute, never charged to a monthly quota: an anonymous visitor's per
 * client address (Koa's ctx.ip, which follows X-Forwarded-For only with the app's proxy setting),
 * a signed-in one's per key (all its sessions together). Static assets are neither. Only exports
 * (CSV) are charged to the key, as API calls are (run-signed-in.ts).
 *
 * A page asked for with `?key=` is refused: the pages know a key only through a session, and a
 * key in an address ends up in browser histories and proxy logs.
 */
import type { Context, Next } from 'koa';
import { AppError, invalidInput } from '../errors.ts';
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
export function visitor(
  deps: { sessions?: SessionStore | undefined; clock: () => Date },
  limiters: { anonymous: AnonymousLimiter; signedIn: AnonymousLimiter },
) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path.startsWith('/assets/')) return next();
    const signedIn = deps.sessions ? await readSession(ctx, deps.sessions, deps.clock()) : null;
    ctx.state.signedIn = signedIn;
    const state = ctx.state.web as WebState | undefined;
    if (state && deps.sessions) state.frame = { ...state.frame, account: accountPart(signedIn) };
    const taken =
      signedIn === null
        ? await limiters.anonymous.take(ctx.ip)
        : await limiters.signedIn.take(`key:${signedIn.key.id}`);
    if (!taken.allowed) {
      const wait = `Please wait ${taken.retryAfterSeconds} second${taken.retryAfterSeconds === 1 ? '' : 's'} and try again`;
      throw new AppError(
        'RATE_LIMITED',
        signedIn === null
          ? `Too many pages were asked for from your address in the last minute. ${wait}, or sign in with an API ` +
              `key: a signed-in reader's pages are limited per key instead.`
          : `Too many pages were asked for with your key in the last minute. ${wait}. Pages never use up your ` +
              `key's monthly quota.`,
        {},
        { headers: { 'Retry-After': String(taken.retryAfterSeconds) } },
      );
    }
    if (ctx.query.key !== undefined)
      throw invalidInput(
        'Web pages do not take an API key in the address (parameter "key"): sign in once on the Sign in page instead.',
      );
    await next();
  };
}

/** This request's reader from now on: `signedIn` (just signed in), in the state and the header. */
export function becomeSignedIn(ctx: Context, signedIn: SignedIn): void {
  ctx.state.signedIn = signedIn;
  const state = ctx.state.web as WebState | undefined;
  if (state) state.frame = { ...state.frame, account: accountPart(signedIn) };
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
