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

export const MISSING_KEY = 'Missing API key. Send Authorization: Bearer <API_KEY>.';
export const INVALID_KEY = 'Invalid or revoked API key.';

export function invalidInput(message: string): AppError {
  return new AppError('INVALID_INPUT', message);
}
