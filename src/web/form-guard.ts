/**
 * The checks every form post of the web pages passes before it does anything: it came from this
 * site's own page, and it carries the CSRF token that page was given. A refusal is a 400 page
 * asking to reload, since the usual honest cause is a page left open past its session.
 */
import type { Context } from 'koa';
import { invalidInput } from '../errors.ts';
import { comesFromThisSite, csrfTokenMatches } from './csrf.ts';

const STALE_FORM =
  'This form has expired or did not come from this site. Please reload the page and send the form again.';

/** A field of the posted form: its one value, or undefined when absent or sent more than once. */
export function formField(ctx: Context, name: string): string | undefined {
  const body = (ctx.request as { body?: unknown }).body;
  if (body === null || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Refuse the post unless it is from this site and its `csrf` field is `expected`. */
export function checkForm(ctx: Context, expected: string | undefined): void {
  const fromHere = comesFromThisSite({
    secFetchSite: ctx.get('sec-fetch-site') || undefined,
    origin: ctx.get('origin') || undefined,
    ownOrigin: ctx.origin,
  });
  if (!fromHere || expected === undefined || !csrfTokenMatches(expected, formField(ctx, 'csrf')))
    throw invalidInput(STALE_FORM);
}
