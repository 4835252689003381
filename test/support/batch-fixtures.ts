/**
 * For the batch lookup's tests (REST and MCP): a hundred more companies on the register, and a
 * Sql that records the statements sent through it, to count round trips.
 */
import type { Sql } from '../../src/ports/sql.ts';
import type { RegisterFixture } from './api-world.ts';

/** 100 more companies on the register, 00100000–00100099, besides the six of the fixtures. */
export const moreCompanies: RegisterFixture[] = Array.from({ length: 100 }, (_, i) => ({
  number: `00100${String(i).padStart(3, '0')}`,
  name: `BATCH COMPANY ${i} LIMITED`,
  nextDue: '2025-09-30',
}));

/** A Sql that records every statement sent through it (a transaction as BEGIN and its own). */
export function countingSql(sql: Sql): { sql: Sql; statements: string[] } {
  const statements: string[] = [];
  const client = (inner: Pick<Sql, 'query'>): Pick<Sql, 'query'> => ({
    query: (text, params) => {
      statements.push(text);
      return inner.query(text, params);
    },
  });
  return {
    statements,
    sql: {
      dialect: sql.dialect,
      query: client(sql).query,
      transaction: (work) => {
        statements.push('BEGIN');
        return sql.transaction((tx) => work(client(tx)));
      },
      exec: (text) => {
        statements.push(text);
        return sql.exec(text);
      },
      close: () => sql.close(),
    },
  };
}
