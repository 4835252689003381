/** The server-drawn figure charts: where points go, and what each point carries. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChartPoint } from '../../src/web/figure-chart.ts';
import { figureChart, placePoints } from '../../src/web/figure-chart.ts';

const point = (date: string, value: number, prior = false): ChartPoint => ({ date, value, prior });

const placements: { name: string; points: ChartPoint[]; want: { x: number[]; y: number[]; zeroY: number } }[] = [
  {
    name: 'oldest left, the highest value at the top, zero at the bottom',
    points: [point('2024-03-31', 200), point('2022-03-31', 100)],
    want: { x: [88, 456], y: [102, 16], zeroY: 188 },
  },
  {
    name: 'a negative value puts zero inside the plot',
    points: [point('2021-03-31', -100), point('2022-03-31', 100)],
    want: { x: [88, 456], y: [188, 16], zeroY: 102 },
  },
  {
    name: 'a missing year leaves a gap: x by date, not by index',
    points: [point('2020-12-31', 1), point('2021-12-31', 1), point('2024-12-31', 1)],
    want: { x: [88, 179.9, 456], y: [16, 16, 16], zeroY: 188 },
  },
  {
    name: 'one point sits in the middle across',
    points: [point('2024-03-31', 50)],
    want: { x: [272], y: [16], zeroY: 188 },
  },
  {
    name: 'all zero: the middle, not a division by zero',
    points: [point('2023-03-31', 0), point('2024-03-31', 0)],
    want: { x: [88, 456], y: [102, 102], zeroY: 102 },
  },
];

for (const { name, points, want } of placements)
  test(`placePoints: ${name}`, () => {
    const { placed, zeroY } = placePoints(points);
    assert.deepEqual(
      placed.map((p) => p.x),
      want.x,
    );
    assert.deepEqual(
      placed.map((p) => p.y),
      want.y,
    );
    assert.equal(zeroY, want.zeroY);
  });

const spec = {
  figure: 'net_assets',
  label: 'Net assets',
  format: (v: number) => `£${v}`,
  formatDate: (iso: string) => `on ${iso}`,
};

test('figureChart: one circle per point with its date and value; prior-year points hollow', () => {
  const svg = figureChart({
    ...spec,
    points: [point('2024-03-31', 210_000), point('2023-03-31', 150_000, true), point('2021-03-31', -5_000, true)],
  }).text;
  const circles = [
    ...svg.matchAll(/<circle class="([^"]+)"[^>]* data-date="([^"]+)" data-value="([^"]+)"><title>([^<]+)<\/title>/g),
  ];
  assert.deepEqual(
    circles.map((c) => [c[1], c[2], c[3]]),
    [
      ['point prior', '2021-03-31', '-5000'],
      ['point prior', '2023-03-31', '150000'],
      ['point', '2024-03-31', '210000'],
    ],
  );
  assert.equal(circles[0]![4], 'on 2021-03-31: £-5000 (from a later filing’s prior-year column)');
  assert.match(svg, /<line class="zero"/);
  assert.match(
    svg,
    /<desc id="chart-net_assets-summary">Net assets: 3 years, from £-5000 \(on 2021-03-31\) to £210000 \(on 2024-03-31\)\.<\/desc>/,
  );
  assert.doesNotMatch(svg, /style=/);
});

test('figureChart: no zero line when nothing is negative; a sentence when no year has the figure', () => {
  assert.doesNotMatch(figureChart({ ...spec, points: [point('2024-03-31', 1)] }).text, /class="zero"/);
  const empty = figureChart({ ...spec, points: [] }).text;
  assert.match(empty, /Not in any filed accounts\./);
  assert.doesNotMatch(empty, /<svg/);
});
