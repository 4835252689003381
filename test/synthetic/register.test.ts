/**
 * The synthetic register snapshot: rows agree with the synthetic companies and with the accounts
 * stream, fields are shaped as the real register shapes them, and a snapshot has about the real
 * register's mix of statuses, categories and filing states.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { syntheticCompany } from '../../src/synthetic/companies.ts';
import { addMonths, fastDayNumber, lastDayOfMonth, monthOf } from '../../src/synthetic/dates.ts';
import { accountsPublicationDay, syntheticFilings } from '../../src/synthetic/filings.ts';
import { periodEnd } from '../../src/synthetic/periods.ts';
import { lastFiledPeriod } from '../../src/synthetic/register-accounts.ts';
import { LIVE_STATUSES, NAME_REFERENCE_DATE, registerRow, registerSnapshot } from '../../src/synthetic/register.ts';
import type { RegisterRecord } from '../../src/synthetic/register.ts';
import { POST_TOWNS } from '../../src/synthetic/uk-places.ts';

const SEED = 20_240_601;
const SNAPSHOT = '2024-06-01';
const ROWS: RegisterRecord[] = [...registerSnapshot({ seed: SEED, companies: 20_000, snapshotDate: SNAPSHOT })];
/** The companies behind the first rows, with their register rows. */
const COMPANY_ROWS = Array.from({ length: 5000 }, (_, index) => ({
  company: syntheticCompany(SEED, index),
  row: registerRow(SEED, index, SNAPSHOT),
}));

function share(predicate: (r: RegisterRecord) => boolean): number {
  return ROWS.filter(predicate).length / ROWS.length;
}

function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

describe('registerRow', () => {
  test('agrees with syntheticCompany: number, incorporation date, and the name on the reference date', () => {
    for (let index = 0; index < 500; index++) {
      const company = syntheticCompany(SEED, index);
      const row = registerRow(SEED, index, NAME_REFERENCE_DATE);
      if (row === null) continue;
      assert.equal(row.company_number, company.company_number);
      assert.equal(row.incorporation_date, company.incorporated);
      assert.equal(row.name, company.name, `${company.company_number} on ${NAME_REFERENCE_DATE}`);
      assert.equal(row.uri, `http://business.data.gov.uk/id/company/${company.company_number}`);
    }
  });

  test('is null before incorporation', () => {
    const company = syntheticCompany(SEED, 3);
    assert.equal(registerRow(SEED, 3, '1900-01-01'), null);
    assert.notEqual(registerRow(SEED, 3, company.incorporated), null);
  });

  const badDates = ['2024-6-1', '2024-02-30', '01/06/2024', ''];
  for (const date of badDates) {
    test(`rejects the snapshot date ${JSON.stringify(date)}`, () => {
      assert.throws(() => registerRow(SEED, 0, date), /ISO date/);
    });
  }

  test('is a pure function of seed, index and date', () => {
    for (const index of [0, 17, 4242]) {
      assert.deepEqual(registerRow(SEED, index, SNAPSHOT), registerRow(SEED, index, SNAPSHOT));
    }
    const a = [...registerSnapshot({ seed: 1, companies: 50, snapshotDate: SNAPSHOT })];
    const b = [...registerSnapshot({ seed: 2, companies: 50, snapshotDate: SNAPSHOT })];
    assert.notDeepEqual(
      a.map((r) => r.name),
      b.map((r) => r.name),
    );
  });

  test('registerSnapshot yields the non-null rows in index order', () => {
    const rows = [...registerSnapshot({ seed: SEED, companies: 300, snapshotDate: SNAPSHOT })];
    const expected: RegisterRecord[] = [];
    for (let index = 0; index < 300; index++) {
      const row = registerRow(SEED, index, SNAPSHOT);
      if (row !== null) expected.push(row);
    }
    assert.deepEqual(rows, expected);
  });
});

