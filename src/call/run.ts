/**
 * The call pipeline every surface mounts: the input read (a batch's cost comes from it), the key
 * identified and the call counted (access.ts), then the input's refusal if any, then the operation,
 * beside the reading of how fresh the data is (as-of.ts) that every answer carries.
 * Refusals come in the same order on every surface: key, quota, then input. What the surface does
 * with the answer (`answer`) runs inside the counted call, so that a failure of ours there gives
 * the requests back too.
 */
import type * as z from 'zod';
import type { AsOf } from '../operations/envelope.ts';
import type { Operation } from '../operations/operation.ts';
import type { CountedCall } from './access.ts';
import { runCounted } from './access.ts';
import type { CallDeps } from './deps.ts';
import { readInputAhead } from './input.ts';

export interface OperationCall<Input extends z.ZodObject, Output extends z.ZodObject, Answer> extends Omit<
  CountedCall,
  'cost'
> {
  operation: Operation<Input, Output>;
  /** The input as the surface reads it, parsed by the operation's schema (input.ts). */
  read: () => z.output<Input>;
  /** A check of the surface's own, run once the call is counted, before the input's refusal (REST's format). */
  check?: () => void;
  /** What the surface makes of the operation's result, and of how fresh the data behind it is. */
  answer: (result: z.output<Output>, asOf: AsOf) => Answer;
}

export async function callOperation<Input extends z.ZodObject, Output extends z.ZodObject, Answer>(
  deps: CallDeps,
  call: OperationCall<Input, Output, Answer>,
): Promise<Answer> {
  const { operation } = call;
  // Read before counting: a batch's cost is the number of companies it asks for. Its errors wait
  // for take(), so that a missing or invalid key and a used-up quota are still answered first.
  const input = readInputAhead(operation, call.read);
  return runCounted(deps, { ...call, cost: input.cost }, async (context) => {
    call.check?.();
    // Every answer says how fresh its data is; read beside the operation, not after it.
    const [result, asOf] = await Promise.all([operation.run(deps, input.take(), context), deps.asOf()]);
    return call.answer(result, asOf);
  });
}
