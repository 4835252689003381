/**
 * A full rebuild of a Postgres search table without downtime, shared by the companies and people
 * indexes: the new rows go into a side table without indexes (faster to fill), which then gets the
 * primary key and the live table's indexes (as the migrations made them) and is swapped in by one
 * transaction, so searches never see it half-built. Two full rebuilds of one table at once are
 * refused: they would fill the same side table. Also the upkeep both tables answer alike.
 */
import type { Sql, SqlClient } from '../../ports/sql.ts';

export interface RebuildBeside<Row> {
  table: string;
  /** The live table's primary key column. */
  key: string;
  /** An advisory lock key of this table's rebuilds (any fixed number no other code uses). */
  lock: number;
  /** What to call it in the refusal: "the Postgres search index". */
  description: string;
  /** Writes one batch into `table` (the side table). */
  insert(sql: Sql, table: string, rows: readonly Row[]): Promise<void>;
}

/**
 * The upkeep both search tables answer alike: nothing to refresh (Postgres reads its own writes),
 * never outdated (a migration that changes a table empties it, and an empty index is rebuilt in
 * full), and the count of its rows.
 */
export function tableUpkeep(
  sql: Sql,
  table: string,
): { refresh(): Promise<void>; outdated(): Promise<boolean>; count(): Promise<number> } {
  return {
    async refresh() {},
    async outdated() {
      return false;
    },
    async count() {
      const result = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
      return result.rows[0]!.count;
    },
  };
}

/** Rebuild `options.table` from `batches`; returns how many rows were written. */
export async function rebuildBeside<Row>(
  sql: Sql,
  options: RebuildBeside<Row>,
  batches: AsyncIterable<readonly Row[]>,
): Promise<number> {
  // The lock is held by a transaction on a connection of its own. PGlite is one process on one
  // connection (a transaction there would block the rebuild's own reads), so it needs none.
  if (sql.dialect === 'pglite') return fillAndSwap(sql, options, batches);
  return sql.transaction(async (tx) => {
    const lock = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [options.lock]);
    if (!lock.rows[0]?.locked) {
      throw new Error(
        `Another full rebuild of ${options.description} is running; run this one again when it has finished.`,
      );
    }
    return fillAndSwap(sql, options, batches);
  });
}

async function fillAndSwap<Row>(
  sql: Sql,
  { table, key, insert }: RebuildBeside<Row>,
  batches: AsyncIterable<readonly Row[]>,
): Promise<number> {
  const next = `${table}_next`;
  await sql.exec(`DROP TABLE IF EXISTS ${next}; CREATE TABLE ${next} (LIKE ${table} INCLUDING DEFAULTS)`);
  let count = 0;
  for await (const batch of batches) {
    await insert(sql, next, batch);
    count += batch.length;
  }
  await sql.exec(`ALTER TABLE ${next} ADD PRIMARY KEY (${key})`);
  for (const definition of await secondaryIndexes(sql, table, next)) await sql.exec(definition);
  await sql.exec(`ANALYZE ${next}`);
  await sql.transaction(async (tx) => {
    await tx.query(`DROP TABLE ${table}`);
    await tx.query(`ALTER TABLE ${next} RENAME TO ${table}`);
  });
  return count;
}

/** The live table's index definitions (from migrations), rewritten for the side table. */
async function secondaryIndexes(sql: SqlClient, table: string, next: string): Promise<string[]> {
  const result = await sql.query<{ indexdef: string }>(
    `SELECT indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT IN (
       SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p')`,
    [table],
  );
  return result.rows.map((row) =>
    row.indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON (\S+\.)?\S+ /, `CREATE $1INDEX ON ${next} `),
  );
}
