/**
 * The one place a web page's failure becomes an answer, with the status the call pipeline gives it
 * (src/call/errors.ts): an AppError as a page saying what went wrong in words, a 400 naming the
 * field; anything else is logged and answered as a 500 page that says nothing of the cause.
 */
import type { Context, Next } from 'koa';
import { failureOf, stackOf } from '../call/errors.ts';
import { INTERNAL_ERROR } from '../errors.ts';
import { html } from './html.ts';
import { resetsInWords } from './quota.ts';
import { sendPage } from './respond.ts';
import type { SignedIn } from './sessions.ts';
import { signedInOf } from './visitor.ts';

const HEADINGS: Readonly<Record<number, string>> = {
  400: 'Please check what you entered',
  404: 'Not found',
  409: 'That cannot be done',
  413: 'Too much sent',
  429: 'Too many requests',
  503: 'Temporarily unavailable',
};

/** Middleware of the web router: errors thrown by a page become an HTML page. */
export function htmlErrors(log: (line: string) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      const { status, message, headers, quota } = describe(error);
      if (status >= 500) log(`error on ${ctx.method} ${ctx.path}: ${stackOf(error)}`);
      ctx.set(headers);
      sendPage(ctx, errorView(status, message, quota ? signedInOf(ctx) : null), status);
    }
  };
}

/**
 * The page of an error: its heading by status, the message, a way on. A used-up monthly quota
 * (only a download can meet it: pages are not charged) offers the way out too: the pages still
 * work, and signing out is one button.
 */
function errorView(status: number, message: string, signedIn: SignedIn | null) {
  const heading = HEADINGS[status] ?? 'Something went wrong';
  return {
    title: heading,
    main: html`<h1>${heading}</h1>
      <p class="error-message" role="alert">${message}</p>
      ${
        signedIn
          ? html`<p>Reading the pages does not use the quota, so every page still works while you are signed in.</p>
            <form action="/sign-out" method="post">
              <input type="hidden" name="csrf" value="${signedIn.csrfToken}" />
              <button type="submit">Sign out</button>
            </form>`
          : ''
      }
      <p><a href="/">Search for a company</a></p>`,
  };
}

interface Described {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** A used-up monthly quota (the page offers sign-out). */
  quota?: boolean;
}

function describe(error: unknown): Described {
  const failure = failureOf(error);
  switch (failure.kind) {
    case 'refused':
    case 'unavailable': {
      const { status, error } = failure;
      // A used-up quota says when it resets, as the API's body does, in words.
      const resetsAt = typeof error.extra.resets_at === 'string' ? new Date(error.extra.resets_at) : null;
      if (resetsAt === null || Number.isNaN(resetsAt.getTime()))
        return { status, message: error.message, headers: error.headers };
      return {
        status,
        message: `${error.message}: your key's API requests for this month are used up. The count starts again on ${resetsInWords(resetsAt)}.`,
        headers: error.headers,
        quota: true,
      };
    }
    case 'body-too-large':
      return { status: 413, message: 'The form sent more than this service accepts.', headers: {} };
    case 'body-unreadable':
      return { status: 400, message: 'The form could not be read. Please send it again.', headers: {} };
    case 'internal':
      return { status: 500, message: INTERNAL_ERROR, headers: {} };
  }
}
