/**
 * A company's search documents with estimates: a filed and an estimated one, the estimated one
 * read from the history merged as the lookup merges it (even where filed figures cover every
 * estimated date, so that an update never leaves an old estimated document behind).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AccountsPeriod } from '../../src/domain/accounts-period.ts';
import { mergeEstimates } from '../../src/domain/estimated-history.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import { documentKey, searchDocuments } from '../../src/domain/search-document.ts';
import type { IndexedRegisterFacts } from '../../src/domain/search-document.ts';

const company: IndexedRegisterFacts = {
  company_number: '50000021',
  name: 'ESTIMATED LTD',
  status: 'Active',
  type: 'Private Limited Company',
  post_town: 'LEEDS',
  incorporated: '2010-01-01',
  sic_codes: [],
  accounts_next_due: '2025-12-31',
  accounts_last_made_up_to: '2024-12-31',
  charges_outstanding: 0,
};

const period = (date: string, turnover: number | null): AccountsPeriod => ({
  balance_sheet_date: date,
  published: null,
  figures: { ...emptyFigures(), turnover },
});

describe('mergeEstimates', () => {
  test('filed figures win per date; an empty filed entry takes the estimate; the first estimate of a date wins', () => {
    const { history, estimated } = mergeEstimates(
      [period('2024-12-31', 4_000), period('2023-12-31', null)],
      [period('2024-12-31', 9), period('2023-12-31', 3_000), period('2023-12-31', 1), period('2022-12-31', 2_000)],
    );
    assert.deepEqual(
      history.map((p) => [p.balance_sheet_date, p.figures.turnover]),
      [
        ['2024-12-31', 4_000],
        ['2023-12-31', 3_000],
        ['2022-12-31', 2_000],
      ],
    );
    assert.equal(estimated, 2);
  });
});

describe('searchDocuments', () => {
  test('no estimates: one document; estimates only of dates with filed figures: two alike', () => {
    const plain = searchDocuments({
      company,
      accounts: [period('2024-12-31', 4_000)],
      pscs: null,
      identity_overdue_from: null,
    });
    assert.deepEqual(
      plain.map((d) => [d.view, documentKey(d)]),
      [['only', '50000021']],
    );
    const shadowed = searchDocuments({
      company,
      accounts: [period('2024-12-31', 4_000)],
      pscs: null,
      identity_overdue_from: null,
      estimates: [period('2024-12-31', 5)],
    });
    // Both kept, so that an update never leaves an estimated document behind.
    assert.deepEqual(
      shadowed.map((d) => [d.view, d.turnover]),
      [
        ['filed', 4_000],
        ['estimated', 4_000],
      ],
    );
  });

  test('estimates in the history: the filed document and the estimated one, keyed apart', () => {
    const [filed, estimated, ...more] = searchDocuments({
      company,
      accounts: [],
      pscs: null,
      identity_overdue_from: null,
      estimates: [period('2024-03-31', 3_000_000)],
    });
    assert.equal(more.length, 0);
    assert.equal(filed!.view, 'filed');
    assert.equal(filed!.turnover, null);
    assert.equal(documentKey(filed!), '50000021');
    assert.equal(estimated!.view, 'estimated');
    assert.equal(estimated!.turnover, 3_000_000);
    assert.equal(estimated!.balance_sheet_date, '2024-03-31');
    assert.equal(documentKey(estimated!), '50000021~estimated');
  });
});
