/**
 * One error model for both surfaces: operations throw AppError with a stable code; the HTTP layer
 * maps codes to statuses here, and the MCP layer turns them into tool results with the same text.
 */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'QUOTA_EXCEEDED'
  | 'RATE_LIMITED'
  | 'UPSTREAM_UNAVAILABLE';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields of the error body, e.g. `resets_at` for a used-up quota. */
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options);
    this.headers = options?.headers ?? {};
  }
  readonly headers: Record<string, string>;
}

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 429,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 503,
};

/** What a caller is told when a server the service depends on is down or too slow. */
const UNAVAILABLE: Record<'store' | 'search', string> = {
  store: 'The service cannot reach its database right now. Try again in a few seconds.',
  search:
    'Search is unavailable right now: the search engine is not answering. Company lookups, watchlists and alerts ' +
    'still work. Try again in a few seconds.',
};

/** Seconds a caller is asked to wait (Retry-After) before trying again after a 503. */
const RETRY_AFTER_SECONDS = 5;

/**
 * A dependency is down or too slow: 503 with Retry-After. The driver's error stays as the cause
 * (for the log), never in the answer: it names hosts and ports.
 */
export function dependencyUnavailable(dependency: 'store' | 'search', cause: unknown): AppError {
  return new AppError(
    'UPSTREAM_UNAVAILABLE',
    UNAVAILABLE[dependency],
    {},
    { cause, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
  );
}

/** What a caller is told of a failure of ours; the details go to the log. */
export const INTERNAL_ERROR = 'Internal error. It has been logged.';

export const MISSING_KEY = 'Missing API key. Send Authorization: Bearer <API_KEY>.';
export const INVALID_KEY = 'Invalid or revoked API key.';

export function invalidInput(message: string): AppError {
  return new AppError('INVALID_INPUT', message);
}
