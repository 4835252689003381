import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { riskBand } from '../../src/domain/risk-band.ts';
import type { SignalInput } from '../../src/domain/signals.ts';
import { companySignals, showsInsolvencyProxy, standingSignals } from '../../src/domain/signals.ts';
import { period } from './rules-support.ts';

const AS_OF = '2025-06-30';
const healthy = [
  period('2024-12-31', { net_assets: 500_000, cash: 200_000, creditors: 100_000 }),
  period('2023-12-31', { net_assets: 450_000, cash: 180_000 }),
];
const base: SignalInput = {
  status: 'Active',
  accounts_next_due: '2025-09-30',
  accounts_last_made_up_to: '2024-12-31',
  charges_outstanding: 0,
  accounts: healthy,
};

describe('companySignals and riskBand', () => {
  const cases: { name: string; input: Partial<SignalInput>; codes: string[]; band: string }[] = [
    { name: 'healthy filer', input: {}, codes: [], band: 'low' },
    {
      name: 'no accounts on file',
      input: { accounts: [] },
      codes: ['no_machine_readable_accounts'],
      band: 'unknown',
    },
    { name: 'liquidation', input: { status: 'Liquidation' }, codes: ['status_distress'], band: 'high' },
    { name: 'administration', input: { status: 'In Administration' }, codes: ['status_distress'], band: 'high' },
    {
      name: 'receivership',
      input: { status: 'Live but Receiver Manager on at least one charge' },
      codes: ['status_distress'],
      band: 'high',
    },
    {
      name: 'proposal to strike off',
      input: { status: 'Active - Proposal to Strike off' },
      codes: ['status_distress'],
      band: 'high',
    },
    {
      name: 'dissolved: a high status signal, never overdue, band high',
      input: { status: 'Dissolved', accounts_next_due: '2020-01-01' },
      codes: ['status_dissolved'],
      band: 'high',
    },
    {
      name: 'dissolved with no accounts on file: high, not unknown',
      input: { status: 'Dissolved', accounts: [] },
      codes: ['status_dissolved', 'no_machine_readable_accounts'],
      band: 'high',
    },
    { name: 'removed from the register', input: { status: 'Removed' }, codes: ['status_dissolved'], band: 'high' },
    {
      name: 'converted or closed',
      input: { status: 'Converted / Closed' },
      codes: ['status_dissolved'],
      band: 'high',
    },
    {
      name: 'liquidation with healthy accounts is still high',
      input: { status: 'Liquidation', charges_outstanding: 1 },
      codes: ['status_distress', 'charges_outstanding'],
      band: 'high',
    },
    {
      name: 'overdue accounts',
      input: { accounts_next_due: '2025-06-29' },
      codes: ['accounts_overdue'],
      band: 'medium',
    },
    {
      name: 'not overdue when newer accounts than the register knows of are on file',
      input: { accounts_next_due: '2025-06-29', accounts_last_made_up_to: '2023-12-31' },
      codes: [],
      band: 'low',
    },
    { name: 'due today is not overdue', input: { accounts_next_due: AS_OF }, codes: [], band: 'low' },
    {
      name: 'negative net assets',
      input: { accounts: [period('2024-12-31', { net_assets: -1, cash: 10 })] },
      codes: ['negative_net_assets'],
      band: 'high',
    },
    {
      name: 'net assets down exactly 30%',
      input: { accounts: [period('2024-12-31', { net_assets: 70 }), period('2023-12-31', { net_assets: 100 })] },
      codes: ['net_assets_fall_30'],
      band: 'medium',
    },
    {
      name: 'net assets down 29.9% is no signal',
      input: { accounts: [period('2024-12-31', { net_assets: 70.1 }), period('2023-12-31', { net_assets: 100 })] },
      codes: [],
      band: 'low',
    },
    {
      name: 'a fall from negative net assets is not a fall of 30%',
      input: { accounts: [period('2024-12-31', { net_assets: -200 }), period('2023-12-31', { net_assets: -100 })] },
      codes: ['negative_net_assets'],
      band: 'high',
    },
    {
      name: 'cash down 50% with low liquidity and overdue: three medium signals make high',
      input: {
        accounts_next_due: '2025-01-01',
        accounts: [period('2024-12-31', { cash: 5, creditors: 100 }), period('2023-12-31', { cash: 10 })],
      },
      codes: ['accounts_overdue', 'cash_fall_30', 'low_liquidity'],
      band: 'high',
    },
    {
      name: 'low liquidity reads creditors within one year first',
      input: { accounts: [period('2024-12-31', { cash: 50, creditors: 100, creditors_within_one_year: 1_000 })] },
      codes: ['low_liquidity'],
      band: 'medium',
    },
    {
      name: 'cash exactly 10% of creditors is not low',
      input: { accounts: [period('2024-12-31', { cash: 10, creditors: 100 })] },
      codes: [],
      band: 'low',
    },
    {
      name: 'charges alone leave the band low',
      input: { charges_outstanding: 3 },
      codes: ['charges_outstanding'],
      band: 'low',
    },
    {
      name: 'charges with no accounts: unknown',
      input: { charges_outstanding: 1, accounts: [] },
      codes: ['charges_outstanding', 'no_machine_readable_accounts'],
      band: 'unknown',
    },
  ];
  for (const { name, input, codes, band } of cases) {
    test(name, () => {
      const signals = companySignals({ ...base, ...input }, AS_OF);
      assert.deepEqual(signals.map((s) => s.code).sort(), [...codes].sort());
      assert.equal(riskBand(signals), band);
    });
  }

  test('signals come most severe first, each with a message naming the figures', () => {
    const signals = companySignals(
      {
        status: 'Liquidation',
        accounts_next_due: '2024-01-01',
        accounts_last_made_up_to: '2024-12-31',
        charges_outstanding: 1,
        accounts: [period('2024-12-31', { net_assets: -45_000 })],
      },
      AS_OF,
    );
    assert.deepEqual(
      signals.map((s) => [s.code, s.severity]),
      [
        ['status_distress', 'high'],
        ['negative_net_assets', 'high'],
        ['accounts_overdue', 'medium'],
        ['charges_outstanding', 'low'],
      ],
    );
    assert.equal(signals[1]!.message, 'Net assets -£45k at 2024-12-31.');
  });

  test('standing signals never include accounts_overdue', () => {
    assert.deepEqual(standingSignals({ ...base, accounts_next_due: '2000-01-01' }), []);
  });
});

