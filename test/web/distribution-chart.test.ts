/**
 * The distribution chart's SVG (src/web/distribution-chart.ts): an image with a title and its
 * numbers in words, the marks of the layout, the median's value, never scaled (no viewBox), no
 * style attribute (the CSP forbids inline style), nothing when nothing is filed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axisLabels, distributionChart } from '../../src/web/distribution-chart.ts';

const STATS = { count: 1234, mean: 180_000, p10: -40_000, p25: 5_000, median: 60_000, p75: 150_000, p90: 900_000 };

test('an accessible SVG image with the percentiles in words', () => {
  const svg = distributionChart(STATS, { id: 'net_assets', label: 'Net assets', unit: 'money' })!.text;
  assert.match(
    svg,
    /^<svg\s+id="chart-net_assets"\s+class="distribution-chart"\s+role="img"\s+aria-labelledby="chart-net_assets-title chart-net_assets-desc"/,
  );
  assert.match(svg, /<title id="chart-net_assets-title">Net assets: distribution of the latest filed figures<\/title>/);
  assert.match(
    svg,
    /1,234 companies\. 10% are below -£40k, 25% below £5k, half below £60k \(the median\), 75% below £150k and 90% below £900k\. Mean £180k\./,
  );
  assert.equal((svg.match(/<rect\s/g) ?? []).length, 1, 'one box');
  assert.equal((svg.match(/<circle\s/g) ?? []).length, 1, 'one mean');
  assert.match(svg, /stroke-dasharray/, 'the zero line: the axis crosses zero');
  assert.ok(!/style=/.test(svg), 'no inline style');
  assert.match(svg, />£1m<\/text/, 'compact money on the axis');
  // Never scaled: no viewBox, as wide as its column, positions across in percent.
  assert.ok(!/viewBox/.test(svg), 'no viewBox');
  assert.match(svg, /width="100%"/);
  assert.match(svg, /<rect\s+x="[\d.]+%"/);
  assert.match(svg, /class="value-label"[^>]*>median £60k<\/text/, "the median's value in the drawing");
  assert.match(svg, /class="tick-label minor"/, 'every other tick label can be left out on a phone');
});

test('head counts are not money; nothing filed, no chart', () => {
  const svg = distributionChart(
    { count: 10, mean: 12.5, p10: 2, p25: 4, median: 9, p75: 15, p90: 30 },
    { id: 'employees', label: 'Employees', unit: 'count' },
  )!.text;
  assert.ok(!svg.includes('£'));
  assert.ok(!svg.includes('stroke-dasharray'), 'no zero line inside an axis that starts at zero');
  assert.equal(
    distributionChart(
      { count: 0, mean: null, p10: null, p25: null, median: null, p75: null, p90: null },
      { id: 'cash', label: 'Cash', unit: 'money' },
    ),
    null,
  );
});

test('axis labels stay apart: short money unless two would read alike', () => {
  const ticks = (values: number[]) => values.map((value, i) => ({ x: i * 10, value }));
  const cases: { values: number[]; unit: 'money' | 'count'; want: string[] }[] = [
    { values: [-1e6, 0, 1e6, 2e6], unit: 'money', want: ['-£1m', '£0', '£1m', '£2m'] },
    { values: [1_000_000, 1_002_000, 1_004_000], unit: 'money', want: ['£1,000,000', '£1,002,000', '£1,004,000'] },
    { values: [0, 5000, 10_000], unit: 'count', want: ['0', '5,000', '10,000'] },
  ];
  for (const { values, unit, want } of cases) assert.deepEqual([...axisLabels(ticks(values), unit).values()], want);
});
