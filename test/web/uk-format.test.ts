/** UK formats of the pages (src/web/uk-format.ts), pure. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { count, percent, pounds, ukDate } from '../../src/web/uk-format.ts';

test('money, counts, dates and shares read as a UK reader expects', () => {
  const cases: [string, string][] = [
    [pounds(1_250_000), '£1,250,000'],
    [pounds(-45_000.4), '-£45,000'],
    [pounds(0), '£0'],
    [pounds(null), '—'],
    [count(1234), '1,234'],
    [count(12.25), '12.3'],
    [count(null), '—'],
    [ukDate('2024-12-31'), '31 Dec 2024'],
    [ukDate('2025-01-01'), '1 Jan 2025'],
    [ukDate(null), '—'],
    [percent(0.1234), '12.3%'],
    [percent(null), '—'],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});