describe('accounts on the register agree with the accounts stream', () => {
  // Each window reaches the snapshot's year, so the stream holds every period filed by then.
  const cases = [
    { snapshot: '2024-03-01', fromYear: 2019, years: 6 },
    { snapshot: '2022-10-15', fromYear: 2012, years: 11 },
    { snapshot: '2026-11-01', fromYear: 2021, years: 6 },
  ];
  for (const { snapshot, fromYear, years } of cases) {
    test(`last made up = newest balance sheet date published by ${snapshot}`, () => {
      const companies = 300;
      const newest = new Map<string, string>();
      for (const filing of syntheticFilings({ seed: SEED, companies, fromYear, yearsPerCompany: years })) {
        if (filing.published > snapshot) break;
        const { company_number: number, balance_sheet_date: date } = filing.expected;
        if ((newest.get(number) ?? '') < date) newest.set(number, date);
      }
      let checked = 0;
      for (let index = 0; index < companies; index++) {
        const row = registerRow(SEED, index, snapshot);
        if (row === null) continue;
        checked++;
        assert.equal(row.accounts.last_made_up, newest.get(row.company_number) ?? null, row.company_number);
      }
      // Most of the 300 companies were incorporated by then; the rest are not on the snapshot yet.
      assert.ok(checked > 200, `${checked} rows checked`);
    });
  }

  test('lastFiledPeriod is the newest period published by the day (against a full scan)', () => {
    for (let index = 0; index < 300; index++) {
      const company = syntheticCompany(SEED, index);
      for (const date of ['2016-07-01', '2021-01-15', '2024-06-01']) {
        const day = fastDayNumber(date);
        let want = -1;
        for (let k = 0; fastDayNumber(periodEnd(company, k)) <= day; k++) {
          if (accountsPublicationDay(SEED, company, k) <= day) want = k;
        }
        assert.equal(lastFiledPeriod(SEED, company, day), want, `${company.company_number} on ${date}`);
      }
    }
  });

  test('next due is nine months after the next period end, or the first-accounts deadline', () => {
    for (const row of ROWS) {
      const { last_made_up: last, next_due: due, ref_day: refDay, ref_month: refMonth } = row.accounts;
      assert.ok(isIsoDate(due), due);
      assert.equal(refDay, lastDayOfMonth(2001, refMonth));
      if (last === null) {
        assert.equal(row.accounts.category, 'NO ACCOUNTS FILED');
        const months = (fastDayNumber(due) - fastDayNumber(row.incorporation_date)) / 30.44;
        assert.ok(months >= 20.5 && months < 22, `${row.company_number}: first accounts due ${due}`);
      } else {
        assert.equal(monthOf(last), refMonth, row.company_number);
        const months = (fastDayNumber(due) - fastDayNumber(last)) / 30.44;
        assert.ok(months > 20.5 && months < 21.5, `${row.company_number}: made up to ${last}, due ${due}`);
        assert.ok(last <= SNAPSHOT);
      }
    }
  });

  test('a few companies are overdue with their accounts, as late filers are', () => {
    const overdue = share((r) => r.accounts.next_due < SNAPSHOT);
    assert.ok(overdue > 0.002 && overdue < 0.05, `${(overdue * 100).toFixed(2)}% overdue`);
  });

  const categoriesBySize = [
    { name: 'dormant companies file dormant accounts', size: 'dormant', allowed: ['DORMANT'] },
    { name: 'micro-entities file micro-entity accounts', size: 'micro', allowed: ['MICRO ENTITY'] },
    {
      name: 'small companies file total exemption, abridged or small accounts',
      size: 'small',
      allowed: [
        'TOTAL EXEMPTION FULL',
        'TOTAL EXEMPTION SMALL',
        'UNAUDITED ABRIDGED',
        'SMALL',
        'MICRO ENTITY',
        'GROUP',
      ],
    },
    { name: 'large companies file full or group accounts', size: 'large', allowed: ['FULL', 'GROUP'] },
  ];
  for (const { name, size, allowed } of categoriesBySize) {
    test(`account category follows size: ${name}`, () => {
      const rows = COMPANY_ROWS.filter(({ company, row }) => company.size === size && row?.accounts.last_made_up);
      assert.ok(rows.length > 0);
      for (const { row } of rows)
        assert.ok(allowed.includes(row!.accounts.category), `${row!.company_number}: ${row!.accounts.category}`);
    });
  }
});

