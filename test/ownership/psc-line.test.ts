import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isoDate, parsePscLine } from '../../src/ownership/psc-line.ts';
import type { PscLine, PscRecord } from '../../src/domain/psc.ts';
import { samplesDir } from '../support/samples.ts';

const REAL = readFileSync(new URL('./fixtures/real-psc-snapshot.jsonl', import.meta.url), 'utf8')
  .trimEnd()
  .split('\n');

function record(line: string): PscRecord {
  const parsed = parsePscLine(line);
  assert.equal(parsed.type, 'psc', JSON.stringify(parsed));
  return (parsed as Extract<PscLine, { type: 'psc' }>).record;
}

/** Assert the fields named in `want` and nothing else. */
function assertFields(got: PscRecord, want: Partial<PscRecord>) {
  const picked = Object.fromEntries(Object.keys(want).map((key) => [key, got[key as keyof PscRecord]]));
  assert.deepEqual(picked, want);
}

describe('parsePscLine: real snapshot records (fixtures/README.md) read as read by hand', () => {
  const cases: { line: number; name: string; want: Partial<PscRecord> }[] = [
    {
      line: 1,
      name: 'an individual who has ceased',
      want: {
        company_number: '09145694',
        psc_id: 'bIhuKnMFctSnjrDjUG8n3NgOrlU',
        kind: 'individual-person-with-significant-control',
        kind_class: 'individual',
        beneficial_owner: false,
        name: 'Mrs Nga Thanh Wildman',
        name_elements: { title: 'Mrs', forename: 'Nga', middle_name: 'Thanh', surname: 'Wildman' },
        natures_of_control: ['ownership-of-shares-50-to-75-percent'],
        notified_on: '2016-04-06',
        ceased_on: '2018-05-14',
        ceased: true,
        birth_year: 1977,
        birth_month: 2,
        nationality: 'Vietnamese',
        country_of_residence: 'England',
        identification: null,
        statement: null,
        registered_company_number: null,
        country: null,
        overseas: null,
        person_key: 'individual|nga thanh wildman|1977|2',
        content_hash: '3b8caf795c03af63921e381f7bb8300a51ebb73d',
      },
    },
    {
      line: 2,
      name: 'a current individual (an unknown top-level field beside data)',
      want: {
        company_number: '08209948',
        psc_id: 'FReSTxwXcJbAHBrerDpmTylkW48',
        notified_on: '2021-12-13',
        ceased_on: null,
        ceased: false,
        birth_year: 1961,
        birth_month: 12,
        nationality: 'British',
        natures_of_control: ['ownership-of-shares-75-to-100-percent'],
        person_key: 'individual|marc anthony feldman|1961|12',
      },
    },
    {
      line: 3,
      name: 'a statement (no PSC) withdrawn when a PSC was notified',
      want: {
        company_number: '08209948',
        psc_id: 'Z1EPZ-AyS_CpOQyqHfFzyRcbkdg',
        kind: 'persons-with-significant-control-statement',
        kind_class: 'statement',
        statement: 'no-individual-or-entity-with-signficant-control',
        notified_on: '2016-09-11',
        ceased_on: '2021-12-13',
        ceased: true,
        name: null,
        natures_of_control: [],
        person_key: null,
        content_hash: 'a848fe5c41b6afed72f4fda736c07921eb3d8349',
      },
    },
    {
      line: 4,
      name: 'a corporate PSC registered at Companies House',
      want: {
        company_number: '07434180',
        psc_id: '4VX8NR7hszDG1wJAzQS9Oi7Z5c4',
        kind_class: 'corporate',
        name: 'Robert Hitchins Limited',
        identification: {
          legal_authority: 'Companies Act',
          legal_form: 'Private Limited Company',
          place_registered: 'Companies House Cardiff',
          registration_number: '00686734',
          country_registered: 'England & Wales',
        },
        registered_company_number: '00686734',
        country: 'England & Wales',
        overseas: false,
        birth_year: null,
        person_key: 'corporate|robert hitchins limited||',
        natures_of_control: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
      },
    },
    {
      line: 5,
      name: 'an individual with a middle name',
      want: { company_number: '08810260', person_key: 'individual|michael charles saunders|1951|8' },
    },
    {
      line: 6,
      name: 'a corporate beneficial owner of an overseas entity, in Gibraltar',
      want: {
        company_number: 'OE029880',
        kind: 'corporate-entity-beneficial-owner',
        kind_class: 'corporate',
        beneficial_owner: true,
        notified_on: '2005-11-21',
        registered_company_number: null,
        country: 'Gibraltar',
        overseas: true,
        natures_of_control: ['significant-influence-or-control-as-trust-registered-overseas-entity'],
      },
    },
    {
      line: 7,
      name: 'a legal person: a Chinese government department',
      want: {
        company_number: '07102351',
        kind_class: 'legal_person',
        beneficial_owner: false,
        name: 'State Administration Of Foreign Exchange',
        country: 'China',
        overseas: true,
        person_key: 'legal_person|state administration of foreign exchange||',
      },
    },
    {
      line: 8,
      name: 'a legal-person beneficial owner: a government',
      want: {
        company_number: 'OE031044',
        kind_class: 'legal_person',
        beneficial_owner: true,
        country: 'Czech Republic',
        overseas: true,
      },
    },
    {
      line: 9,
      name: 'a super-secure PSC, current',
      want: {
        company_number: '02443921',
        psc_id: 'NcZQQA0LMrXYV1u0fGRHLrGIL_I',
        kind_class: 'super_secure',
        ceased: false,
        name: null,
        notified_on: null,
        person_key: null,
      },
    },
    {
      line: 10,
      name: 'a super-secure PSC ceased with "ceased":1',
      want: { company_number: '09672611', kind_class: 'super_secure', ceased: true, ceased_on: null },
    },
    {
      line: 11,
      name: 'a corporate PSC at Companies House with the country in its legal authority too',
      want: {
        company_number: '04120481',
        registered_company_number: '03530981',
        country: 'England And Wales',
        overseas: false,
      },
    },
    {
      line: 12,
      name: 'a title with a full stop',
      want: {
        company_number: '03136191',
        person_key: 'individual|michael stanley bunyan|1957|10',
        notified_on: '2016-11-01',
      },
    },
    {
      line: 13,
      name: 'no middle name, resident in Wales',
      want: { person_key: 'individual|derek salter|1955|6', country_of_residence: 'Wales' },
    },
    {
      line: 14,
      name: 'English law and no registration number',
      want: { company_number: '04609051', registered_company_number: null, country: 'England', overseas: false },
    },
    {
      line: 15,
      name: 'only "Companies Act 2006"',
      want: { company_number: '06452920', registered_company_number: null, country: null, overseas: false },
    },
    {
      line: 16,
      name: 'an individual who has ceased, with no title',
      want: {
        company_number: '10308742',
        ceased: true,
        ceased_on: '2018-02-27',
        nationality: 'Polish',
        person_key: 'individual|karol kuczkowski|1979|10',
        natures_of_control: [
          'ownership-of-shares-75-to-100-percent',
          'voting-rights-75-to-100-percent',
          'right-to-appoint-and-remove-directors',
          'significant-influence-or-control',
        ],
      },
    },
    {
      line: 17,
      name: 'legal authority and legal form swapped',
      // Neither the identification nor the address (London, no country) says where: not known, not false.
      want: { company_number: '10308743', registered_company_number: null, country: null, overseas: null },
    },
    { line: 18, name: '"Companies Act 1985"', want: { company_number: '05881142', country: null, overseas: false } },
    { line: 19, name: 'a 25-50% corporate PSC', want: { company_number: '07731393', overseas: false } },
    {
      line: 20,
      name: 'an overseas parent in Minnesota',
      want: { company_number: '02847483', registered_company_number: null, country: 'Minnesota, Usa', overseas: true },
    },
  ];
  for (const { line, name, want } of cases) {
    test(`line ${line}: ${name}`, () => assertFields(record(REAL[line - 1]!), want));
  }

  test('the closing line is the summary, with its counts', () => {
    const summary = parsePscLine(REAL[20]!);
    assert.equal(summary.type, 'summary');
    assert.deepEqual((summary as Extract<PscLine, { type: 'summary' }>).data, {
      kind: 'totals#persons-of-significant-control-snapshot',
      persons_of_significant_control_count: 12_799_821,
      statements_count: 774_422,
      exemptions_count: 77,
      generated_at: '2024-11-22T03:43:03Z',
    });
  });

  test('every line is read; none is rejected', () => {
    assert.equal(REAL.length, 21);
    for (const line of REAL) assert.notEqual(parsePscLine(line).type, 'rejected', line);
  });

  test("an individual's address and day of birth are not kept; everything else is", () => {
    const kept = record(REAL[0]!).data;
    assert.equal('address' in kept, false);
    assert.deepEqual(kept.date_of_birth, { month: 2, year: 1977 });
    assert.equal(kept.etag, '3b8caf795c03af63921e381f7bb8300a51ebb73d');
    assert.deepEqual(Object.keys(kept).sort(), [
      'ceased_on',
      'country_of_residence',
      'date_of_birth',
      'etag',
      'kind',
      'links',
      'name',
      'name_elements',
      'nationality',
      'natures_of_control',
      'notified_on',
    ]);
  });

  test("a corporate PSC's data is kept whole, address and unknown fields included", () => {
    const data = record(REAL[5]!).data;
    assert.equal(data.is_sanctioned, false);
    assert.deepEqual(Object.keys(data.principal_office_address as object).length, 5);
    assert.equal((data.address as Record<string, unknown>).country, 'Gibraltar');
  });
});

