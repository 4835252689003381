import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PersonRecord } from '../../src/ownership/people.ts';
import { personDocument, personSearchName } from '../../src/ownership/people.ts';
import { PERSON_COMPANIES_KEPT } from '../../src/domain/people.ts';

function record(companyNumber: string, more: Partial<PersonRecord> = {}): PersonRecord {
  return {
    person_key: 'individual|jane doe|1975|3',
    company_number: companyNumber,
    company_name: `COMPANY ${companyNumber} LTD`,
    kind_class: 'individual',
    name: 'Ms Jane Doe',
    name_elements: { title: 'Ms', forename: 'Jane', middle_name: null, surname: 'Doe' },
    natures_of_control: ['ownership-of-shares-75-to-100-percent'],
    notified_on: '2020-01-01',
    ceased_on: null,
    ceased: false,
    birth_year: 1975,
    birth_month: 3,
    nationality: 'British',
    country_of_residence: 'England',
    country: null,
    registered_company_number: null,
    identity_verification: null,
    ...more,
  };
}

describe('personDocument', () => {
  const cases: {
    name: string;
    records: PersonRecord[];
    want: { companies: [string, boolean][]; current: number; count: number; name?: string } | null;
  }[] = [
    { name: 'no records: nobody', records: [], want: null },
    {
      name: 'statements and super-secure PSCs name nobody',
      records: [record('1', { kind_class: 'statement' }), record('2', { kind_class: 'super_secure' })],
      want: null,
    },
    {
      name: 'a record without any name names nobody',
      records: [record('1', { name: null, name_elements: null })],
      want: null,
    },
    {
      name: 'current first, newest notified first, ceased last',
      records: [
        record('00000003', { notified_on: '2019-01-01', ceased: true, ceased_on: '2021-01-01' }),
        record('00000001', { notified_on: '2018-01-01' }),
        record('00000002', { notified_on: '2022-01-01' }),
      ],
      want: {
        companies: [
          ['00000002', false],
          ['00000001', false],
          ['00000003', true],
        ],
        current: 2,
        count: 3,
      },
    },
    {
      name: 'a company listed twice (ceased, then notified again) appears once, as its current record',
      records: [
        record('00000001', { notified_on: '2016-04-06', ceased: true, ceased_on: '2019-12-31' }),
        record('00000001', { notified_on: '2020-01-01' }),
      ],
      want: { companies: [['00000001', false]], current: 1, count: 1 },
    },
    {
      name: 'the name as filed on the newest current record',
      records: [
        record('00000001', { notified_on: '2016-04-06', name: 'Miss Jane Doe' }),
        record('00000002', { notified_on: '2024-01-01', name: 'Ms Jane Doe' }),
        record('00000003', { notified_on: '2025-01-01', name: 'Mrs Jane Doe', ceased: true }),
      ],
      want: {
        companies: [
          ['00000002', false],
          ['00000001', false],
          ['00000003', true],
        ],
        current: 2,
        count: 3,
        name: 'Ms Jane Doe',
      },
    },
    {
      name: 'no name filed: put together from the elements',
      records: [record('00000001', { name: null })],
      want: { companies: [['00000001', false]], current: 1, count: 1, name: 'Ms Jane Doe' },
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      const person = personDocument(c.records);
      if (c.want === null) return assert.equal(person, null);
      assert.ok(person);
      assert.deepEqual(
        person.companies.map((company) => [company.company_number, company.ceased]),
        c.want.companies,
      );
      assert.equal(person.current_companies, c.want.current);
      assert.equal(person.company_count, c.want.count);
      if (c.want.name) assert.equal(person.name, c.want.name);
    });

  test('nationality and the like from the newest record that says; never more than the kept companies', () => {
    const records = Array.from({ length: PERSON_COMPANIES_KEPT + 5 }, (_, i) =>
      record(String(i).padStart(8, '0'), { nationality: i === 7 ? 'Irish' : null }),
    );
    const person = personDocument(records)!;
    assert.equal(person.nationality, 'Irish');
    assert.equal(person.company_count, PERSON_COMPANIES_KEPT + 5);
    assert.equal(person.current_companies, PERSON_COMPANIES_KEPT + 5);
    assert.equal(person.companies.length, PERSON_COMPANIES_KEPT);
    assert.deepEqual(personSearchName(person), { normalised: 'JANE DOE', length: 8 });
  });
});
