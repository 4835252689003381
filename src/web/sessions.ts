/**
 * Signed-in web sessions: a person pastes an API key once; the browser then holds only an opaque
 * random id in an HttpOnly, SameSite=Strict cookie (Secure when the request came over TLS, as Koa
 * reads it with the app's proxy setting), and the server keeps the session, by the SHA-256 of
 * that id, pointing at the key's row. The key itself is never stored, nor sent back to the page.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { hashApiKey } from '../domain/api-keys.ts';
import type { ApiKeyRecord } from '../domain/api-keys.ts';
import type { KeyStore } from '../ports/keys.ts';
import type { SessionStore } from '../ports/sessions.ts';
import { newCsrfToken } from './csrf.ts';

const SESSION_COOKIE = 'ukcd_session';
/** The sign-in form's CSRF token, before there is a session to keep it in. */
export const SIGN_IN_COOKIE = 'ukcd_sign_in';

/** The visitor's session, as a page sees it. */
export interface SignedIn {
  key: ApiKeyRecord;
  csrfToken: string;
  /** The stored hash of the session id (what sign-out deletes). */
  idHash: string;
}

/** A new session id: 32 random bytes, base64url. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a session id: its SHA-256, hex. */
function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** The cookie attributes of the site's cookies: HttpOnly, SameSite=Strict, Secure over TLS. */
export function cookieOptions(ctx: Pick<Context, 'secure'>, maxAgeMs?: number) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: ctx.secure,
    path: '/',
    overwrite: true,
    ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
  };
}

/**
 * The request's session, or null: no cookie, an unknown or expired id, or a key revoked since
 * (that session is deleted, and its cookie with it).
 */
export async function readSession(ctx: Context, sessions: SessionStore, now: Date): Promise<SignedIn | null> {
  const id = ctx.cookies.get(SESSION_COOKIE);
  if (!id) return null;
  const idHash = hashSessionId(id);
  const found = await sessions.find(idHash, now);
  if (found === null || found.key.revoked_at !== null) {
    if (found !== null) await sessions.delete(idHash);
    ctx.cookies.set(SESSION_COOKIE, null, cookieOptions(ctx));
    return null;
  }
  return { key: found.key, csrfToken: found.csrfToken, idHash };
}

/**
 * Sign in with a pasted key: the new session (null for a key this service does not know, or a
 * revoked one); on success a new session is stored for `ttlMs` and its cookie set. Sessions past
 * their expiry are deleted here, so the table holds live ones and those of the last moments.
 */
export async function signIn(
  ctx: Context,
  deps: { keys: KeyStore; sessions: SessionStore },
  { pastedKey, now, ttlMs }: { pastedKey: string; now: Date; ttlMs: number },
): Promise<SignedIn | null> {
  const key = await deps.keys.findByHash(hashApiKey(pastedKey.trim()));
  if (key === null || key.revoked_at !== null) return null;
  await deps.sessions.deleteExpired(now);
  const id = newSessionId();
  const session = { idHash: hashSessionId(id), csrfToken: newCsrfToken() };
  await deps.sessions.create({ ...session, keyId: key.id, expiresAt: new Date(now.getTime() + ttlMs) });
  ctx.cookies.set(SESSION_COOKIE, id, cookieOptions(ctx, ttlMs));
  return { key, ...session };
}

/** Sign out: the session is deleted from the store and its cookie cleared. */
export async function signOut(ctx: Context, sessions: SessionStore, session: SignedIn): Promise<void> {
  await sessions.delete(session.idHash);
  ctx.cookies.set(SESSION_COOKIE, null, cookieOptions(ctx));
}
