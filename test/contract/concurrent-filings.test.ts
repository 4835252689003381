/**
 * Two processes saving filings of the same companies at the same moment (a shared load's processes
 * each loading a different bulk file, docs/shared-loads.md): each batch's history rebuild must see
 * the other's filing, or be refused and done again, so that the history is the one a single load
 * of both builds. Real PostgreSQL, two connection pools as two processes would have.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createPgSql } from '../../src/adapters/sql/pg-sql.ts';
import type { FilingRecord } from '../../src/domain/filings.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { dumpState, freshPostgres } from '../support/databases.ts';
import { figures, filing } from '../support/store-records.ts';

describe('saveFilings from two processes at once, on the same companies', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let other: Sql;
  before(async () => {
    db = await freshPostgres();
    other = createPgSql({ connectionString: db.url });
  });
  after(async () => {
    await other.close();
    await db.drop();
  });

  test('ends with the history one process builds, however the transactions interleave', async () => {
    const [first, second] = [createCompanyStore(db.sql), createCompanyStore(other)];
    const numbers = (round: number) =>
      Array.from({ length: 20 }, (_, i) => `SC${String(round * 100 + i).padStart(6, '0')}`);
    // The later filing's prior year is the earlier filing's current year: both rebuilds write a
    // history row for 2023-03-31, the conflict a shared load meets.
    const earlier = (number: string): FilingRecord =>
      filing(number, 'Accounts_Bulk_Data-2023-06-01.zip', `${number}-2023.html`, '2023-03-31', 100, {
        published: '2023-06-01',
      });
    const later = (number: string): FilingRecord =>
      filing(number, 'Accounts_Bulk_Data-2024-06-01.zip', `${number}-2024.html`, '2024-03-31', 300, {
        published: '2024-06-01',
        prior_balance_sheet_date: '2023-03-31',
        prior: figures(200),
      });
    for (let round = 0; round < 15; round++) {
      await Promise.all([
        first.saveFilings(numbers(round).map(earlier), []),
        second.saveFilings(numbers(round).map(later), []),
      ]);
    }
    const concurrent = await dumpState(db.sql);
    // Saving every filing again, one batch at a time, rebuilds each history from all its filings.
    for (let round = 0; round < 15; round++)
      await first.saveFilings(
        numbers(round).flatMap((n) => [earlier(n), later(n)]),
        [],
      );
    assert.equal(concurrent, await dumpState(db.sql));
    const history = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM accounts_history`);
    assert.equal(history.rows[0]!.n, 15 * 20 * 2);
  });
});
