/**
 * The Sql port on PGlite: Postgres compiled to WebAssembly, in this process, with its data in a
 * directory. The embedded default when no DATABASE_URL is set.
 */
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Sql, SqlClient, SqlResult } from '../../ports/sql.ts';

export interface PgliteSqlOptions {
  /** Data directory; omit for an in-memory database (tests). */
  dataDir?: string;
}

export async function createPgliteSql(options: PgliteSqlOptions = {}): Promise<Sql> {
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    extensions: { pg_trgm },
    // Same value shapes as the pg adapter: dates as ISO strings, big integers as numbers.
    parsers: {
      [types.DATE]: (value: string) => value,
      [types.INT8]: (value: string) => Number(value),
      [types.NUMERIC]: (value: string) => Number(value),
    },
  });

  const run = async <Row>(
    client: Pick<PGlite, 'query'>,
    text: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>> => {
    const result = await client.query<Row>(text, params as unknown[] | undefined);
    // PGlite reports affectedRows 0 for a SELECT; pg's rowCount is the rows returned.
    const returnsRows = result.fields.length > 0;
    return { rows: result.rows, rowCount: returnsRows ? result.rows.length : (result.affectedRows ?? 0) };
  };

  return {
    dialect: 'pglite',
    query: (text, params) => run(db, text, params),
    async exec(text) {
      await db.exec(text);
    },
    transaction: (work) =>
      db.transaction(async (tx) => {
        const client: SqlClient = { query: (text, params) => run(tx, text, params) };
        return work(client);
      }),
    close: () => db.close(),
  };
}
