import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AccountsPeriod } from '../../src/domain/accounts-period.ts';
import { searchDocument, sicPrefixes } from '../../src/domain/search-document.ts';
import { explainTrigger, indexedFlags, triggerDates } from '../../src/domain/triggers.ts';
import { trajectory } from '../../src/domain/trajectory.ts';
import { period } from './rules-support.ts';

const flags = (accounts: AccountsPeriod[], charges = 0) =>
  indexedFlags({ company: { charges_outstanding: charges }, accounts, direction: trajectory(accounts).direction });

describe('indexedFlags', () => {
  const cases: { name: string; accounts: AccountsPeriod[]; want: string[] }[] = [
    {
      name: 'cash £500k and 40% of current assets is cash rich',
      accounts: [period('2024-12-31', { cash: 500_000, current_assets: 1_250_000 })],
      want: ['cash_rich'],
    },
    {
      name: 'cash under 40% of current assets is not',
      accounts: [period('2024-12-31', { cash: 500_000, current_assets: 1_250_001 })],
      want: [],
    },
    {
      name: 'cash without current assets is not',
      accounts: [period('2024-12-31', { cash: 900_000 })],
      want: [],
    },
    {
      name: 'net assets up exactly 30% is rapid growth (and growing)',
      accounts: [period('2024-12-31', { net_assets: 130_000 }), period('2023-12-31', { net_assets: 100_000 })],
      want: ['growing', 'rapid_growth'],
    },
    {
      name: 'net assets up 30% from exactly £10k is rapid growth',
      accounts: [period('2024-12-31', { net_assets: 13_000 }), period('2023-12-31', { net_assets: 10_000 })],
      want: ['growing', 'rapid_growth'],
    },
    {
      name: 'net assets £90 to £5.5k is not rapid growth: no material base',
      accounts: [period('2024-12-31', { net_assets: 5_499 }), period('2023-12-31', { net_assets: 90 })],
      want: ['growing'],
    },
    {
      name: 'net assets doubled from just under £10k is not rapid growth',
      accounts: [period('2024-12-31', { net_assets: 20_000 }), period('2023-12-31', { net_assets: 9_999 })],
      want: ['growing'],
    },
    {
      name: 'net assets from negative to positive is not rapid growth: no percentage',
      accounts: [period('2024-12-31', { net_assets: 130_000 }), period('2023-12-31', { net_assets: -100_000 })],
      want: ['growing'],
    },
    {
      name: 'hiring: up 20% and by 5',
      accounts: [period('2024-12-31', { employees: 30 }), period('2023-12-31', { employees: 25 })],
      want: ['growing', 'hiring'],
    },
    {
      name: 'up 4 people is not hiring, whatever the percentage',
      accounts: [period('2024-12-31', { employees: 8 }), period('2023-12-31', { employees: 4 })],
      want: ['growing'],
    },
    {
      name: 'up 5 but under 20% is not hiring',
      accounts: [period('2024-12-31', { employees: 105 }), period('2023-12-31', { employees: 100 })],
      want: [],
    },
    {
      name: 'from nobody to five is hiring',
      accounts: [period('2024-12-31', { employees: 5 }), period('2023-12-31', { employees: 0 })],
      want: ['growing', 'hiring'],
    },
    {
      name: 'turned profitable: a loss or break-even, then a profit',
      accounts: [period('2024-12-31', { profit: 1 }), period('2023-12-31', { profit: 0 })],
      want: ['growing', 'turned_profitable'],
    },
    {
      name: 'distress and negative net assets',
      accounts: [period('2024-12-31', { net_assets: -1 })],
      want: ['negative_net_assets', 'distress'],
    },
    {
      name: 'distress by cash down 30%',
      accounts: [period('2024-12-31', { cash: 70 }), period('2023-12-31', { cash: 100 })],
      want: ['declining', 'distress'],
    },
    { name: 'nothing filed', accounts: [], want: [] },
  ];
  for (const { name, accounts, want } of cases)
    test(name, () => assert.deepEqual(flags(accounts).sort(), [...want].sort()));
  test('charges outstanding is a flag', () => assert.deepEqual(flags([], 2), ['charges_outstanding']));
});

describe('triggerDates', () => {
  test('30 days back; two years back, on the same day', () => {
    assert.deepEqual(triggerDates('2025-03-15'), { recentSince: '2025-02-13', youngSince: '2023-03-15' });
    assert.deepEqual(triggerDates('2024-02-29'), { recentSince: '2024-01-30', youngSince: '2022-03-01' });
  });
});

describe('explainTrigger', () => {
  const doc = searchDocument(
    {
      company_number: '00000001',
      name: 'ACME LTD',
      status: 'Active',
      type: 'Private Limited Company',
      post_town: 'LEEDS',
      incorporated: '2024-02-01',
      sic_codes: [],
      accounts_next_due: '2025-01-31',
      accounts_last_made_up_to: '2024-12-31',
      charges_outstanding: 0,
    },
    [
      period(
        '2024-12-31',
        { cash: 1_200_000, current_assets: 2_000_000, net_assets: 2_100_000, employees: 42, profit: 120_000 },
        '2025-03-01',
      ),
      period('2023-12-31', { cash: 827_586, net_assets: 1_400_000, employees: 30, profit: -30_000 }, '2024-03-01'),
    ],
  );
  const cases: [Parameters<typeof explainTrigger>[0], string][] = [
    ['cash_rich', 'Cash £1.2m, up 45% on 2023; 60% of current assets at 2024-12-31'],
    ['rapid_growth', 'Net assets £2.1m, up 50% on 2023 (£1.4m) at 2024-12-31'],
    ['hiring', '42 employees, 12 more than in 2023, up 40% on 2023'],
    ['turned_profitable', 'Profit £120k at 2024-12-31, after -£30k in 2023'],
    ['recently_filed', 'Accounts to 2024-12-31 published 2025-03-01; net assets £2.1m'],
    ['accounts_overdue', 'Accounts were due by 2025-01-31: 30 days overdue'],
    ['young_and_funded', 'Incorporated 2024-02-01; net assets £2.1m at 2024-12-31'],
  ];
  for (const [trigger, reason] of cases)
    test(trigger, () => assert.equal(explainTrigger(trigger, doc, '2025-03-02').reason, reason));
  test('distress names what is wrong, with the metrics behind it', () => {
    const explained = explainTrigger(
      'distress',
      { ...doc, net_assets: -45_000, cash: 20_000, prior_cash: 100_000 },
      '2025-03-02',
    );
    assert.equal(explained.reason, 'Net assets -£45k; cash £20k, down 80% on 2023 at 2024-12-31');
    assert.equal(explained.metrics.cash_change_pct, -80);
  });
});

describe('sicPrefixes', () => {
  test('every leading part of every code, once', () => {
    assert.deepEqual(sicPrefixes(['62020 - IT consultancy', '62012 - Software']), [
      '6',
      '62',
      '620',
      '6202',
      '62020',
      '6201',
      '62012',
    ]);
    assert.deepEqual(sicPrefixes(['None Supplied']), []);
  });
});
