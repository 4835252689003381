/**
 * "Get a free key" in the browser: the same issue as POST /v1/keys/free (src/call/free-key.ts,
 * with its limit per client address), behind the same CSRF checks as every form. The new key is
 * shown once on the answer page (never again: the store keeps its hash) and the browser is signed
 * in with it, so the reader can go on at once.
 */
import type { Context } from 'koa';
import { issueFreeKey, isPlausibleEmail } from '../../call/free-key.ts';
import { FREE_KEYS_PER_IP_PER_HOUR } from '../../domain/api-keys.ts';
import { newCsrfToken } from '../csrf.ts';
import { checkForm, formField } from '../form-guard.ts';
import { html } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { cookieOptions, SIGN_IN_COOKIE, signIn } from '../sessions.ts';
import type { WebSettings } from '../settings.ts';
import { becomeSignedIn } from '../visitor.ts';

/** How long the form may stay open before it must be reloaded (its token's cookie). */
const FORM_MS = 60 * 60 * 1000;

export const freeKeyPage: WebPage = {
  register(router, deps, settings) {
    if (!deps.sessions) return;
    router.get('web_free_key', '/get-key', (ctx) => showForm(ctx));
    router.post('web_free_key', '/get-key', (ctx) => postForm(ctx, deps, settings));
  },
};

function showForm(ctx: Context, error?: { message: string; email: string }, status = 200): void {
  const token = newCsrfToken();
  ctx.cookies.set(SIGN_IN_COOKIE, token, cookieOptions(ctx, FORM_MS));
  sendPage(
    ctx,
    {
      title: error ? 'Error: Get a free API key' : 'Get a free API key',
      description: 'Get a free API key for UK company data: for the API, and to keep a watchlist and alerts here.',
      main: html`<h1>Get a free API key</h1>
        <p>
          A free key lets you keep a watchlist and see alerts on these pages, and call the API. Reading the pages never
          uses its monthly quota; API calls and CSV downloads do.
        </p>
        ${error ? html`<p class="error-message" role="alert" id="free-key-error">${error.message}</p>` : ''}
        <form action="/get-key" method="post" class="sign-in-form">
          <input type="hidden" name="csrf" value="${token}" />
          <label for="free-key-email">E-mail address (optional)</label>
          <input
            id="free-key-email"
            name="email"
            type="email"
            autocomplete="email"
            value="${error?.email ?? ''}"
            aria-describedby="free-key-hint${error ? ' free-key-error' : ''}"
            ${error ? html`aria-invalid="true"` : ''}
          />
          <p id="free-key-hint" class="hint">
            Only kept with the key, so that an operator can reach you about it. At most ${FREE_KEYS_PER_IP_PER_HOUR}
            keys an hour from one address.
          </p>
          <button type="submit">Get a free key</button>
        </form>
        <p>Have a key already? <a href="/sign-in">Sign in</a>.</p>`,
    },
    status,
  );
}

async function postForm(ctx: Context, deps: WebDeps, settings: WebSettings): Promise<void> {
  checkForm(ctx, ctx.cookies.get(SIGN_IN_COOKIE) || undefined);
  const email = formField(ctx, 'email')?.trim() ?? '';
  if (email !== '' && !isPlausibleEmail(email))
    return showForm(
      ctx,
      {
        message: 'The "E-mail address" must be an e-mail address (one @, no spaces, at most 254 characters), or empty.',
        email,
      },
      400,
    );
  const now = deps.clock();
  const { key, monthlyQuota } = await issueFreeKey(deps, { email: email === '' ? null : email, clientIp: ctx.ip, now });
  const signedIn = await signIn(
    ctx,
    { keys: deps.keys, sessions: deps.sessions! },
    { pastedKey: key, now, ttlMs: settings.sessionTtlMinutes * 60_000 },
  );
  ctx.cookies.set(SIGN_IN_COOKIE, null, cookieOptions(ctx));
  // The key was stored a moment ago; the header shows it signed in, with its sign-out form.
  if (signedIn !== null) becomeSignedIn(ctx, signedIn);
  sendPage(
    ctx,
    {
      title: 'Your free API key',
      description: 'Your new API key, shown once.',
      main: html`<h1>Your free API key</h1>
        <p>This is the only time the key is shown: copy it now and keep it safe. It cannot be recovered.</p>
        <p><code id="new-key" class="new-key">${key}</code></p>
        <p>
          You are signed in with it in this browser. Its monthly quota is ${monthlyQuota.toLocaleString('en-GB')} API
          requests; reading these pages does not use it. Send it to the API as <code>Authorization: Bearer</code> and the
          key (see the <a href="/docs">API reference</a>).
        </p>
        <p><a href="/watchlist">Go to your watchlist</a> or <a href="/">search for a company</a>.</p>`,
    },
    201,
  );
}
