import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAccountsOverdue, statusGroups } from '../../src/domain/company-status.ts';
import type { AccountsDueFacts } from '../../src/domain/company-status.ts';
import { companyTypeKey } from '../../src/domain/company-type.ts';
import { formatChange, formatMoney } from '../../src/domain/money.ts';
import { sizeBand } from '../../src/domain/size-band.ts';

describe('sizeBand', () => {
  const cases: [turnover: number | null, employees: number | null, band: string | null][] = [
    [null, null, null],
    [1_000_000, 10, 'micro'],
    [1_000_001, 10, 'small'],
    [500_000, 11, 'small'],
    [null, 10, 'micro'],
    [15_000_000, null, 'small'],
    [15_000_001, 50, 'medium'],
    [54_000_000, 250, 'medium'],
    [54_000_001, 3, 'large'],
    [100, 251, 'large'],
  ];
  for (const [turnover, employees, band] of cases)
    test(`turnover ${turnover}, employees ${employees}: ${band}`, () =>
      assert.equal(sizeBand(turnover, employees), band));
});

describe('formatMoney and formatChange', () => {
  const cases: [number | null, string][] = [
    [1_234_567, '£1.2m'],
    [-45_000, '-£45k'],
    [-4_500, '-£4.5k'],
    [-2_300_000_000, '-£2.3bn'],
    [-850, '-£850'],
    [-0.4, '£0'],
    [850, '£850'],
    [2_300_000_000, '£2.3bn'],
    [120_000_000, '£120m'],
    [999.6, '£1000'],
    [0, '£0'],
    [1_000_000, '£1m'],
    [null, 'n/a'],
  ];
  for (const [amount, text] of cases) test(`${amount} is ${text}`, () => assert.equal(formatMoney(amount), text));
  test('changes in words', () => {
    assert.equal(formatChange(45.4), 'up 45%');
    assert.equal(formatChange(-12.6), 'down 13%');
    assert.equal(formatChange(0.2), 'unchanged');
  });
});

describe('statusGroups', () => {
  const cases: [string, string[]][] = [
    ['Active', ['active']],
    ['Active - Proposal to Strike off', ['active', 'proposal_to_strike_off']],
    ['Liquidation', ['liquidation']],
    ['In Administration', ['administration']],
    ['RECEIVERSHIP', ['receivership']],
    ['Live but Receiver Manager on at least one charge', ['receivership']],
    ['Voluntary Arrangement', ['voluntary_arrangement']],
    ['Dissolved', ['dissolved']],
    ['Converted / Closed', ['dissolved']],
  ];
  for (const [status, groups] of cases) test(status, () => assert.deepEqual(statusGroups(status), groups));
});

describe('isAccountsOverdue', () => {
  // The company: the 2026-11-01 snapshot knows accounts to 2025-01-31 and wants the next
  // by 2026-10-31; the accounts to 2026-01-31 were published on 2026-11-17.
  const register: AccountsDueFacts = {
    status: 'Active',
    accounts_next_due: '2026-10-31',
    accounts_last_made_up_to: '2025-01-31',
  };
  const cases: {
    name: string;
    company?: Partial<AccountsDueFacts>;
    newestFiled: string | null;
    asOf?: string;
    want: boolean;
  }[] = [
    { name: 'due date passed, nothing newer on file', newestFiled: '2025-01-31', want: true },
    { name: 'due date passed, no accounts on file at all', newestFiled: null, want: true },
    { name: 'due today is not overdue yet', newestFiled: '2025-01-31', asOf: '2026-10-31', want: false },
    { name: 'accounts made up to a later date are on file: the register lags', newestFiled: '2026-01-31', want: false },
    {
      name: 'the history lacks the accounts the register knows of: still overdue',
      newestFiled: '2024-01-31',
      want: true,
    },
    {
      name: 'the register knows of no accounts, but some are on file',
      company: { accounts_last_made_up_to: null },
      newestFiled: '2026-01-31',
      want: false,
    },
    {
      name: 'first accounts due and none on file',
      company: { accounts_last_made_up_to: null },
      newestFiled: null,
      want: true,
    },
    { name: 'dissolved: nothing left to file', company: { status: 'Dissolved' }, newestFiled: null, want: false },
    { name: 'no due date', company: { accounts_next_due: null }, newestFiled: null, want: false },
  ];
  for (const { name, company = {}, newestFiled, asOf = '2026-11-21', want } of cases)
    test(name, () => assert.equal(isAccountsOverdue({ ...register, ...company }, newestFiled, asOf), want));
});

describe('companyTypeKey', () => {
  test('short names and the register spelling give one key, whatever the case', () => {
    assert.equal(companyTypeKey('ltd'), 'private limited company');
    assert.equal(companyTypeKey('Private Limited Company'), 'private limited company');
    assert.equal(companyTypeKey(' PLC '), 'public limited company');
    assert.equal(companyTypeKey('LLP'), 'limited liability partnership');
    assert.equal(companyTypeKey('Scottish  Partnership'), 'scottish partnership');
  });
});
