/**
 * Web page sessions: a signed-in person's browser holds an opaque id; the store holds its hash,
 * the key it signed in with and the session's CSRF token. Adapter: src/adapters/postgres/session-store.ts.
 */
import type { WebSession } from '../domain/sessions.ts';

export interface SessionStore {
  /** Keep a new session under the hash of its id, until `expiresAt`. */
  create(session: { idHash: string; keyId: number; csrfToken: string; expiresAt: Date }): Promise<void>;
  /** The session with this id hash, unless it expired by `now` (or never was). */
  find(idHash: string, now: Date): Promise<WebSession | null>;
  /** Forget the session (sign out); nothing happens for one that is not there. */
  delete(idHash: string): Promise<void>;
  /** Forget every session expired by `now`; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}
