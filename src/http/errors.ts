/**
 * The one place errors become HTTP answers: AppError by its code; body-parser and Koa errors
 * (a body over the limit, malformed JSON) by their status; anything else is logged and answered
 * 500 with a generic message — a bug, since nothing a client sends should cause it.
 */
import type { Context, Next } from 'koa';
import { AppError, HTTP_STATUS, INTERNAL_ERROR } from '../errors.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

export function errorMiddleware(log: (line: string) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      const { status, body, headers } = answerFor(error);
      if (error instanceof AppError && error.code === 'UPSTREAM_UNAVAILABLE') {
        // Expected while a dependency is down: one line with the driver's reason, no stack.
        const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
        log(`unavailable on ${ctx.method} ${ctx.path}: ${cause}`);
      } else if (status >= 500)
        log(
          `error on ${ctx.method} ${ctx.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      ctx.status = status;
      ctx.body = body;
      for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
    }
  };
}

function answerFor(error: unknown): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  if (error instanceof AppError) {
    const headers = { ...error.headers };
    if (error.code === 'UNAUTHORIZED') headers['WWW-Authenticate'] = 'Bearer';
    return { status: HTTP_STATUS[error.code], body: { error: error.message, ...error.extra }, headers };
  }
  const status = (error as { status?: unknown }).status;
  if (status === 413)
    return { status, body: { error: `Request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.` }, headers: {} };
  if (status === 400 || status === 415)
    return { status: 400, body: { error: 'The request body is not valid JSON.' }, headers: {} };
  return { status: 500, body: { error: INTERNAL_ERROR }, headers: {} };
}

/** Refuse a declared body over the limit before reading it, whatever its type. */
export async function bodyLimit(ctx: Context, next: Next): Promise<void> {
  const length = Number(ctx.get('content-length') || 0);
  if (length > BODY_LIMIT_BYTES) throw Object.assign(new Error('body too large'), { status: 413 });
  await next();
}
