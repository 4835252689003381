/**
 * The one place a failure gets its status, for every surface: REST answers it as JSON
 * (src/http/errors.ts), MCP as a tool result (src/mcp/server.ts), the web as a page
 * (src/web/error-pages.ts), each in its own words. An AppError by its code; a request body
 * refused by the body parser by the parser's status; anything else is a failure of ours, a 500.
 */
import { AppError, HTTP_STATUS } from '../errors.ts';

export type Failure =
  /** An AppError the caller caused (4xx): its message is for them. */
  | { kind: 'refused'; status: number; error: AppError }
  /** An AppError of a dependency down or too slow (5xx): expected while it lasts, told to the caller. */
  | { kind: 'unavailable'; status: number; error: AppError }
  /** A request body over the limit, refused before any route read it. */
  | { kind: 'body-too-large'; status: 413 }
  /** A request body the parser could not read (malformed, or of a type it does not take). */
  | { kind: 'body-unreadable'; status: 400 }
  /** Anything else: a bug of ours, logged with its stack and never shown. */
  | { kind: 'internal'; status: 500 };

export function failureOf(error: unknown): Failure {
  if (error instanceof AppError) {
    const status = HTTP_STATUS[error.code];
    return { kind: status >= 500 ? 'unavailable' : 'refused', status, error };
  }
  const status = (error as { status?: unknown }).status;
  if (status === 413) return { kind: 'body-too-large', status };
  if (status === 400 || status === 415) return { kind: 'body-unreadable', status: 400 };
  return { kind: 'internal', status: 500 };
}

/** Whether a call that failed so is given back to the quota: a failure of ours or a dependency's. */
export function givesRequestsBack(error: unknown): boolean {
  return !(error instanceof AppError) || HTTP_STATUS[error.code] >= 500;
}

/** The failure as one log line: its stack when it has one. */
export function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
