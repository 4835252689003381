import assert from 'node:assert/strict';
import { test } from 'node:test';
import { figureGrowth, growthFacts } from '../../src/domain/figure-growth.ts';
import { emptyFigures } from '../../src/domain/figures.ts';

const cases: {
  name: string;
  previous: number | null;
  latest: number | null;
  change: number | null;
  direction: string;
}[] = [
  { name: 'up 25%', previous: 4_000_000, latest: 5_000_000, change: 25, direction: 'growing' },
  { name: 'up 10% exactly grows', previous: 100, latest: 110, change: 10, direction: 'growing' },
  { name: 'up 9.9% is stable', previous: 1000, latest: 1099, change: 9.9, direction: 'stable' },
  { name: 'down 11.1%', previous: 90, latest: 80, change: -11.1, direction: 'declining' },
  { name: 'a loss halved is a rise', previous: -100, latest: -50, change: 50, direction: 'growing' },
  { name: 'from zero: growing, no percent', previous: 0, latest: 5, change: null, direction: 'growing' },
  { name: 'to zero: down 100%', previous: 5, latest: 0, change: -100, direction: 'declining' },
  { name: 'no previous value', previous: null, latest: 5, change: null, direction: 'insufficient_data' },
  { name: 'no latest value', previous: 5, latest: null, change: null, direction: 'insufficient_data' },
];
for (const c of cases)
  test(`figureGrowth: ${c.name}`, () => {
    assert.deepEqual(figureGrowth(c.previous, c.latest), {
      previous: c.previous,
      latest: c.latest,
      change_pct: c.change,
      direction: c.direction,
    });
  });

test('growthFacts: total_assets reads total assets less current liabilities; every figure has both facts', () => {
  const facts = growthFacts(
    { ...emptyFigures(), turnover: 80, total_assets_less_current_liabilities: 150 },
    { ...emptyFigures(), turnover: 100, total_assets_less_current_liabilities: 100 },
  );
  assert.equal(facts.turnover_growth_pct, -20);
  assert.equal(facts.turnover_trend, 'declining');
  assert.equal(facts.total_assets_growth_pct, 50);
  assert.equal(facts.total_assets_trend, 'growing');
  assert.equal(facts.profit_growth_pct, null);
  assert.equal(facts.profit_trend, 'insufficient_data');
  assert.equal(Object.keys(facts).length, 12);
});
