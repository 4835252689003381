/**
 * How a page gets its data: by running an operation of the table through the call pipeline
 * (src/call), its input checked by the operation's own zod schema, on the same dependencies the
 * API uses. There is no other path from the web pages to the store or the search index.
 *
 * For a signed-in reader the call is counted against the key's monthly quota as an API call is
 * (refused uncounted over quota, refunded on our own failure). Pages that anonymous readers may see
 * too run through runForVisitor, so a signed-in reader's views count and an anonymous one's do not.
 */
import type { Context } from 'koa';
import type * as z from 'zod';
import type { QuotaState } from '../call/access.ts';
import { runAnonymous } from '../call/anonymous.ts';
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

/** The operation's answer for the signed-in key, and its quota after the call. */
export async function runSignedIn<Input extends z.ZodObject, Output extends z.ZodObject>(
  deps: WebDeps,
  signedIn: SignedIn,
  { operation, input: raw }: PageCall<Input, Output>,
): Promise<{ result: z.output<Output>; quota: QuotaState }> {
  let quota: QuotaState | undefined;
  const result = await callOperation(deps, {
    operation,
    who: { key: signedIn.key },
    // Web pages are counted on the REST channel: the quota-refusal metric's label.
    channel: 'rest',
    counted: (state) => {
      quota = state;
    },
    // A form names its fields as the operation's arguments.
    read: () => parseInput(operation, raw, (key) => key),
    answer: (answer) => answer,
  });
  return { result, quota: quota! };
}

/** Run for whoever reads the page: counted for a signed-in key, uncounted for an anonymous reader. */
export async function runForVisitor<Input extends z.ZodObject, Output extends z.ZodObject>(
  ctx: Context,
  deps: WebDeps,
  call: PageCall<Input, Output>,
): Promise<z.output<Output>> {
  const signedIn = signedInOf(ctx);
  if (signedIn === null) return runAnonymous(deps, call.operation, call.input);
  return (await runSignedIn(deps, signedIn, call)).result;
}
