/**
 * The Sql port on a real PostgreSQL server through a pg pool.
 */
import pg from 'pg';
import type { Sql, SqlClient, SqlResult } from '../../ports.ts';

// Dates stay ISO strings ("2024-03-31"): the service never wants a JS Date shifted by a time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export interface PgSqlOptions {
  connectionString: string;
  max?: number;
  /** A query running longer than this is cancelled, so a stuck server never hangs a request. */
  statementTimeoutMs?: number;
}

export function createPgSql(options: PgSqlOptions): Sql {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    statement_timeout: options.statementTimeoutMs ?? 0,
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);

  const run = async <Row>(
    client: pg.Pool | pg.PoolClient,
    text: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>> => {
    const result = await client.query(text, params as unknown[] | undefined);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  };

  return {
    dialect: 'postgres',
    query: (text, params) => run(pool, text, params),
    async exec(text) {
      await pool.query(text);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: SqlClient = { query: (text, params) => run(client, text, params) };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