describe('a snapshot looks like the real register', () => {
  test('the status mix: mostly Active, some proposed for striking off or in liquidation, a few rarer', () => {
    const bounds: Record<string, [number, number]> = {
      Active: [0.9, 0.98],
      'Active - Proposal to Strike off': [0.015, 0.07],
      Liquidation: [0.003, 0.03],
      'In Administration': [0, 0.005],
      'Voluntary Arrangement': [0, 0.005],
      'Live but Receiver Manager on at least one charge': [0, 0.002],
      RECEIVERSHIP: [0, 0.002],
    };
    assert.deepEqual(Object.keys(bounds).sort(), [...LIVE_STATUSES].sort());
    for (const [status, [min, max]] of Object.entries(bounds)) {
      const s = share((r) => r.status === status);
      assert.ok(s >= min && s <= max, `${status}: ${(s * 100).toFixed(2)}%`);
    }
    assert.ok(ROWS.every((r) => r.dissolution_date === null));
  });

  const categoryRules: {
    name: string;
    select: (r: RegisterRecord) => boolean;
    want: (r: RegisterRecord) => boolean;
  }[] = [
    {
      name: 'OC numbers are LLPs, named ... LLP',
      select: (r) => r.company_number.startsWith('OC'),
      want: (r) => r.category === 'Limited Liability Partnership' && r.name.endsWith(' LLP'),
    },
    {
      name: 'LLPs have OC numbers',
      select: (r) => r.category === 'Limited Liability Partnership',
      want: (r) => r.company_number.startsWith('OC'),
    },
    {
      name: 'SC and NI numbers are private companies, named ... LIMITED or LTD',
      select: (r) => /^(SC|NI)/.test(r.company_number),
      want: (r) => /^(Private|PRI|Community)/.test(r.category) && / (LIMITED|LTD)$/.test(r.name),
    },
    {
      name: 'PLCs are English or Welsh, named ... PLC',
      select: (r) => r.category === 'Public Limited Company',
      want: (r) => /^\d{8}$/.test(r.company_number) && r.name.endsWith(' PLC'),
    },
  ];
  for (const { name, select, want } of categoryRules) {
    test(`categories follow legal form and number prefix: ${name}`, () => {
      const rows = ROWS.filter(select);
      assert.ok(rows.length > 0);
      for (const r of rows) assert.ok(want(r), `${r.company_number} ${r.category} ${r.name}`);
    });
  }

  test('categories: mostly private limited companies, some guarantee companies, a few CICs', () => {
    const bounds: [string, number, number][] = [
      ['Private Limited Company', 0.85, 0.96],
      ['Limited Liability Partnership', 0.02, 0.07],
      ['PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)', 0.01, 0.05],
      ['Community Interest Company', 0.001, 0.015],
      ['Public Limited Company', 0.001, 0.01],
    ];
    for (const [category, min, max] of bounds) {
      const s = share((r) => r.category === category);
      assert.ok(s >= min && s <= max, `${category}: ${(s * 100).toFixed(2)}%`);
    }
  });

  test('SIC codes: one to four, spelt "NNNNN - description", dormant companies mostly 99999', () => {
    for (const r of ROWS) {
      assert.ok(r.sic_codes.length >= 1 && r.sic_codes.length <= 4);
      for (const code of r.sic_codes) assert.match(code, /^\d{5} - \S/);
      assert.equal(new Set(r.sic_codes).size, r.sic_codes.length);
    }
    const several = share((r) => r.sic_codes.length > 1);
    assert.ok(several > 0.06 && several < 0.25, `${several}`);
    assert.ok(share((r) => r.sic_codes[0] === '99999 - Dormant Company') > 0.02);
  });

  test('a trade in the name usually gives the activity', () => {
    const plumbers = ROWS.filter((r) => / PLUMBING /.test(r.name) && r.category === 'Private Limited Company');
    assert.ok(plumbers.length > 10);
    const matching = plumbers.filter((r) => r.sic_codes[0]!.startsWith('43220') || r.sic_codes[0]!.startsWith('99999'));
    assert.ok(matching.length / plumbers.length > 0.6, `${matching.length} of ${plumbers.length}`);
  });

  const scottishTowns = new Set(POST_TOWNS.scotland.map(([t]) => t.town));
  const addressRules = [
    {
      name: 'Scottish companies have offices in Scotland',
      number: /^SC/,
      ok: (r: RegisterRecord) => scottishTowns.has(r.registered_address.post_town ?? ''),
    },
    {
      name: 'Northern Irish companies have BT postcodes',
      number: /^NI/,
      ok: (r: RegisterRecord) => /^BT/.test(r.registered_address.postcode ?? ''),
    },
    {
      name: 'English and Welsh companies and LLPs are in England or Wales',
      number: /^(\d|OC)/,
      ok: (r: RegisterRecord) =>
        !/^BT/.test(r.registered_address.postcode ?? '') && !scottishTowns.has(r.registered_address.post_town ?? ''),
    },
  ];
  for (const { name, number, ok } of addressRules) {
    test(`registered offices: ${name}`, () => {
      const rows = ROWS.filter((r) => number.test(r.company_number));
      assert.ok(rows.length > 50);
      for (const r of rows) assert.ok(ok(r), `${r.company_number}: ${JSON.stringify(r.registered_address)}`);
    });
  }

  test('addresses are shaped and filled as on the register', () => {
    for (const r of ROWS) {
      const a = r.registered_address;
      assert.match(a.postcode ?? '', /^[A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}$/, a.postcode ?? '');
      assert.ok(a.address_line_1 && a.post_town);
      assert.equal(a.address_line_1, a.address_line_1.toUpperCase());
    }
    const filled: [string, (r: RegisterRecord) => boolean, number, number][] = [
      ['county', (r) => r.registered_address.county !== null, 0.3, 0.5],
      ['country', (r) => r.registered_address.country !== null, 0.55, 0.75],
      ['address line 2', (r) => r.registered_address.address_line_2 !== null, 0.5, 0.8],
      ['care of', (r) => r.registered_address.care_of !== null, 0.005, 0.04],
    ];
    for (const [field, has, min, max] of filled) {
      const s = share(has);
      assert.ok(s >= min && s <= max, `${field} filled on ${(s * 100).toFixed(1)}%`);
    }
    // Formation agents' and accountants' offices are shared by many companies.
    const perAddress = new Map<string, number>();
    for (const r of ROWS) {
      const key = `${r.registered_address.address_line_1}|${r.registered_address.postcode}`;
      perAddress.set(key, (perAddress.get(key) ?? 0) + 1);
    }
    assert.ok(Math.max(...perAddress.values()) >= 10);
  });

  test('previous names and charges on a realistic share of companies', () => {
    const renamed = share((r) => r.previous_names.length > 0);
    assert.ok(renamed > 0.06 && renamed < 0.2, `renamed ${renamed}`);
    const charged = share((r) => r.mortgages.charges > 0);
    assert.ok(charged > 0.05 && charged < 0.3, `charged ${charged}`);
    for (const r of ROWS) {
      const m = r.mortgages;
      assert.equal(m.charges, m.outstanding + m.satisfied);
      assert.ok(m.part_satisfied <= m.outstanding);
      assert.ok(r.previous_names.length <= 10);
      for (let i = 0; i < r.previous_names.length; i++) {
        const p = r.previous_names[i]!;
        assert.ok(p.date > r.incorporation_date && p.date <= SNAPSHOT);
        if (i > 0) assert.ok(p.date <= r.previous_names[i - 1]!.date, 'newest first');
        assert.notEqual(p.name, r.name);
      }
      assert.deepEqual(r.limited_partnerships, { general_partners: 0, limited_partners: 0 });
    }
  });

  test('returns stop in 2016; confirmation statements are due a year and 14 days after the last', () => {
    for (const r of ROWS) {
      if (r.returns.last_made_up !== null) assert.ok(r.returns.last_made_up < '2016-06-30');
      assert.ok(r.returns.next_due !== null && isIsoDate(r.returns.next_due));
      const { next_due: due, last_made_up: last } = r.conf_stmt;
      assert.ok(due !== null && isIsoDate(due));
      if (last !== null) {
        assert.ok(last <= SNAPSHOT && last >= '2016-06-30');
        // A year and 14 days on (a day either way where 29 February is involved).
        const gap = fastDayNumber(due) - fastDayNumber(addMonths(last, 12)) - 14;
        assert.ok(Math.abs(gap) <= 1, `${r.company_number}: made up ${last}, due ${due}`);
      }
    }
    const late = share((r) => r.conf_stmt.next_due! < SNAPSHOT);
    assert.ok(late > 0.002 && late < 0.06, `${late}`);
  });
});