describe('showsInsolvencyProxy (the insolvency_proxy filter)', () => {
  const cases: { name: string; input: Partial<SignalInput>; want: boolean }[] = [
    { name: 'healthy filer', input: {}, want: false },
    { name: 'in liquidation', input: { status: 'Liquidation' }, want: true },
    { name: 'proposal to strike off', input: { status: 'Active - Proposal to Strike off' }, want: true },
    {
      name: 'negative net assets',
      input: { accounts: [period('2024-12-31', { net_assets: -1 }), healthy[1]!] },
      want: true,
    },
    {
      name: 'low liquidity alone is not enough',
      input: { accounts: [period('2024-12-31', { net_assets: 450_000, cash: 5_000, creditors: 100_000 })] },
      want: false,
    },
    {
      name: 'low liquidity after cash fell 30%',
      input: {
        accounts: [
          period('2024-12-31', { net_assets: 450_000, cash: 5_000, creditors: 100_000 }),
          period('2023-12-31', { net_assets: 450_000, cash: 180_000 }),
        ],
      },
      want: true,
    },
    {
      name: 'a 30% fall with enough cash is not',
      input: {
        accounts: [
          period('2024-12-31', { net_assets: 200_000, cash: 100_000, creditors: 100_000 }),
          period('2023-12-31', { net_assets: 450_000, cash: 180_000 }),
        ],
      },
      want: false,
    },
    { name: 'overdue accounts alone are not', input: { accounts_next_due: '2025-01-31' }, want: false },
    { name: 'no accounts on file', input: { accounts: [] }, want: false },
  ];
  for (const c of cases)
    test(c.name, () => assert.equal(showsInsolvencyProxy(companySignals({ ...base, ...c.input }, AS_OF)), c.want));
});
