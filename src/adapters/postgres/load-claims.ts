/**
 * LoadClaims on Postgres (pg or PGlite): table load_claims, one row per bulk file, with the lease
 * of the process loading it. What is done is read from load_journal, the record of every attempt.
 * Times are the database's, so machines whose clocks differ agree on when a lease ran out.
 */
import type { LoadKind } from '../../domain/loads.ts';
import type { Sql } from '../../ports/sql.ts';
import type { LoadClaims } from '../../ports/shared-work.ts';

/** The files of the list not done: no completed load of the same size, finished since when asked. */
const NOT_DONE = `NOT EXISTS (
  SELECT 1 FROM load_journal j
  WHERE j.kind = $1 AND j.source = f.source AND j.status = 'done'
    AND (f.size IS NULL OR (j.detail->>'size')::bigint = f.size)
    AND (f.since IS NULL OR j.finished_at >= f.since))`;

const FILES = `unnest($2::text[], $3::bigint[], $4::timestamptz[]) WITH ORDINALITY AS f(source, size, since, n)`;

export function createLoadClaims(sql: Sql): LoadClaims {
  return {
    async register(kind, sources) {
      if (sources.length === 0) return;
      await sql.query(
        `INSERT INTO load_claims (kind, source) SELECT $1, s FROM unnest($2::text[]) AS s ON CONFLICT DO NOTHING`,
        [kind, [...new Set(sources)]],
      );
    },

    async claimNext(kind: LoadKind, files, lease) {
      const params = [
        kind,
        files.map((file) => file.source),
        files.map((file) => file.size),
        files.map((file) => file.doneSince),
      ];
      // Rows another process is claiming at this instant are skipped, not waited for.
      const claimed = await sql.query<{ source: string; previous: string | null }>(
        `WITH next AS (
           SELECT c.kind, c.source, c.holder AS previous
           FROM ${FILES} JOIN load_claims c ON c.kind = $1 AND c.source = f.source
           WHERE (c.lease_until IS NULL OR c.lease_until < now()) AND ${NOT_DONE}
           ORDER BY f.n LIMIT 1
           FOR UPDATE OF c SKIP LOCKED)
         UPDATE load_claims c SET holder = $5, lease_until = now() + make_interval(secs => $6), claims = c.claims + 1
         FROM next WHERE c.kind = next.kind AND c.source = next.source
         RETURNING c.source, next.previous`,
        [...params, lease.holder, lease.seconds],
      );
      const row = claimed.rows[0];
      if (row) return { claimed: { piece: row.source, takenOverFrom: row.previous }, heldElsewhere: 0 };
      const held = await sql.query<{ held: number }>(
        `SELECT count(*)::int AS held FROM ${FILES} JOIN load_claims c ON c.kind = $1 AND c.source = f.source
         WHERE c.lease_until >= now() AND c.holder <> $5 AND ${NOT_DONE}`,
        [...params, lease.holder],
      );
      return { claimed: null, heldElsewhere: held.rows[0]!.held };
    },

    async renew(kind, source, lease) {
      const result = await sql.query(
        `UPDATE load_claims SET lease_until = now() + make_interval(secs => $4)
         WHERE kind = $1 AND source = $2 AND holder = $3`,
        [kind, source, lease.holder, lease.seconds],
      );
      return result.rowCount > 0;
    },

    async holders(kind) {
      const result = await sql.query<{ holder: string }>(
        `SELECT DISTINCT holder FROM load_claims WHERE kind = $1 AND lease_until >= now()`,
        [kind],
      );
      return result.rows.map((row) => row.holder);
    },

    async expire(kind, holder) {
      const result = await sql.query(
        `UPDATE load_claims SET lease_until = now() - interval '1 second' WHERE kind = $1 AND holder = $2 AND lease_until >= now()`,
        [kind, holder],
      );
      return result.rowCount;
    },

    async release(kind, source, holder) {
      await sql.query(
        `UPDATE load_claims SET holder = NULL, lease_until = NULL WHERE kind = $1 AND source = $2 AND holder = $3`,
        [kind, source, holder],
      );
    },
  };
}
