/**
 * The market page's distribution chart geometry (src/web/distribution-layout.ts), pure: marks in
 * the order of the percentiles, inside the chart; the zero line only when the axis crosses zero;
 * round-number ticks covering the range; no chart when nothing was filed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FigureStats } from '../../src/domain/criteria.ts';
import { CHART, distributionLayout, niceTicks } from '../../src/web/distribution-layout.ts';

const stats = (p: Partial<FigureStats>): FigureStats => ({
  count: 100,
  mean: 50,
  p10: 10,
  p25: 25,
  median: 40,
  p75: 70,
  p90: 90,
  ...p,
});

test('ticks are round numbers covering the range', () => {
  const cases = [
    { lo: 10, hi: 90, count: 5, want: [0, 20, 40, 60, 80, 100] },
    { lo: -120_000, hi: 2_400_000, count: 5, want: [-1e6, 0, 1e6, 2e6, 3e6] },
    { lo: 0.1, hi: 0.7, count: 5, want: [0, 0.2, 0.4, 0.6, 0.8] },
    { lo: 3, hi: 4, count: 5, want: [3, 3.5, 4] },
  ];
  for (const { lo, hi, count, want } of cases) assert.deepEqual(niceTicks(lo, hi, count), want, `${lo}..${hi}`);
});

test('marks follow the percentiles, inside the chart', () => {
  const cases: { name: string; stats: FigureStats; zero: boolean }[] = [
    { name: 'positive money', stats: stats({}), zero: false },
    {
      name: 'net assets below zero at p10',
      stats: stats({ p10: -40_000, p25: 1_000, median: 30_000, p75: 200_000, p90: 900_000, mean: 150_000 }),
      zero: true,
    },
    {
      name: 'all losses',
      stats: stats({ p10: -900, p25: -700, median: -500, p75: -300, p90: -100, mean: -450 }),
      zero: false,
    },
    { name: 'a mean beyond p90', stats: stats({ mean: 400 }), zero: false },
  ];
  for (const c of cases) {
    const layout = distributionLayout(c.stats)!;
    const marks = [layout.p10, layout.p25, layout.median, layout.p75, layout.p90];
    assert.deepEqual(
      [...marks].sort((a, b) => a - b),
      marks,
      c.name,
    );
    for (const x of [...marks, layout.mean!])
      assert.ok(x >= CHART.left && x <= CHART.width - CHART.right, `${c.name}: ${x}`);
    assert.equal(layout.zero !== null, c.zero, c.name);
    assert.ok(
      layout.ticks[0]!.x <= layout.p10 && layout.ticks.at(-1)!.x >= layout.p90,
      `${c.name}: the ticks span the whiskers`,
    );
  }
});

test('a figure every company files alike still gets an axis around it', () => {
  const layout = distributionLayout(stats({ p10: 5, p25: 5, median: 5, p75: 5, p90: 5, mean: 5 }))!;
  assert.ok(layout.ticks[0]!.value < 5 && layout.ticks.at(-1)!.value > 5);
  assert.ok(layout.median > CHART.left && layout.median < CHART.width - CHART.right);
});

test('no chart when nothing was filed', () => {
  assert.equal(
    distributionLayout({ count: 0, mean: null, p10: null, p25: null, median: null, p75: null, p90: null }),
    null,
  );
});
