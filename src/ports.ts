/**
 * Ports: what the domain and the entry points need from the outside world, in their terms.
 * Adapters under src/adapters implement them; only src/main.ts and the loaders' composition
 * choose which.
 */

export interface SqlResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** Parameterised SQL on Postgres: a pg pool, or PGlite in-process. The same SQL runs on both. */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
}

export interface Sql extends SqlClient {
  readonly dialect: 'postgres' | 'pglite';
  /** Run `work` in one transaction on one connection; rolled back if it throws. */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
  /** Several statements at once, without parameters (migrations). */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}
