/** The Sql port: parameterised SQL that the Postgres adapters run on a pg pool or on PGlite alike. */

export interface SqlResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** Parameterised SQL on Postgres: a pg pool, or PGlite in-process. The same SQL runs on both. */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
  /**
   * PostgreSQL only, in a transaction: `COPY … FROM STDIN` (text format) fed with `data`. Far
   * cheaper for the server to read than the same rows as a JSON parameter.
   */
  copyFrom?(statement: string, data: string): Promise<void>;
}

export interface Sql extends SqlClient {
  readonly dialect: 'postgres' | 'pglite';
  /** Run `work` in one transaction on one connection; rolled back if it throws. */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only (absent on PGlite): one large read streamed `batchRows` rows at a time through
   * a cursor, in one read-only snapshot on a connection of its own, with memory for a large sort.
   * For a full rebuild, where one sequential scan and a sort beat millions of index lookups
   * scattered over the heap. Stopping early (return, throw) closes the cursor.
   */
  scan?<Row = Record<string, unknown>>(
    text: string,
    batchRows: number,
    params?: readonly unknown[],
  ): AsyncGenerator<Row[]>;
  /** Several statements at once, without parameters (migrations). */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}
