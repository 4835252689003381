/**
 * Which pg errors mean "the database is down, restarting, overloaded or too slow" — a 503 the
 * caller may retry — rather than a fault in our SQL (a 500 to fix).
 */

/** Socket errors of a server that is gone or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server shutting down, starting up, out of connections, or a statement timed out. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** pg's own messages for a lost connection and its client-side timeouts. */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;

export function isPgUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code)) return true;
    // Class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    // A read replica cancelled the query to apply its primary's changes: asking again works.
    if (code === '40001' && /conflict with recovery/.test(error.message)) return true;
  }
  if (LOST_CONNECTION.test(error.message)) return true;
  // A pool that cannot connect rejects with the socket's error as an AggregateError (IPv4 and IPv6).
  if (error instanceof AggregateError) return error.errors.some(isPgUnavailable);
  return error.cause !== undefined && error.cause !== error && isPgUnavailable(error.cause);
}