const INDIVIDUAL = {
  etag: 'e1',
  kind: 'individual-person-with-significant-control',
  links: { self: '/company/01234567/persons-with-significant-control/individual/abc' },
  name: 'Mr John Smith',
  name_elements: { title: 'Mr', forename: 'John', surname: 'Smith' },
  date_of_birth: { day: 14, month: 3, year: 1970 },
  address: { premises: '1', postal_code: 'AB1 2CD' },
  natures_of_control: ['ownership-of-shares-75-to-100-percent'],
  notified_on: '2016-04-06',
};

/** A line of `data` for company 01234567. */
function line(data: unknown, companyNumber: unknown = '01234567'): string {
  return JSON.stringify({ company_number: companyNumber, data });
}

describe('parsePscLine: lines it cannot use are rejected with the reason', () => {
  const cases: { name: string; input: string; reason: RegExp }[] = [
    { name: 'an empty line', input: '', reason: /^not JSON/ },
    { name: 'not JSON', input: 'NOT JSON', reason: /^not JSON/ },
    { name: 'a cut line', input: line(INDIVIDUAL).slice(0, 80), reason: /^not JSON/ },
    { name: 'an array', input: '[1,2]', reason: /not a JSON object/ },
    { name: 'a string', input: '"x"', reason: /not a JSON object/ },
    { name: 'null', input: 'null', reason: /not a JSON object/ },
    { name: 'no data', input: '{"company_number":"01234567"}', reason: /no data object/ },
    { name: 'data a string', input: line('x'), reason: /no data object/ },
    { name: 'data an array', input: line([INDIVIDUAL]), reason: /no data object/ },
    { name: 'no kind', input: line({ name: 'x' }), reason: /no data\.kind/ },
    { name: 'a kind of the wrong type', input: line({ kind: 7 }), reason: /no data\.kind/ },
    { name: 'no company number', input: JSON.stringify({ data: INDIVIDUAL }), reason: /no company_number/ },
    { name: 'a blank company number', input: line(INDIVIDUAL, '  '), reason: /no company_number/ },
    { name: 'a company number object', input: line(INDIVIDUAL, { n: 1 }), reason: /no company_number/ },
    { name: 'a company number too long', input: line(INDIVIDUAL, '123456789'), reason: /is not a company number/ },
    { name: 'a company number with a dash', input: line(INDIVIDUAL, '1234-567'), reason: /is not a company number/ },
  ];
  for (const { name, input, reason } of cases) {
    test(name, () => {
      const parsed = parsePscLine(input);
      assert.equal(parsed.type, 'rejected');
      assert.match((parsed as Extract<PscLine, { type: 'rejected' }>).reason, reason);
    });
  }
});

