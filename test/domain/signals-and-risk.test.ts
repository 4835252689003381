import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { riskBand } from '../../src/domain/risk-band.ts';
import type { SignalInput } from '../../src/domain/signals.ts';
import { companySignals, showsInsolvencyProxy, standingSignals } from '../../src/domain/signals.ts';
import type { AccountingStandard } from '../../src/domain/figures.ts';
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

describe("FRS 102's lease change: a net assets fall across 1 January 2026 is flagged, not reported", () => {
  const fell = (latest: string, prior: string, beforePrior?: string) => [
    period(latest, { net_assets: 60, cash: 100 }),
    period(prior, { net_assets: 100, cash: 100 }),
    ...(beforePrior ? [period(beforePrior, { net_assets: 100 })] : []),
  ];
  const cases: [name: string, accounts: ReturnType<typeof fell>, codes: string[]][] = [
    ['year to 2026-12-31 on 2025-12-31: crosses', fell('2026-12-31', '2025-12-31'), ['lease_accounting_change']],
    ['year to 2025-12-31 on 2024-12-31: before the change', fell('2025-12-31', '2024-12-31'), ['net_assets_fall_30']],
    ['year to 2027-12-31 on 2026-12-31: both after', fell('2027-12-31', '2026-12-31'), ['net_assets_fall_30']],
    ['year to 2026-12-30 began 2025-12-31: before', fell('2026-12-30', '2025-12-30'), ['net_assets_fall_30']],
    [
      'year to 2027-06-30 on one begun 2025-07-01: crosses',
      fell('2027-06-30', '2026-06-30'),
      ['lease_accounting_change'],
    ],
    [
      'the prior period began in 2026 (after 2025-12-31): both after',
      fell('2027-06-30', '2026-06-30', '2025-12-31'),
      ['net_assets_fall_30'],
    ],
    ['a gap in the history: twelve months each', fell('2027-03-31', '2024-03-31'), ['lease_accounting_change']],
  ];
  for (const [name, accounts, codes] of cases)
    test(name, () => {
      const signals = standingSignals({ ...base, accounts });
      assert.deepEqual(
        signals.map((s) => s.code),
        codes,
      );
      assert.equal(riskBand(signals), codes[0] === 'lease_accounting_change' ? 'low' : 'medium');
    });

  test('the message gives the figures and names the change', () => {
    const [signal] = standingSignals({ ...base, accounts: fell('2026-12-31', '2025-12-31') });
    assert.deepEqual(signal, {
      code: 'lease_accounting_change',
      severity: 'low',
      message:
        "Net assets £60 at 2026-12-31, down 40% on £100 at 2025-12-31: the comparison crosses FRS 102's lease change " +
        '(operating leases on the balance sheet for periods from 1 January 2026), so the fall may be the accounting, not the business.',
    });
  });

  test('a cash fall across the change stands: leases do not move cash', () => {
    const accounts = [period('2026-12-31', { cash: 50 }), period('2025-12-31', { cash: 100 })];
    assert.deepEqual(
      standingSignals({ ...base, accounts }).map((s) => s.code),
      ['cash_fall_30'],
    );
  });

  test('filed period starts win over the ones read from balance sheet dates', () => {
    const codes = (latestStart: string | null, priorStart: string | null) =>
      standingSignals({
        ...base,
        accounts: [
          { ...period('2026-12-31', { net_assets: 60 }), period_start: latestStart },
          { ...period('2025-12-31', { net_assets: 100 }), period_start: priorStart },
        ],
      }).map((s) => s.code);
    assert.deepEqual(codes(null, null), ['lease_accounting_change']);
    // A filed start in 2025 puts the newest period before the change, whatever the dates read.
    assert.deepEqual(codes('2025-07-01', null), ['net_assets_fall_30']);
    assert.deepEqual(codes('2026-01-01', '2025-01-01'), ['lease_accounting_change']);
  });

  test('the standard the newest filing declares: FRS 105 and IFRS cross nothing', () => {
    const codes = (standard: AccountingStandard) =>
      standingSignals({
        ...base,
        accounts: [
          { ...period('2026-12-31', { net_assets: 60 }), standard },
          { ...period('2025-12-31', { net_assets: 100 }), standard },
        ],
      }).map((s) => s.code);
    const table: [AccountingStandard, string][] = [
      ['FRS 102', 'lease_accounting_change'],
      ['UK GAAP', 'lease_accounting_change'],
      ['unknown', 'lease_accounting_change'],
      ['FRS 105', 'net_assets_fall_30'],
      ['IFRS', 'net_assets_fall_30'],
    ];
    for (const [standard, code] of table) assert.deepEqual(codes(standard), [code], standard);
  });

  test('no fall, no flag', () => {
    const accounts = [period('2026-12-31', { net_assets: 90 }), period('2025-12-31', { net_assets: 100 })];
    assert.deepEqual(standingSignals({ ...base, accounts }), []);
  });

  test('low liquidity with a fall across the change is no insolvency proxy', () => {
    const accounts = [
      period('2026-12-31', { net_assets: 60, cash: 5, creditors: 100 }),
      period('2025-12-31', { net_assets: 100, cash: 5 }),
    ];
    assert.equal(showsInsolvencyProxy(standingSignals({ ...base, accounts })), false);
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
