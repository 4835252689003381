import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { trajectory } from '../../src/domain/trajectory.ts';
import { period } from './rules-support.ts';

describe('trajectory', () => {
  test('per figure: first, last, change, CAGR and direction; newest-first input', () => {
    const t = trajectory([
      period('2024-12-31', { net_assets: 121, cash: 50, turnover: 1_000 }),
      period('2023-12-31', { net_assets: 110, cash: 100 }),
      period('2022-12-31', { net_assets: 100, cash: 100, turnover: 1_050 }),
    ]);
    assert.equal(t.periods, 3);
    assert.deepEqual(t.net_assets, { first: 100, last: 121, change_pct: 21, cagr_pct: 10, direction: 'growing' });
    assert.deepEqual(t.cash, { first: 100, last: 50, change_pct: -50, cagr_pct: -29.3, direction: 'declining' });
    assert.equal(t.turnover.direction, 'stable');
    assert.deepEqual(t.employees, {
      first: null,
      last: null,
      change_pct: null,
      cagr_pct: null,
      direction: 'insufficient_data',
    });
    // One growing, one declining, one stable: even.
    assert.equal(t.direction, 'stable');
  });

  const cases: {
    name: string;
    values: (number | null)[];
    change: number | null;
    cagr: number | null;
    direction: string;
  }[] = [
    { name: 'one value', values: [100], change: null, cagr: null, direction: 'insufficient_data' },
    { name: 'gaps are skipped', values: [100, null, 150], change: 50, cagr: 22.5, direction: 'growing' },
    { name: 'up 10% exactly is growth', values: [100, 110], change: 10, cagr: 10, direction: 'growing' },
    { name: 'down 9.9% is stable', values: [1000, 901], change: -9.9, cagr: -9.9, direction: 'stable' },
    { name: 'from zero, any rise grows', values: [0, 5], change: null, cagr: null, direction: 'growing' },
    { name: 'across a change of sign: no CAGR', values: [-100, 100], change: 200, cagr: null, direction: 'growing' },
    { name: 'losses deepening', values: [-100, -150], change: -50, cagr: null, direction: 'declining' },
  ];
  for (const { name, values, change, cagr, direction } of cases) {
    test(name, () => {
      // Oldest first here, a year apart; the function takes newest first.
      const periods = values.map((v, i) => period(`${2020 + i}-12-31`, { profit: v })).reverse();
      const trend = trajectory(periods).profit;
      assert.equal(trend.change_pct, change);
      assert.equal(trend.cagr_pct, cagr);
      assert.equal(trend.direction, direction);
    });
  }

  test('overall: more figures growing than declining is growing; no history is insufficient', () => {
    const growing = trajectory([
      period('2024-12-31', { net_assets: 200, employees: 20, cash: 50 }),
      period('2023-12-31', { net_assets: 100, employees: 10, cash: 100 }),
    ]);
    assert.equal(growing.direction, 'growing');
    assert.equal(trajectory([]).direction, 'insufficient_data');
    assert.equal(trajectory([]).periods, 0);
  });
});