describe('parsePscLine: every field read defensively', () => {
  const cases: { name: string; input: string; want: Partial<PscRecord> }[] = [
    {
      name: 'a short company number is padded',
      input: line(INDIVIDUAL, '1234567'),
      want: { company_number: '01234567' },
    },
    { name: 'a company number as a number', input: line(INDIVIDUAL, 1234567), want: { company_number: '01234567' } },
    { name: 'a lower-case prefix', input: line(INDIVIDUAL, 'sc123456'), want: { company_number: 'SC123456' } },
    {
      name: 'the day of birth is never read',
      input: line(INDIVIDUAL),
      want: { birth_year: 1970, birth_month: 3, person_key: 'individual|john smith|1970|3' },
    },
    {
      name: 'a name of the wrong type',
      input: line({ ...INDIVIDUAL, name: 42, name_elements: null }),
      want: { name: null, name_elements: null, person_key: null },
    },
    {
      name: 'name elements of the wrong type: the title dropped from the name',
      input: line({ ...INDIVIDUAL, name_elements: 'John Smith' }),
      want: { name_elements: null, person_key: 'individual|john smith|1970|3' },
    },
    {
      name: 'name element fields of the wrong type',
      input: line({ ...INDIVIDUAL, name_elements: { forename: 1, surname: 'Smith', title: ['Mr'] } }),
      want: {
        name_elements: { title: null, forename: null, middle_name: null, surname: 'Smith' },
        person_key: 'individual|smith|1970|3',
      },
    },
    {
      name: 'a name with odd spacing and case, without elements',
      input: line({ ...INDIVIDUAL, name: '  DR.   Jane   van  DYKE ', name_elements: undefined }),
      want: { person_key: 'individual|jane van dyke|1970|3' },
    },
    {
      name: 'a name whose first word is not a title',
      input: line({ ...INDIVIDUAL, name: 'Misty Blue', name_elements: undefined }),
      want: { person_key: 'individual|misty blue|1970|3' },
    },
    {
      name: 'a corporate name starting with a title word keeps it',
      input: line({ kind: 'corporate-entity-person-with-significant-control', name: 'Lord  Lighting LTD', etag: 'x' }),
      want: { person_key: 'corporate|lord lighting ltd||', identification: null, country: null },
    },
    {
      name: 'natures of control not a list',
      input: line({ ...INDIVIDUAL, natures_of_control: 'ownership-of-shares-75-to-100-percent' }),
      want: { natures_of_control: [] },
    },
    {
      name: 'natures of control with other things in the list',
      input: line({ ...INDIVIDUAL, natures_of_control: [1, null, '', 'voting-rights-25-to-50-percent', {}] }),
      want: { natures_of_control: ['voting-rights-25-to-50-percent'] },
    },
    {
      name: 'a notified date that is not a date',
      input: line({ ...INDIVIDUAL, notified_on: '2016-13-01' }),
      want: { notified_on: null },
    },
    {
      name: 'a notified date as a number',
      input: line({ ...INDIVIDUAL, notified_on: 20160406 }),
      want: { notified_on: null },
    },
    {
      name: 'a notified date with a time',
      input: line({ ...INDIVIDUAL, notified_on: '2016-04-06T00:00:00' }),
      want: { notified_on: null },
    },
    {
      name: 'a ceased date that is not a date still means ceased',
      input: line({ ...INDIVIDUAL, ceased_on: '9999-99-99' }),
      want: { ceased_on: null, ceased: true },
    },
    {
      name: 'ceased true without a date',
      input: line({ ...INDIVIDUAL, ceased: true }),
      want: { ceased: true, ceased_on: null },
    },
    { name: 'ceased as a string is not read', input: line({ ...INDIVIDUAL, ceased: 'yes' }), want: { ceased: false } },
    { name: 'ceased 0', input: line({ ...INDIVIDUAL, ceased: 0 }), want: { ceased: false } },
    {
      name: 'a birth date of the wrong shape',
      input: line({ ...INDIVIDUAL, date_of_birth: '1970-03' }),
      want: { birth_year: null, birth_month: null, person_key: 'individual|john smith||' },
    },
    {
      name: 'birth month and year out of range or of the wrong type',
      input: line({ ...INDIVIDUAL, date_of_birth: { month: 13, year: '1970' } }),
      want: { birth_year: null, birth_month: null },
    },
    {
      name: 'a fractional birth month',
      input: line({ ...INDIVIDUAL, date_of_birth: { month: 2.5, year: 1970 } }),
      want: { birth_month: null },
    },
    {
      name: 'nationality and residence of the wrong type',
      input: line({ ...INDIVIDUAL, nationality: ['British'], country_of_residence: 4 }),
      want: { nationality: null, country_of_residence: null },
    },
    {
      name: 'links of the wrong type: the etag is the id',
      input: line({ ...INDIVIDUAL, links: '/company/x/y' }),
      want: { psc_id: 'e1', content_hash: 'e1' },
    },
    {
      name: 'a self link ending in a slash: the etag is the id',
      input: line({ ...INDIVIDUAL, links: { self: '/company/01234567/persons-with-significant-control/individual/' } }),
      want: { psc_id: 'e1' },
    },
    {
      name: 'an unknown kind is kept as other',
      input: line({ kind: 'some-future-kind-of-control', etag: 'f', name: 'Someone', novel: { a: 1 } }),
      want: {
        kind: 'some-future-kind-of-control',
        kind_class: 'other',
        beneficial_owner: false,
        name: 'Someone',
        person_key: null,
        data: { kind: 'some-future-kind-of-control', etag: 'f', name: 'Someone', novel: { a: 1 } },
      },
    },
    {
      name: 'an individual beneficial owner is an individual: address dropped',
      input: line({ ...INDIVIDUAL, kind: 'individual-beneficial-owner', date_of_birth: { month: 3, year: 1970 } }),
      want: {
        kind_class: 'individual',
        beneficial_owner: true,
        data: {
          ...(({ address: _a, ...rest }) => rest)(INDIVIDUAL),
          kind: 'individual-beneficial-owner',
          date_of_birth: { month: 3, year: 1970 },
        },
      },
    },
    {
      name: 'a super-secure beneficial owner',
      input: line({ kind: 'super-secure-beneficial-owner', etag: 's' }),
      want: { kind_class: 'super_secure', beneficial_owner: true, person_key: null },
    },
    {
      name: 'exemptions',
      input: line({
        kind: 'exemptions',
        exemptions: { psc_exempt_as_shares_admitted_on_market: { items: [] } },
        links: { self: '/company/01234567/exemptions' },
      }),
      want: { kind_class: 'exemption', psc_id: 'exemptions', person_key: null, statement: null },
    },
    {
      name: 'identification of the wrong type',
      input: line({
        kind: 'corporate-entity-person-with-significant-control',
        etag: 'c',
        name: 'X Ltd',
        identification: ['England'],
      }),
      want: { identification: null, registered_company_number: null, country: null, overseas: null },
    },
    {
      name: 'identification fields of the wrong type',
      input: line({
        kind: 'corporate-entity-person-with-significant-control',
        etag: 'c',
        identification: { country_registered: 'England', registration_number: 1234567 },
      }),
      want: {
        identification: {
          legal_authority: null,
          legal_form: null,
          place_registered: null,
          registration_number: null,
          country_registered: 'England',
        },
        registered_company_number: null,
        country: 'England',
      },
    },
    {
      name: 'a Scottish parent',
      input: line({
        kind: 'corporate-entity-person-with-significant-control',
        etag: 'c',
        identification: {
          country_registered: 'Scotland',
          place_registered: 'Companies House',
          registration_number: 'sc 123456',
        },
      }),
      want: { registered_company_number: 'SC123456', country: 'Scotland', overseas: false },
    },
  ];
  for (const { name, input, want } of cases) {
    test(name, () => assertFields(record(input), want));
  }

  test('with no links and no etag, the id and the hash are the sha1 of the line', () => {
    const input = line({ kind: 'persons-with-significant-control-statement', statement: 'psc-details-not-confirmed' });
    const sha1 = createHash('sha1').update(input).digest('hex');
    assertFields(record(input), { psc_id: sha1, content_hash: sha1, statement: 'psc-details-not-confirmed' });
  });

  test('a byte-order mark before the first line is skipped; a line end after it is no matter', () => {
    assertFields(record(`\ufeff${line(INDIVIDUAL)}`), { company_number: '01234567', psc_id: 'abc' });
    assertFields(record(`${line(INDIVIDUAL)}\r`), { company_number: '01234567', psc_id: 'abc' });
  });

  test('a summary line is a summary even beside a company number', () => {
    assert.equal(parsePscLine(line({ kind: 'totals#persons-of-significant-control-snapshot' })).type, 'summary');
  });

  test('a birth date filed as text is not kept in data: it may hold the day', () => {
    const kept = record(line({ ...INDIVIDUAL, date_of_birth: '1970-03-14' }));
    assertFields(kept, { birth_year: null, birth_month: null });
    assert.equal('date_of_birth' in kept.data, false);
  });

  test('a wrong-typed day of birth does not survive in data either', () => {
    const data = record(line({ ...INDIVIDUAL, date_of_birth: { day: '14', month: 3, year: 1970 } })).data;
    assert.deepEqual(data.date_of_birth, { month: 3, year: 1970 });
    assert.equal('address' in data, false);
  });
});

