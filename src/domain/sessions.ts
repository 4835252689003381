/**
 * Web page sessions: a signed-in person's browser holds an opaque id; the store holds its hash,
 * the key it signed in with (by id, never the key) and the session's CSRF token.
 */
import type { ApiKeyRecord } from './api-keys.ts';

export interface WebSession {
  /** The key signed in with, as it is now (revoked_at set when revoked since). */
  key: ApiKeyRecord;
  /** The value the session's forms must send back. */
  csrfToken: string;
  /** ISO date-time after which the session is gone. */
  expiresAt: string;
}
