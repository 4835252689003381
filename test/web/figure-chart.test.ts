/**
 * The server-drawn figure charts: where points go (across in percent, down in pixels), what each
 * point carries and shows, the one y-axis label, the growth sentence and the table of values.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChartPoint } from '../../src/web/figure-chart.ts';
import { changeWords, figureChart, placePoints } from '../../src/web/figure-chart.ts';

const point = (date: string, value: number, prior = false): ChartPoint => ({ date, value, prior });

const placements: { name: string; points: ChartPoint[]; want: { x: number[]; y: number[]; zeroY: number } }[] = [
  {
    name: 'oldest left, the highest value at the top, zero at the bottom',
    points: [point('2024-03-31', 200), point('2022-03-31', 100)],
    want: { x: [12, 90], y: [94, 28], zeroY: 160 },
  },
  {
    name: 'a negative value puts zero inside the plot',
    points: [point('2021-03-31', -100), point('2022-03-31', 100)],
    want: { x: [12, 90], y: [160, 28], zeroY: 94 },
  },
  {
    name: 'a missing year leaves a gap: x by date, not by index',
    points: [point('2020-12-31', 1), point('2021-12-31', 1), point('2024-12-31', 1)],
    want: { x: [12, 31.5, 90], y: [28, 28, 28], zeroY: 160 },
  },
  {
    name: 'one point sits in the middle across',
    points: [point('2024-03-31', 50)],
    want: { x: [51], y: [28], zeroY: 160 },
  },
  {
    name: 'all zero: the middle, not a division by zero',
    points: [point('2023-03-31', 0), point('2024-03-31', 0)],
    want: { x: [12, 90], y: [94, 94], zeroY: 94 },
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
  formatExact: (v: number) => `£${v}.00`,
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

const changes: { previous: number; latest: number; want: string }[] = [
  { previous: 150, latest: 210, want: 'up £60 (40%)' },
  { previous: 210, latest: 150, want: 'down £60 (29%)' },
  { previous: 100, latest: 100, want: 'unchanged' },
  // From a negative or zero base a percentage says nothing: the amount alone.
  { previous: -21_500_000, latest: 144_000_000, want: 'up £165500000' },
  { previous: 0, latest: 5, want: 'up £5' },
  { previous: 5, latest: -5, want: 'down £10 (200%)' },
];
for (const { previous, latest, want } of changes)
  test(`changeWords: ${previous} to ${latest} is "${want}"`, () => {
    assert.equal(
      changeWords(previous, latest, (v) => `£${v}`),
      want,
    );
  });

test('figureChart: unscaled (no viewBox), one y-axis label (zero), a value label on every point', () => {
  const svg = figureChart({
    ...spec,
    points: [point('2024-03-31', 210_000), point('2023-03-31', 150_000, true), point('2021-03-31', -5_000, true)],
  }).text;
  assert.doesNotMatch(svg, /viewBox/);
  assert.match(svg, /<svg width="100%" height="216"/);
  assert.deepEqual(
    [...svg.matchAll(/<text class="axis-label" x="0"[^>]*>([^<]+)</g)].map((m) => m[1]),
    ['£0'],
  );
  assert.deepEqual(
    [...svg.matchAll(/<text class="value-label"[^>]* data-date="([^"]+)">([^<]+)</g)].map((m) => [m[1], m[2]]),
    [
      ['2021-03-31', '£-5000'],
      ['2023-03-31', '£150000'],
      ['2024-03-31', '£210000'],
    ],
  );
  assert.match(
    svg,
    /<p class="chart-growth" id="chart-net_assets-growth">Latest £210000 \(on 2024-03-31\): up £60000 \(40%\) from £150000 \(on 2023-03-31\)\.<\/p>/,
  );
});

test('figureChart: past five points only the first and last carry labels; the table has every year', () => {
  const points = [2018, 2019, 2020, 2021, 2022, 2023].map((year, i) => point(`${year}-03-31`, 100 + i));
  const svg = figureChart({ ...spec, points }).text;
  assert.deepEqual(
    [...svg.matchAll(/<text class="value-label"[^>]* data-date="([^"]+)"/g)].map((m) => m[1]),
    ['2018-03-31', '2023-03-31'],
  );
  const rows = [
    ...svg.matchAll(/<tr data-date="([^"]+)"><th scope="row">[^<]+<\/th><td class="number">([^<]+)<\/td><td>([^<]+)</g),
  ];
  assert.deepEqual(
    rows.map((r) => [r[1], r[2], r[3]]),
    points.map((p, i) => [p.date, `£${p.value}.00`, i === 0 ? '—' : 'up £1.00 (1%)']),
  );
  assert.match(svg, /<details class="chart-values">\n<summary>Net assets, year by year<\/summary>/);
});

test('figureChart: one year says there is nothing to compare with', () => {
  assert.match(
    figureChart({ ...spec, points: [point('2024-03-31', 7)] }).text,
    /Latest £7 \(on 2024-03-31\); no earlier year to compare with\./,
  );
});