describe('isoDate', () => {
  const cases: { input: unknown; want: string | null }[] = [
    { input: '2016-04-06', want: '2016-04-06' },
    { input: '2020-02-29', want: '2020-02-29' },
    { input: '2000-02-29', want: '2000-02-29' },
    { input: '1900-02-29', want: null },
    { input: '2019-02-29', want: null },
    { input: '2016-04-31', want: null },
    { input: '2016-00-10', want: null },
    { input: '2016-04-00', want: null },
    { input: '0000-01-01', want: null },
    { input: '1083-01-01', want: '1083-01-01' },
    { input: '2016/04/06', want: null },
    { input: '2016-4-6', want: null },
    { input: '20a6-04-06', want: null },
    { input: 20160406, want: null },
    { input: null, want: null },
  ];
  for (const { input, want } of cases)
    test(`${JSON.stringify(input)} -> ${want}`, () => assert.equal(isoDate(input), want));
});

describe('parsePscLine: where an entity is, from its address when its identification does not say', () => {
  const sample = readFileSync(
    join(samplesDir, 'psc', 'persons-with-significant-control-snapshot-2024-11-22.txt'),
    'utf8',
  ).split('\n');
  const real = (companyNumber: string) => {
    const line = sample.find((text) => text.startsWith(`{"company_number":"${companyNumber}"`));
    assert.ok(line, `the sample holds ${companyNumber}`);
    return line;
  };
  const cases: { name: string; line: string; want: Partial<PscRecord> }[] = [
    {
      name: 'a Swiss AG in Zug (real: "Limited Liability", "Ag", its address in Switzerland) is overseas',
      line: real('01507964'),
      want: { kind_class: 'corporate', country: 'Switzerland', overseas: true },
    },
    {
      name: 'an individual is no entity registered anywhere: not known, not false',
      line: real('08209948'),
      want: { kind_class: 'individual', country: null, overseas: null },
    },
  ];
  for (const { name, line, want } of cases) test(name, () => assertFields(record(line), want));
});
