/**
 * IndexBuilds on Postgres: a full search index build shared by several processes (tables
 * index_builds and index_build_ranges). The ranges are cut from the companies table when the build
 * starts; each is claimed with SELECT … FOR UPDATE SKIP LOCKED under a lease on the database's
 * clock, as bulk files are (load-claims.ts). The build is published by exactly one process: the
 * first whose claim finds every range done (a separate statement from marking its own range done,
 * so that of two processes finishing the last two ranges at once, the later one sees both).
 */
import type { Sql } from '../../ports/sql.ts';
import type { IndexBuilds, IndexBuildStatus, IndexRange } from '../../ports/shared-work.ts';
import { indexSources } from './company-store.ts';

/** The first key of the lock that makes starting a build one step (its own number). */
const BUILD_START_LOCK_SPACE = 5_310_444;

const LEASE_UNTIL = `now() + make_interval(secs => $3)`;

export function createIndexBuilds(sql: Sql): IndexBuilds {
  return {
    joinOrStart(target, rangeSize, index) {
      return sql.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [BUILD_START_LOCK_SPACE, target]);
        const open = await tx.query<{ id: number; index_name: string; indexed_through: string }>(
          `SELECT id, index_name, indexed_through::text FROM index_builds
           WHERE target = $1 AND status IN ('building', 'publishing')`,
          [target],
        );
        const found = open.rows[0];
        if (found) {
          if (await index.exists(found.index_name))
            return {
              build: { id: found.id, indexName: found.index_name, indexedThrough: found.indexed_through },
              started: false,
            };
          // Its index was deleted (by hand, or by a later build's publication): nothing to join.
          await tx.query(`UPDATE index_builds SET status = 'abandoned', finished_at = now() WHERE id = $1`, [found.id]);
        }
        const now = (await tx.query<{ now: string }>('SELECT now()::text AS now')).rows[0]!.now;
        const indexName = await index.create();
        const build = await tx.query<{ id: number }>(
          `INSERT INTO index_builds (target, index_name, indexed_through, status) VALUES ($1, $2, $3, 'building') RETURNING id`,
          [target, indexName, now],
        );
        const id = build.rows[0]!.id;
        // Every rangeSize-th number ends a range; the last range runs to the end (companies added
        // meanwhile are in it, or in the next update).
        await tx.query(
          `WITH ends AS (
             SELECT company_number FROM (
               SELECT company_number, row_number() OVER (ORDER BY company_number) AS n FROM companies) AS numbered
             WHERE n % $2::int = 0),
           bounds AS (
             SELECT coalesce(lag(company_number) OVER (ORDER BY company_number), '') AS after_number,
               company_number AS last_number FROM ends)
           INSERT INTO index_build_ranges (build_id, after_number, last_number)
           SELECT $1::bigint, after_number, last_number FROM bounds
           UNION ALL
           SELECT $1::bigint, coalesce((SELECT max(company_number) FROM ends), ''), NULL`,
          [id, rangeSize],
        );
        return { build: { id, indexName, indexedThrough: now }, started: true };
      });
    },

    async claimRange(buildId, lease) {
      const claimed = await sql.query<{ after_number: string; last_number: string | null; previous: string | null }>(
        `WITH next AS (
           SELECT after_number, holder AS previous FROM index_build_ranges
           WHERE build_id = $1 AND NOT done AND (lease_until IS NULL OR lease_until < now())
           ORDER BY after_number LIMIT 1
           FOR UPDATE SKIP LOCKED)
         UPDATE index_build_ranges r SET holder = $2, lease_until = ${LEASE_UNTIL}, claims = r.claims + 1
         FROM next WHERE r.build_id = $1 AND r.after_number = next.after_number
         RETURNING r.after_number, r.last_number, next.previous`,
        [buildId, lease.holder, lease.seconds],
      );
      const row = claimed.rows[0];
      if (row)
        return {
          claimed: { piece: { after: row.after_number, last: row.last_number }, takenOverFrom: row.previous },
          heldElsewhere: 0,
        };
      const held = await sql.query<{ held: number }>(
        `SELECT count(*)::int AS held FROM index_build_ranges
         WHERE build_id = $1 AND NOT done AND lease_until >= now() AND holder <> $2`,
        [buildId, lease.holder],
      );
      return { claimed: null, heldElsewhere: held.rows[0]!.held };
    },

    async renewRange(buildId, range, lease) {
      const result = await sql.query(
        `UPDATE index_build_ranges SET lease_until = ${LEASE_UNTIL}
         WHERE build_id = $1 AND after_number = $4 AND holder = $2 AND NOT done`,
        [buildId, lease.holder, lease.seconds, range.after],
      );
      return result.rowCount > 0;
    },

    async rangeHolders(buildId) {
      const result = await sql.query<{ holder: string }>(
        `SELECT DISTINCT holder FROM index_build_ranges WHERE build_id = $1 AND NOT done AND lease_until >= now()`,
        [buildId],
      );
      return result.rows.map((row) => row.holder);
    },

    async expireRanges(buildId, holder) {
      const result = await sql.query(
        `UPDATE index_build_ranges SET lease_until = now() - interval '1 second'
         WHERE build_id = $1 AND holder = $2 AND NOT done AND lease_until >= now()`,
        [buildId, holder],
      );
      return result.rowCount;
    },

    async finishRange(buildId, range, holder, documents) {
      const result = await sql.query(
        `UPDATE index_build_ranges SET done = true, holder = NULL, lease_until = NULL, written_by = $3,
           documents = $4, finished_at = now()
         WHERE build_id = $1 AND after_number = $2 AND holder = $3 AND NOT done`,
        [buildId, range.after, holder, documents],
      );
      return result.rowCount > 0;
    },

    async claimPublish(buildId, lease) {
      // Row-locked by the UPDATE: of two processes asking at once, the second re-reads the status
      // the first wrote and matches nothing.
      const result = await sql.query(
        `UPDATE index_builds SET status = 'publishing', holder = $2, lease_until = ${LEASE_UNTIL}
         WHERE id = $1 AND (
           (status = 'building' AND NOT EXISTS (SELECT 1 FROM index_build_ranges WHERE build_id = $1 AND NOT done))
           OR (status = 'publishing' AND lease_until < now()))`,
        [buildId, lease.holder, lease.seconds],
      );
      return result.rowCount > 0;
    },

    async renewPublish(buildId, lease) {
      const result = await sql.query(
        `UPDATE index_builds SET lease_until = ${LEASE_UNTIL} WHERE id = $1 AND holder = $2 AND status = 'publishing'`,
        [buildId, lease.holder, lease.seconds],
      );
      return result.rowCount > 0;
    },

    async finishBuild(buildId, holder) {
      await sql.query(
        `UPDATE index_builds SET status = 'done', finished_at = now(), lease_until = NULL
         WHERE id = $1 AND holder = $2 AND status = 'publishing'`,
        [buildId, holder],
      );
    },

    async status(buildId) {
      const result = await sql.query<{ status: IndexBuildStatus }>(`SELECT status FROM index_builds WHERE id = $1`, [
        buildId,
      ]);
      return result.rows[0]?.status ?? 'abandoned';
    },

    async *companiesInRange(range: IndexRange, batchSize) {
      let after = range.after;
      for (;;) {
        const batch = await indexSources(sql, { after, through: range.last }, batchSize);
        if (batch.length === 0) return;
        yield batch;
        after = batch.at(-1)!.company.company_number;
      }
    },
  };
}
