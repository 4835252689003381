/**
 * Sign in by pasting an API key once, and sign out. The key travels only in the sign-in form's
 * POST body; the answer sets the session cookie and redirects, so no page ever holds the key.
 * Before there is a session, the sign-in form's CSRF token lives in its own short-lived cookie.
 */
import type { Context } from 'koa';
import { checkForm, formField } from '../form-guard.ts';
import { html } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { newCsrfToken } from '../csrf.ts';
import { cookieOptions, SIGN_IN_COOKIE, signIn, signOut } from '../sessions.ts';
import type { WebSettings } from '../settings.ts';
import { signedInOf } from '../visitor.ts';

/** How long a sign-in form may stay open before it must be reloaded. */
const SIGN_IN_FORM_MS = 60 * 60 * 1000;

/** Where a reader goes once signed in. */
const AFTER_SIGN_IN = '/watchlist';

export const signInPage: WebPage = {
  register(router, deps, settings) {
    if (!deps.sessions) return;
    router.get('web_sign_in', '/sign-in', (ctx) => showSignIn(ctx));
    router.post('web_sign_in', '/sign-in', (ctx) => postSignIn(ctx, deps, settings));
    router.post('web_sign_out', '/sign-out', (ctx) => postSignOut(ctx, deps));
  },
};

function showSignIn(ctx: Context, message?: string, status = 200): void {
  if (signedInOf(ctx)) return ctx.redirect(AFTER_SIGN_IN);
  const token = newCsrfToken();
  ctx.cookies.set(SIGN_IN_COOKIE, token, cookieOptions(ctx, SIGN_IN_FORM_MS));
  sendPage(
    ctx,
    {
      title: 'Sign in',
      main: html`<h1>Sign in with your API key</h1>
<p>Paste your key once. This site then remembers you with a session cookie for this browser; the key itself stays on the server and is never put in a page.</p>
<p>Your watchlist and alerts are the key's own. Reading pages never uses the key's monthly quota; CSV downloads and API calls do.</p>
${message ? html`<p class="error-message" role="alert" id="sign-in-error">${message}</p>` : ''}
<form action="/sign-in" method="post" class="sign-in-form">
<input type="hidden" name="csrf" value="${token}">
<label for="api-key">API key</label>
<input id="api-key" name="api_key" type="password" autocomplete="off" spellcheck="false" required${message ? html` aria-describedby="sign-in-error" aria-invalid="true"` : ''}>
<button type="submit">Sign in</button>
</form>
<p class="hint">No key yet? <a href="/get-key">Get a free key</a>.</p>`,
    },
    status,
  );
}

async function postSignIn(ctx: Context, deps: WebDeps, settings: WebSettings): Promise<void> {
  checkForm(ctx, ctx.cookies.get(SIGN_IN_COOKIE) || undefined);
  const pasted = formField(ctx, 'api_key')?.trim() ?? '';
  if (pasted === '') return showSignIn(ctx, 'Please paste your API key into the "API key" field.', 400);
  const key = await signIn(
    ctx,
    { keys: deps.keys, sessions: deps.sessions! },
    { pastedKey: pasted, now: deps.clock(), ttlMs: settings.sessionTtlMinutes * 60_000 },
  );
  if (key === null) return showSignIn(ctx, 'That API key is not one this service knows, or it has been revoked.', 401);
  ctx.cookies.set(SIGN_IN_COOKIE, null, cookieOptions(ctx));
  ctx.status = 303;
  ctx.redirect(AFTER_SIGN_IN);
}

async function postSignOut(ctx: Context, deps: WebDeps): Promise<void> {
  const signedIn = signedInOf(ctx);
  if (signedIn) {
    checkForm(ctx, signedIn.csrfToken);
    await signOut(ctx, deps.sessions!, signedIn);
  }
  ctx.status = 303;
  ctx.redirect('/');
}
