/**
 * The day overdue is judged on after a register load (overdueJudgedOn): today for a current
 * snapshot, the snapshot's own date for history; and what that makes of a company's accounts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAccountsOverdue, overdueJudgedOn } from '../../src/domain/company-status.ts';

describe('overdueJudgedOn', () => {
  const cases: { name: string; snapshot: string; today: string; want: string }[] = [
    { name: 'this month’s snapshot: today', snapshot: '2026-11-01', today: '2026-11-26', want: '2026-11-26' },
    { name: 'last month’s, loaded late: today', snapshot: '2026-10-01', today: '2026-11-14', want: '2026-11-14' },
    { name: 'two months old: its own date', snapshot: '2026-09-01', today: '2026-11-26', want: '2026-09-01' },
    {
      name: 'a 2016 snapshot loaded in 2026: its own date',
      snapshot: '2016-11-02',
      today: '2026-11-26',
      want: '2016-11-02',
    },
    {
      name: 'dated after today (a clock behind): today',
      snapshot: '2026-12-01',
      today: '2026-11-26',
      want: '2026-11-26',
    },
  ];
  for (const { name, snapshot, today, want } of cases)
    test(name, () => assert.equal(overdueJudgedOn(snapshot, today), want));

  test('a company of a 2016 snapshot, accounts due 2017, is not overdue on the day judged', () => {
    const company = { status: 'Active', accounts_next_due: '2017-08-31', accounts_last_made_up_to: '2015-11-30' };
    assert.equal(isAccountsOverdue(company, null, '2026-11-26'), true, 'against today it would be');
    assert.equal(isAccountsOverdue(company, null, overdueJudgedOn('2016-11-02', '2026-11-26')), false);
  });
});
