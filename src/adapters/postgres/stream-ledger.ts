/**
 * StreamLedger on Postgres (pg or PGlite): table stream_positions, one row per stream with its
 * position and its lease. The lease row is locked (FOR UPDATE) by the transaction that applies a
 * batch, so a holder whose lease ran out and was taken over cannot write a batch beside the new
 * holder: its transaction finds the row no longer its own and applies nothing. Times are the
 * database's, as for load claims (load-claims.ts).
 */
import type { Sql } from '../../ports/sql.ts';
import type { StreamLedger } from '../../ports/stream-ledger.ts';

export function createStreamLedger(sql: Sql): StreamLedger {
  return {
    async claim(stream, lease) {
      await sql.query(`INSERT INTO stream_positions (stream) VALUES ($1) ON CONFLICT DO NOTHING`, [stream]);
      const result = await sql.query(
        `UPDATE stream_positions SET holder = $2, lease_until = now() + make_interval(secs => $3)
         WHERE stream = $1 AND (holder IS NULL OR holder = $2 OR lease_until < now())`,
        [stream, lease.holder, lease.seconds],
      );
      return result.rowCount > 0;
    },

    async renew(stream, lease) {
      const result = await sql.query(
        `UPDATE stream_positions SET lease_until = now() + make_interval(secs => $3) WHERE stream = $1 AND holder = $2`,
        [stream, lease.holder, lease.seconds],
      );
      return result.rowCount > 0;
    },

    async release(stream, holder) {
      await sql.query(
        `UPDATE stream_positions SET holder = NULL, lease_until = NULL WHERE stream = $1 AND holder = $2`,
        [stream, holder],
      );
    },

    async position(stream) {
      const result = await sql.query<{ timepoint: string | null; published_at: string | null }>(
        `SELECT timepoint::text, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS published_at
         FROM stream_positions WHERE stream = $1`,
        [stream],
      );
      const row = result.rows[0];
      return {
        timepoint: row?.timepoint == null ? null : Number(row.timepoint),
        publishedAt: row?.published_at ?? null,
      };
    },

    async newest() {
      const result = await sql.query<{ stream: string; published_at: string }>(
        `SELECT stream, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS published_at
         FROM stream_positions WHERE published_at IS NOT NULL
         ORDER BY stream_positions.published_at DESC, stream LIMIT 1`,
      );
      const row = result.rows[0];
      return row ? { stream: row.stream, publishedAt: row.published_at } : null;
    },

    applyBatch(stream, holder, events, applier) {
      return sql.transaction(async (tx) => {
        const held = await tx.query(
          `SELECT 1 FROM stream_positions WHERE stream = $1 AND holder = $2 AND lease_until >= now() FOR UPDATE`,
          [stream, holder],
        );
        if (held.rowCount === 0) return null;
        const applied = await applier.apply(tx, events);
        const last = events.at(-1);
        if (last) {
          await tx.query(
            `UPDATE stream_positions SET timepoint = $2, published_at = $3::timestamp AT TIME ZONE 'UTC',
               events_applied = events_applied + $4, updated_at = now()
             WHERE stream = $1`,
            [stream, last.event.timepoint, last.event.published_at.replace(/Z$/, ''), events.length],
          );
        }
        return applied;
      });
    },

    restartFromNow(stream, holder, reason) {
      return sql.transaction(async (tx) => {
        const held = await tx.query<{ timepoint: string | null; published_at: Date | null }>(
          `SELECT timepoint, published_at FROM stream_positions
           WHERE stream = $1 AND holder = $2 AND lease_until >= now() FOR UPDATE`,
          [stream, holder],
        );
        const row = held.rows[0];
        if (!row) return false;
        await tx.query(
          `INSERT INTO stream_gaps (stream, after_timepoint, after_published_at, reason) VALUES ($1, $2, $3, $4)`,
          [stream, row.timepoint, row.published_at, reason],
        );
        await tx.query(`UPDATE stream_positions SET timepoint = NULL, updated_at = now() WHERE stream = $1`, [stream]);
        return true;
      });
    },
  };
}
