import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAccountsOverdue, statusGroups } from '../../src/domain/company-status.ts';
import type { AccountsDueFacts } from '../../src/domain/company-status.ts';
import { companyTypeKey } from '../../src/domain/company-type.ts';
import { formatChange, formatMoney } from '../../src/domain/money.ts';
import { periodStart } from '../../src/domain/accounts-period.ts';
import type { AccountsPeriod } from '../../src/domain/accounts-period.ts';
import { sizeBand } from '../../src/domain/size-band.ts';
import { searchDocument } from '../../src/domain/search-document.ts';
import { period } from './rules-support.ts';

describe('sizeBand', () => {
  // Periods from 6 April 2025 use the 2024 Regulations' thresholds, earlier ones the Act's before them.
  const NEW = '2025-04-06';
  const OLD = '2025-04-05';
  const cases: [turnover: number | null, employees: number | null, start: string, band: string | null][] = [
    [null, null, NEW, null],
    [null, null, OLD, null],
    [1_000_000, 10, NEW, 'micro'],
    [1_000_000, 10, OLD, 'small'],
    [632_000, 10, OLD, 'micro'],
    [632_001, 10, OLD, 'small'],
    [1_000_001, 10, NEW, 'small'],
    [500_000, 11, NEW, 'small'],
    [null, 10, NEW, 'micro'],
    [null, 10, OLD, 'micro'],
    [15_000_000, null, NEW, 'small'],
    [15_000_000, null, OLD, 'medium'],
    [10_200_000, null, OLD, 'small'],
    [10_200_001, null, OLD, 'medium'],
    [15_000_001, 50, NEW, 'medium'],
    [54_000_000, 250, NEW, 'medium'],
    [54_000_000, 250, OLD, 'large'],
    [36_000_000, 250, OLD, 'medium'],
    [36_000_001, 250, OLD, 'large'],
    [54_000_001, 3, NEW, 'large'],
    [100, 251, NEW, 'large'],
    [100, 251, OLD, 'large'],
    [800_000, 5, '2019-01-01', 'small'],
    [800_000, 5, '2026-01-01', 'micro'],
  ];
  for (const [turnover, employees, start, band] of cases)
    test(`turnover ${turnover}, employees ${employees}, period from ${start}: ${band}`, () =>
      assert.equal(sizeBand(turnover, employees, start), band));
});

describe('periodStart', () => {
  const cases: [balanceSheetDate: string, prior: string | null, start: string, why: string][] = [
    ['2026-04-05', '2025-04-05', '2025-04-06', 'the day after the prior balance sheet date'],
    ['2026-04-04', '2025-04-04', '2025-04-05', 'a day earlier, before the 2025 change'],
    ['2026-03-31', '2025-03-31', '2025-04-01', 'a March year end in 2026 began before 6 April 2025'],
    ['2026-03-31', '2025-09-30', '2025-10-01', 'a short period after a change of year end'],
    ['2026-03-31', '2024-09-30', '2024-10-01', 'a long period of 18 months'],
    ['2026-03-31', '2024-09-29', '2025-04-01', 'more than 18 months back is a gap: twelve months'],
    ['2026-04-05', null, '2025-04-06', 'no prior: twelve months'],
    ['2026-04-04', null, '2025-04-05', 'no prior, a day earlier'],
    ['2024-02-29', null, '2023-03-01', 'no prior, leap day: from 1 March'],
    ['2025-02-28', null, '2024-02-29', 'no prior, into a leap year'],
    ['2026-03-31', '2026-03-31', '2025-04-01', 'the same date is no prior period'],
  ];
  for (const [balanceSheetDate, prior, start, why] of cases)
    test(`${balanceSheetDate} after ${prior}: ${start} (${why})`, () =>
      assert.equal(periodStart(balanceSheetDate, prior), start));
});

describe('searchDocument size_band: the thresholds of the period the latest figures are for', () => {
  const company = {
    company_number: '00000001',
    name: 'ACME LTD',
    status: 'Active',
    type: 'Private Limited Company',
    post_town: null,
    incorporated: null,
    sic_codes: [],
    accounts_next_due: null,
    accounts_last_made_up_to: null,
    charges_outstanding: 0,
  };
  // £800k turnover is micro under the thresholds from 6 April 2025 (£1m), small under the earlier ones (£632k).
  const cases: [latest: string, prior: string | null, band: string][] = [
    ['2026-04-05', '2025-04-05', 'micro'],
    ['2026-04-04', '2025-04-04', 'small'],
    ['2026-04-05', null, 'micro'],
    ['2026-04-04', null, 'small'],
    ['2025-12-31', '2024-12-31', 'small'],
    ['2026-12-31', '2025-12-31', 'micro'],
  ];
  for (const [latest, prior, band] of cases)
    test(`year to ${latest} after ${prior}: ${band}`, () => {
      const history = [period(latest, { turnover: 800_000, employees: 5 })];
      if (prior !== null) history.push(period(prior, { turnover: 700_000 }));
      assert.equal(searchDocument(company, history).size_band, band);
    });

  // The filed start wins over the one read from the prior balance sheet date.
  const filed: [latest: string, start: string, prior: string | null, band: string][] = [
    ['2026-04-30', '2025-04-06', '2025-03-31', 'micro'],
    ['2026-04-30', '2025-04-05', null, 'small'],
    ['2026-03-31', '2025-04-06', '2025-03-31', 'micro'],
  ];
  for (const [latest, start, prior, band] of filed)
    test(`year to ${latest} filed as from ${start}: ${band}`, () => {
      const history: AccountsPeriod[] = [{ ...period(latest, { turnover: 800_000 }), period_start: start }];
      if (prior !== null) history.push({ ...period(prior, { turnover: 700_000 }), period_start: null });
      assert.equal(searchDocument(company, history).size_band, band);
    });
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
