/**
 * The WatchlistStore on Postgres (pg or PGlite through the Sql port): one row per key and watched
 * company, holding the snapshot alerts compare against.
 *
 * Adding is safe under concurrency against the plan limit: one transaction locks the key's
 * api_keys row, counts the list, and inserts every new company only if all fit, or (asked to) the
 * first of them that fit. Each row's position keeps the order of the request. The
 * lock is FOR NO KEY UPDATE, so concurrent adds for one key queue behind each other while the
 * foreign-key checks of other tables (api_usage takes FOR KEY SHARE) are not held up.
 */
import type { Sql } from '../../ports/sql.ts';
import type { WatchedCompany, WatchSnapshot } from '../../domain/watchlists.ts';
import type { WatchlistStore } from '../../ports/watchlists.ts';

/** ISO 8601 in UTC with milliseconds, the same text on pg and PGlite whatever the session time zone. */
const ADDED_ISO = `to_char(added_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export function createWatchlistStore(sql: Sql): WatchlistStore {
  return {
    async list(keyId) {
      const result = await sql.query<WatchedCompany>(
        `SELECT company_number, ${ADDED_ISO} AS added, snapshot
         FROM watchlist_entries WHERE key_id = $1
         ORDER BY added_at, position`,
        [keyId],
      );
      return result.rows;
    },

    async add(keyId, entries, limit, addedAt, overLimit = 'refuse') {
      // A number repeated within the request counts once; its first snapshot is the one kept.
      const requested = new Map<string, WatchSnapshot>();
      for (const entry of entries) {
        if (!requested.has(entry.company_number)) requested.set(entry.company_number, entry.snapshot);
      }
      if (requested.size === 0) return { added: [], alreadyWatched: [], overLimit: [], limitReached: false };
      return sql.transaction(async (tx) => {
        const key = await tx.query('SELECT id FROM api_keys WHERE id = $1 FOR NO KEY UPDATE', [keyId]);
        if (key.rowCount === 0) throw new Error(`Watchlist: API key ${keyId} does not exist.`);
        const current = await tx.query<{ company_number: string }>(
          'SELECT company_number FROM watchlist_entries WHERE key_id = $1',
          [keyId],
        );
        const watched = new Set(current.rows.map((row) => row.company_number));
        const numbers = [...requested.keys()];
        const alreadyWatched = numbers.filter((number) => watched.has(number));
        const fresh = numbers.filter((number) => !watched.has(number));
        // Only new companies can take the list over: a request of already-watched ones succeeds
        // even on a list that is over the limit (a plan changed since, say).
        if (fresh.length > 0 && watched.size + fresh.length > limit && overLimit === 'refuse') {
          return { added: [], alreadyWatched, overLimit: fresh, limitReached: true };
        }
        const room = Math.max(0, limit - watched.size);
        const adding = fresh.slice(0, room);
        if (adding.length > 0) {
          // Rows inserted in the request's order take their positions in that order.
          await tx.query(
            `INSERT INTO watchlist_entries (key_id, company_number, snapshot, added_at)
             SELECT $1, r.item->>'company_number', (r.item->'snapshot')::jsonb, coalesce($3::timestamptz, now())
             FROM json_array_elements($2::json) WITH ORDINALITY AS r(item, n)
             ORDER BY r.n`,
            [
              keyId,
              JSON.stringify(adding.map((number) => ({ company_number: number, snapshot: requested.get(number) }))),
              addedAt ?? null,
            ],
          );
        }
        return { added: adding, alreadyWatched, overLimit: fresh.slice(room), limitReached: false };
      });
    },

    async remove(keyId, companyNumbers) {
      const numbers = [...new Set(companyNumbers)];
      if (numbers.length === 0) return { removed: [], notWatched: [] };
      const result = await sql.query<{ company_number: string }>(
        `DELETE FROM watchlist_entries WHERE key_id = $1 AND company_number = ANY($2::text[]) RETURNING company_number`,
        [keyId, numbers],
      );
      const gone = new Set(result.rows.map((row) => row.company_number));
      return {
        removed: numbers.filter((number) => gone.has(number)),
        notWatched: numbers.filter((number) => !gone.has(number)),
      };
    },
  };
}
