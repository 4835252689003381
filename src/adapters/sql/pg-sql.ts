/**
 * The Sql port on a real PostgreSQL server through a pg pool.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { dependencyUnavailable } from '../../errors.ts';
import type { Sql, SqlClient, SqlResult } from '../../ports/sql.ts';
import { isPgUnavailable } from './pg-unavailable.ts';

// Dates stay ISO strings ("2024-03-31"): the service never wants a JS Date shifted by a time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

const statementNames = new Map<string, string>();
/**
 * Each connection keeps every statement it prepared for its lifetime, so only the first so many
 * distinct texts are prepared; criteria search builds its text from the filters given, and the
 * rarer combinations run unprepared rather than grow every connection without bound.
 */
const MAX_PREPARED = 400;

/** A short stable name per statement text (pg keeps prepared statements per connection by name). */
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `ukcd_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

export interface PgSqlOptions {
  connectionString: string;
  max?: number;
  /**
   * A query running longer than this is cancelled by the server, and abandoned by the client a
   * second later if the server does not answer at all (a frozen or unreachable host), so a stuck
   * database never hangs a request. Unset: no limit (the loaders' long statements).
   */
  statementTimeoutMs?: number;
  /** How long to wait for a free connection before failing (default 5 s). */
  connectionTimeoutMs?: number;
}

export function createPgSql(options: PgSqlOptions): Sql {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    statement_timeout: options.statementTimeoutMs ?? 0,
    ...(options.statementTimeoutMs ? { query_timeout: options.statementTimeoutMs + 1000 } : {}),
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);

  const run = async <Row>(
    client: pg.Pool | pg.PoolClient,
    text: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>> => {
    // Parameterised statements are prepared once per connection and reused by name: the service
    // runs the same few statements many times a second, and parsing and planning them each time
    // cost a large share of a lookup. Statements without parameters (DDL, SET) run as they are.
    const name = params && params.length > 0 ? statementName(text) : undefined;
    try {
      const result = name
        ? await client.query({ name, text, values: params as unknown[] })
        : await client.query(text, params as unknown[] | undefined);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw unavailableOr(error);
    }
  };

  return {
    dialect: 'postgres',
    query: (text, params) => run(pool, text, params),
    async exec(text) {
      await pool.query(text).catch((error: unknown) => {
        throw unavailableOr(error);
      });
    },
    async transaction(work) {
      const client = await pool.connect().catch((error: unknown) => {
        throw unavailableOr(error);
      });
      try {
        await client.query('BEGIN');
        const tx: SqlClient = {
          query: (text, params) => run(client, text, params),
          async copyFrom(statement, data) {
            await pipeline(Readable.from([data]), client.query(copyFromStdin(statement))).catch((error: unknown) => {
              throw unavailableOr(error);
            });
          },
        };
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
    async *scan<Row>(text: string, batchRows: number, params?: readonly unknown[]): AsyncGenerator<Row[]> {
      const client = await pool.connect().catch((error: unknown) => {
        throw unavailableOr(error);
      });
      let committed = false;
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        // The scan sorts millions of rows: a quarter of a GB for it rather than spills of 4 MB.
        await client.query(`SET LOCAL work_mem = '256MB'`);
        // Every row is read: plan for all of them. By default a cursor is planned for its first
        // tenth, which chose an index scan in key order and random heap reads over a sort.
        await client.query(`SET LOCAL cursor_tuple_fraction = 1.0`);
        // Parameters bind to the cursor's query (the extended protocol carries them with DECLARE).
        await client.query(`DECLARE ukcd_scan NO SCROLL CURSOR FOR ${text}`, params as unknown[] | undefined);
        for (;;) {
          const result = await client.query(`FETCH ${Math.max(1, Math.floor(batchRows))} FROM ukcd_scan`);
          if (result.rows.length === 0) break;
          yield result.rows as Row[];
        }
        await client.query('COMMIT');
        committed = true;
      } catch (error) {
        throw unavailableOr(error);
      } finally {
        if (!committed) await client.query('ROLLBACK').catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** A server down, restarting or too slow becomes the port's "store unavailable"; anything else is ours. */
function unavailableOr(error: unknown): unknown {
  return isPgUnavailable(error) ? dependencyUnavailable('store', error) : error;
}
