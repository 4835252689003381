/**
 * The KeyStore on Postgres (pg or PGlite through the Sql port): API keys by hash, and their
 * monthly usage. Quota counting is one statement, so the database's row lock makes it atomic
 * across processes; the free-key limit takes an advisory lock on the client address.
 */
import type { ApiKeyRecord, Plan, QuotaTake } from '../../domain/api-keys.ts';
import type { KeyStore } from '../../ports/keys.ts';
import type { Sql } from '../../ports/sql.ts';

// The two-key form of the advisory lock, so that it can never meet the migrations' one-key lock.
const FREE_KEY_LOCK_SPACE = 5_310_442;

// Times as ISO strings in UTC, the same from pg and PGlite whatever the session's time zone.
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const KEY_COLUMNS = `id, prefix, plan, email, ${iso('created_at')} AS created_at, ${iso('revoked_at')} AS revoked_at`;

const INSERT_KEY = `INSERT INTO api_keys (key_hash, prefix, plan, email, client_ip, created_at)
VALUES ($1, $2, $3, $4, $5, coalesce($6::timestamptz, now()))
RETURNING ${KEY_COLUMNS}`;

// The count and the insert in one statement, after the address's lock: two requests from one
// address cannot both see nine keys and both insert the tenth.
const INSERT_KEY_WITHIN_LIMIT = `INSERT INTO api_keys (key_hash, prefix, plan, email, client_ip, created_at)
SELECT $1, $2, $3, $4, $5::text, coalesce($8::timestamptz, now())
WHERE (SELECT count(*) FROM api_keys WHERE client_ip IS NOT DISTINCT FROM $5::text AND created_at >= $6::timestamptz) < $7::integer
RETURNING ${KEY_COLUMNS}`;

// Every counted call commits a usage row, and a synchronous commit waits for the WAL to reach the
// disk: at 16 concurrent calls that flush was most of a lookup's time (one statement alone: 1,800
// commits/s on the VM, 4 ms each; 18,900/s asynchronously). So the counter commits asynchronously,
// for its own transaction only (set_config's `true`: local to the statement's implicit
// transaction, which commits with it). Atomicity and the limit are as before; what a crash of
// PostgreSQL itself can lose is the last fraction of a second of counts (wal_writer_delay, three
// times over at most), never a row half-written: a few requests uncounted, never a call refused
// that should pass.
const ASYNC_COMMIT = `(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`;

// One statement: a concurrent insert of the same (key, month) waits for the first and then takes
// the update path, and the update re-checks `used < limit` on the row it locked. So N concurrent
// calls with R left succeed exactly min(N, R) times. A limit of 0 inserts nothing.
const CONSUME = `INSERT INTO api_usage AS u (key_id, month, used)
SELECT $1::bigint, $2::text, 1 FROM ${ASYNC_COMMIT} WHERE $3::integer > 0
ON CONFLICT (key_id, month) DO UPDATE SET used = u.used + 1 WHERE u.used < $3::integer
RETURNING used`;

// A batch call (lookup_companies) takes all its requests or none: the same statement, `count` at a
// time, with `used + count <= limit` re-checked on the locked row. On a refusal nothing comes back
// from the insert, so the outer query reads the usage (as the statement's snapshot saw it) to tell
// the caller how many are left.
const CONSUME_MANY = `WITH counted AS (
  INSERT INTO api_usage AS u (key_id, month, used)
  SELECT $1::bigint, $2::text, $4::integer FROM ${ASYNC_COMMIT} WHERE $4::integer <= $3::integer
  ON CONFLICT (key_id, month) DO UPDATE SET used = u.used + $4::integer WHERE u.used + $4::integer <= $3::integer
  RETURNING used)
SELECT (SELECT used FROM counted) AS counted,
  (SELECT used FROM api_usage WHERE key_id = $1::bigint AND month = $2::text) AS found`;

// The key by its hash and, if it is live, CONSUME_MANY's count against its plan's limit (the plans'
// limits are passed as two arrays), as one statement. `found` is read from the statement's snapshot,
// before the insert, as in CONSUME_MANY.
const IDENTIFY_AND_CONSUME = `WITH k AS (
  SELECT ${KEY_COLUMNS}, ($4::integer[])[array_position($3::text[], plan::text)] AS quota
  FROM api_keys WHERE key_hash = $1),
counted AS (
  INSERT INTO api_usage AS u (key_id, month, used)
  SELECT k.id, $2::text, $5::integer FROM k, ${ASYNC_COMMIT}
  WHERE k.revoked_at IS NULL AND $5::integer <= k.quota
  ON CONFLICT (key_id, month) DO UPDATE SET used = u.used + $5::integer
    WHERE u.used + $5::integer <= (SELECT quota FROM k)
  RETURNING used)
SELECT k.*, (SELECT used FROM counted) AS counted,
  (SELECT used FROM api_usage WHERE key_id = k.id AND month = $2::text) AS found
FROM k`;

