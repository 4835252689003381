/**
 * Errors as the API answers them, in JSON: the status comes from the call pipeline's one mapping
 * (src/call/errors.ts): an AppError by its code; body-parser and Koa errors (a body over the limit,
 * malformed JSON) by their status; anything else is logged and answered 500 with a generic
 * message — a bug, since nothing a client sends should cause it.
 */
import type { Context, Next } from 'koa';
import { failureOf, stackOf } from '../call/errors.ts';
import type { Failure } from '../call/errors.ts';
import { BODY_LIMIT_BYTES } from '../call/input.ts';
import { INTERNAL_ERROR } from '../errors.ts';

export function errorMiddleware(log: (line: string) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      const failure = failureOf(error);
      if (failure.kind === 'unavailable') {
        // Expected while a dependency is down: one line with the driver's reason, no stack.
        const cause = failure.error.cause instanceof Error ? failure.error.cause.message : String(failure.error.cause);
        log(`unavailable on ${ctx.method} ${ctx.path}: ${cause}`);
      } else if (failure.status >= 500) log(`error on ${ctx.method} ${ctx.path}: ${stackOf(error)}`);
      const { body, headers } = answerFor(failure);
      ctx.status = failure.status;
      ctx.body = body;
      for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
    }
  };
}

function answerFor(failure: Failure): { body: Record<string, unknown>; headers: Record<string, string> } {
  switch (failure.kind) {
    case 'refused':
    case 'unavailable': {
      const { error } = failure;
      const headers = { ...error.headers };
      if (error.code === 'UNAUTHORIZED') headers['WWW-Authenticate'] = 'Bearer';
      return { body: { error: error.message, ...error.extra }, headers };
    }
    case 'body-too-large':
      return { body: { error: `Request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.` }, headers: {} };
    case 'body-unreadable':
      return { body: { error: 'The request body is not valid JSON.' }, headers: {} };
    case 'internal':
      return { body: { error: INTERNAL_ERROR }, headers: {} };
  }
}

/** Refuse a declared body over the limit before reading it, whatever its type. */
export async function bodyLimit(ctx: Context, next: Next): Promise<void> {
  const length = Number(ctx.get('content-length') || 0);
  if (length > BODY_LIMIT_BYTES) throw Object.assign(new Error('body too large'), { status: 413 });
  await next();
}
