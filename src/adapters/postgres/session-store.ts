/**
 * The SessionStore on Postgres (pg or PGlite through the Sql port): web page sessions by the hash
 * of their id, read together with the key they signed in with, so a revoked key is seen on the
 * next page view without a second query.
 */
import type { Plan } from '../../domain/api-keys.ts';
import type { SessionStore } from '../../ports/sessions.ts';
import type { Sql } from '../../ports/sql.ts';

// Times as ISO strings in UTC, the same from pg and PGlite whatever the session's time zone.
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface SessionRow {
  csrf_token: string;
  expires_at: string;
  id: number | string;
  prefix: string;
  plan: Plan;
  email: string | null;
  created_at: string;
  revoked_at: string | null;
}

const FIND = `SELECT s.csrf_token, ${iso('s.expires_at')} AS expires_at,
  k.id, k.prefix, k.plan, k.email, ${iso('k.created_at')} AS created_at, ${iso('k.revoked_at')} AS revoked_at
FROM web_sessions s JOIN api_keys k ON k.id = s.key_id
WHERE s.id_hash = $1 AND s.expires_at > $2::timestamptz`;

export function createSessionStore(sql: Sql): SessionStore {
  return {
    async create({ idHash, keyId, csrfToken, expiresAt }) {
      await sql.query('INSERT INTO web_sessions (id_hash, key_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)', [
        idHash,
        keyId,
        csrfToken,
        expiresAt.toISOString(),
      ]);
    },

    async find(idHash, now) {
      const row = (await sql.query<SessionRow>(FIND, [idHash, now.toISOString()])).rows[0];
      if (!row) return null;
      return {
        key: {
          id: Number(row.id),
          prefix: row.prefix,
          plan: row.plan,
          email: row.email,
          created_at: row.created_at,
          revoked_at: row.revoked_at,
        },
        csrfToken: row.csrf_token,
        expiresAt: row.expires_at,
      };
    },

    async delete(idHash) {
      await sql.query('DELETE FROM web_sessions WHERE id_hash = $1', [idHash]);
    },

    async deleteExpired(now) {
      const result = await sql.query('DELETE FROM web_sessions WHERE expires_at <= $1::timestamptz', [
        now.toISOString(),
      ]);
      return result.rowCount;
    },
  };
}