const REFUND = `UPDATE api_usage SET used = greatest(used - $3::integer, 0)
WHERE key_id = $1::bigint AND month = $2::text AND used > 0`;

interface KeyRow {
  id: number;
  prefix: string;
  plan: Plan;
  email: string | null;
  created_at: string;
  revoked_at: string | null;
}

const toRecord = (row: KeyRow): ApiKeyRecord => ({
  id: Number(row.id),
  prefix: row.prefix,
  plan: row.plan,
  email: row.email,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
});

/** A LIKE pattern matching the values that start with `prefix` (its own % and _ taken literally). */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`;

/** What a counting statement took: what is left after it counted, or, refused, what it found left. */
function takeOf(limit: number, counted: number | null, found: number | null): QuotaTake {
  return counted !== null
    ? { counted: true, left: Math.max(0, limit - Number(counted)) }
    : { counted: false, left: Math.max(0, limit - Number(found ?? 0)) };
}

export function createKeyStore(sql: Sql): KeyStore {
  const consumeOne = async (keyId: number, month: string, limit: number): Promise<number | null> => {
    const result = await sql.query<{ used: number }>(CONSUME, [keyId, month, limit]);
    return result.rows[0] ? Number(result.rows[0].used) : null;
  };
  return {
    async createKey({ hash, prefix, plan, email, clientIp, createdAt, freeLimit }) {
      if (!freeLimit) {
        const result = await sql.query<KeyRow>(INSERT_KEY, [hash, prefix, plan, email, clientIp, createdAt ?? null]);
        return result.rows[0] ? toRecord(result.rows[0]) : null;
      }
      return sql.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [FREE_KEY_LOCK_SPACE, clientIp ?? '']);
        // A new statement, so a new snapshot (read committed): it sees the keys the previous
        // holder of the lock committed.
        const result = await tx.query<KeyRow>(INSERT_KEY_WITHIN_LIMIT, [
          hash,
          prefix,
          plan,
          email,
          clientIp,
          freeLimit.since,
          freeLimit.count,
          createdAt ?? null,
        ]);
        return result.rows[0] ? toRecord(result.rows[0]) : null;
      });
    },

    async findByHash(hash) {
      const result = await sql.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [hash]);
      return result.rows[0] ? toRecord(result.rows[0]) : null;
    },

    async listKeys(month, prefix) {
      // The unqualified columns are all api_keys' own: api_usage has none of those names.
      const result = await sql.query<KeyRow & { used: number }>(
        `SELECT ${KEY_COLUMNS}, coalesce(u.used, 0) AS used
         FROM api_keys k LEFT JOIN api_usage u ON u.key_id = k.id AND u.month = $1::text
         WHERE $2::text IS NULL OR k.prefix LIKE $2::text ESCAPE '\\'
         ORDER BY k.created_at, k.id`,
        [month, prefix === undefined ? null : startsWith(prefix)],
      );
      return result.rows.map((row) => ({ ...toRecord(row), used: Number(row.used) }));
    },

    async revokeKeys(prefix) {
      const result = await sql.query<KeyRow>(
        `UPDATE api_keys SET revoked_at = now() WHERE prefix LIKE $1::text ESCAPE '\\' AND revoked_at IS NULL
         RETURNING ${KEY_COLUMNS}`,
        [startsWith(prefix)],
      );
      return result.rows.map(toRecord).sort((a, b) => a.id - b.id);
    },

    consumeRequest: consumeOne,

    async consumeRequests(keyId, month, limit, count) {
      if (!Number.isInteger(count) || count < 1)
        throw new Error(`consumeRequests: count must be 1 or more, got ${count}`);
      // One request keeps the single statement above, the hot path of every other call.
      if (count === 1) {
        const used = await consumeOne(keyId, month, limit);
        return used === null ? { counted: false, left: 0 } : { counted: true, left: Math.max(0, limit - used) };
      }
      const result = await sql.query<{ counted: number | null; found: number | null }>(CONSUME_MANY, [
        keyId,
        month,
        limit,
        count,
      ]);
      const { counted, found } = result.rows[0]!;
      return takeOf(limit, counted, found);
    },

    async identifyAndConsume(hash, month, limits, count) {
      if (!Number.isInteger(count) || count < 1)
        throw new Error(`identifyAndConsume: count must be 1 or more, got ${count}`);
      const plans = Object.keys(limits) as Plan[];
      const result = await sql.query<KeyRow & { quota: number | null; counted: number | null; found: number | null }>(
        IDENTIFY_AND_CONSUME,
        [hash, month, plans, plans.map((plan) => limits[plan]), count],
      );
      const row = result.rows[0];
      if (!row) return null;
      const key = toRecord(row);
      if (key.revoked_at !== null) return { key, take: null };
      return { key, take: takeOf(Number(row.quota ?? 0), row.counted, row.found) };
    },

    async refundRequest(keyId, month, count = 1) {
      await sql.query(REFUND, [keyId, month, count]);
    },
  };
}
