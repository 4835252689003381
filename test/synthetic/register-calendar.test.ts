/**
 * The calendar and schedule the register is built on: the arithmetic date conversions agree with
 * the Date-based ones, deadlines count months as statutes count them, and the exported
 * publication schedule is the one the accounts stream follows.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { syntheticCompany } from '../../src/synthetic/companies.ts';
import {
  addMonths,
  civilDayNumber,
  dayNumber,
  fastDayNumber,
  fastFromDayNumber,
  fromDayNumber,
} from '../../src/synthetic/dates.ts';
import { accountsPublicationDay, syntheticFilings } from '../../src/synthetic/filings.ts';
import { accountingPeriod, periodEnd } from '../../src/synthetic/periods.ts';

describe('arithmetic dates', () => {
  test('fastDayNumber and fastFromDayNumber agree with dayNumber and fromDayNumber, 1800 to 2200', () => {
    for (let day = dayNumber('1800-01-01'); day <= dayNumber('2200-12-31'); day++) {
      const iso = fromDayNumber(day);
      if (fastFromDayNumber(day) !== iso || fastDayNumber(iso) !== day) {
        assert.fail(`day ${day}: ${iso} vs ${fastFromDayNumber(day)} / ${fastDayNumber(iso)}`);
      }
    }
  });

  const civil = [
    { name: 'the epoch', args: [1970, 1, 1] as const, want: 0 },
    { name: 'the day before it', args: [1969, 12, 31] as const, want: -1 },
    { name: 'a leap day', args: [2024, 2, 29] as const, want: dayNumber('2024-02-29') },
    { name: 'the first day of 2000', args: [2000, 1, 1] as const, want: 10_957 },
  ];
  for (const { name, args, want } of civil) {
    test(`civilDayNumber: ${name}`, () => assert.equal(civilDayNumber(args[0], args[1], args[2]), want));
  }

  const months = [
    { name: 'same day of the month', iso: '2020-07-29', months: 21, want: '2022-04-29' },
    { name: 'end of a longer month lands on the end of February', iso: '2023-01-31', months: 1, want: '2023-02-28' },
    { name: 'in a leap year, the 29th', iso: '2024-01-31', months: 1, want: '2024-02-29' },
    { name: 'a leap day a year on', iso: '2024-02-29', months: 12, want: '2025-02-28' },
    { name: 'backwards across a year', iso: '2024-03-15', months: -3, want: '2023-12-15' },
  ];
  for (const { name, iso, months: n, want } of months) {
    test(`addMonths: ${name}`, () => assert.equal(addMonths(iso, n), want));
  }
});

describe('the accounts publication schedule', () => {
  test('periodEnd is the end of accountingPeriod', () => {
    for (let index = 0; index < 200; index++) {
      const company = syntheticCompany(4, index);
      for (const k of [0, 1, 2, 7, 30]) assert.equal(periodEnd(company, k), accountingPeriod(company, k).end);
    }
  });

  test('accountsPublicationDay is the day syntheticFilings publishes each filing', () => {
    const seed = 4;
    const companies = new Map(
      Array.from({ length: 400 }, (_, i) => syntheticCompany(seed, i)).map((c) => [c.company_number, c]),
    );
    let checked = 0;
    for (const filing of syntheticFilings({ seed, companies: 150, yearsPerCompany: 3, fromYear: 2018 })) {
      const company = companies.get(filing.expected.company_number)!;
      let k = 0;
      while (periodEnd(company, k) < filing.expected.balance_sheet_date) k++;
      assert.equal(fastFromDayNumber(accountsPublicationDay(seed, company, k)), filing.published, filing.fileName);
      checked++;
    }
    assert.ok(checked > 300);
  });
});
