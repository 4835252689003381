import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAccountsOverdue, statusGroups } from '../../src/domain/company-status.ts';
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

describe('statusGroups and isAccountsOverdue', () => {
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
  test('overdue once the due date has passed, never when dissolved or with no date', () => {
    assert.equal(isAccountsOverdue('2025-01-01', 'Active', '2025-01-02'), true);
    assert.equal(isAccountsOverdue('2025-01-01', 'Active', '2025-01-01'), false);
    assert.equal(isAccountsOverdue('2025-01-01', 'Dissolved', '2026-01-01'), false);
    assert.equal(isAccountsOverdue(null, 'Active', '2026-01-01'), false);
  });
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
