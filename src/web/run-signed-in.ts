/**
 * Running an operation for a signed-in reader: counted against the key's monthly quota through
 * the same path as an API call (runCounted: refused uncounted over quota, refunded on our own
 * failure), the input parsed by the operation's schema inside the counted call as the API does.
 * Pages that anonymous readers may see too run through runForVisitor, so a signed-in reader's
 * views count and an anonymous one's do not.
 */
import type { Context } from 'koa';
import type * as z from 'zod';
import type { QuotaState } from '../http/access.ts';
import { runCounted } from '../http/access.ts';
import { parseInput } from '../http/operation-input.ts';
import type { Operation } from '../operations/operation.ts';
import type { WebDeps } from './run-operation.ts';
import { runAnonymous } from './run-operation.ts';
import type { SignedIn } from './sessions.ts';
import { signedInOf } from './visitor.ts';

/** The operation's answer for the signed-in key, and its quota after the call. */
export async function runSignedIn<Input extends z.ZodObject, Output extends z.ZodObject>(
  deps: WebDeps,
  signedIn: SignedIn,
  operation: Operation<Input, Output>,
  raw: Record<string, unknown>,
): Promise<{ result: z.output<Output>; quota: QuotaState }> {
  let quota: QuotaState | undefined;
  // Web pages are counted on the REST channel: the quota-refusal metric's label.
  const result = await runCounted(
    deps,
    { key: signedIn.key },
    'rest',
    (state) => {
      quota = state;
    },
    (context) =>
      operation.run(
        deps,
        parseInput(operation, raw, (key) => key),
        context,
      ),
  );
  return { result, quota: quota! };
}

/** Run for whoever reads the page: counted for a signed-in key, uncounted for an anonymous reader. */
export async function runForVisitor<Input extends z.ZodObject, Output extends z.ZodObject>(
  ctx: Context,
  deps: WebDeps,
  operation: Operation<Input, Output>,
  raw: Record<string, unknown>,
): Promise<z.output<Output>> {
  const signedIn = signedInOf(ctx);
  if (signedIn === null) return runAnonymous(deps, operation, raw);
  return (await runSignedIn(deps, signedIn, operation, raw)).result;
}
