import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCalendarDate, monthName } from '../../src/domain/calendar-date.ts';

test('calendar dates', () => {
  const cases: [string, boolean][] = [
    ['2024-03-31', true],
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-02-30', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-1-1', false],
    ['2024-01-01T00:00:00Z', false],
    [' 2024-01-01', false],
    ['', false],
    // No year 0 in the calendar the register (and PostgreSQL's date) uses: 1 BC is followed by AD 1.
    ['0000-01-01', false],
    ['0000-10-06', false],
    ['0001-01-01', true],
    ['9999-12-31', true],
  ];
  for (const [value, expected] of cases) assert.equal(isCalendarDate(value), expected, value);
});

test('monthName writes a month out in full or short, and nothing for a number that is no month', () => {
  const cases: [number, 'long' | 'short' | undefined, string | undefined][] = [
    [1, undefined, 'January'],
    [9, 'long', 'September'],
    [9, 'short', 'Sep'],
    [12, 'short', 'Dec'],
    [0, undefined, undefined],
    [13, 'short', undefined],
  ];
  for (const [month, length, expected] of cases) assert.equal(monthName(month, length), expected, `${month} ${length}`);
});
