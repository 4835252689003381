/**
 * How a page gets its data: by running an operation of the table through the call pipeline
 * (src/call), its input checked by the operation's own zod schema, on the same dependencies the
 * API uses. There is no other path from the web pages to the store or the search index.
 *
 * Page views are not charged to any monthly quota (the web limits them per minute, visitor.ts):
 * an anonymous reader's run as nobody's, a signed-in reader's with the key's context (its
 * watchlist, its alerts). Exports are charged: a signed-in reader's CSV download counts against
 * the key's monthly quota as the API's paging does (refused uncounted over quota, refunded on our
 * own failure).
 */
import type { Context } from 'koa';
import type * as z from 'zod';
import { runAnonymous, runForSession } from '../call/anonymous.ts';
import { parseInput } from '../call/input.ts';
import { callOperation } from '../call/run.ts';
import type { Operation } from '../operations/operation.ts';
import type { WebDeps } from './page.ts';
import type { SignedIn } from './sessions.ts';
import { signedInOf } from './visitor.ts';

/** An operation of the table and its input as the page read it (a form names its fields as the arguments). */
export interface PageCall<Input extends z.ZodObject, Output extends z.ZodObject> {
  operation: Operation<Input, Output>;
  input: Record<string, unknown>;
}

/** The operation's answer for a page of the signed-in key: with its context, not charged. */
export function runSignedIn<Input extends z.ZodObject, Output extends z.ZodObject>(
  deps: WebDeps,
  signedIn: SignedIn,
  { operation, input }: PageCall<Input, Output>,
): Promise<z.output<Output>> {
  return runForSession(deps, operation, input, signedIn.key);
}

/** Run a page's operation for whoever reads it: never charged (page views are limited per minute instead). */
export function runForVisitor<Input extends z.ZodObject, Output extends z.ZodObject>(
  ctx: Context,
  deps: WebDeps,
  call: PageCall<Input, Output>,
): Promise<z.output<Output>> {
  const signedIn = signedInOf(ctx);
  if (signedIn === null) return runAnonymous(deps, call.operation, call.input);
  return runSignedIn(deps, signedIn, call);
}

/**
 * Run an export's call (a page of a CSV download): charged to a signed-in key's monthly quota as
 * an API call is (on the REST channel, the quota-refusal metric's label); an anonymous reader's
 * download is one page view of the per-address limit, counted when the page was asked for.
 */
export async function runExport<Input extends z.ZodObject, Output extends z.ZodObject>(
  ctx: Context,
  deps: WebDeps,
  { operation, input: raw }: PageCall<Input, Output>,
): Promise<z.output<Output>> {
  const signedIn = signedInOf(ctx);
  if (signedIn === null) return runAnonymous(deps, operation, raw);
  return callOperation(deps, {
    operation,
    who: { key: signedIn.key },
    channel: 'rest',
    counted: () => {},
    // A form names its fields as the operation's arguments.
    read: () => parseInput(operation, raw, (key) => key),
    answer: (answer) => answer,
  });
}
