import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalisePersonName, personNameQuery } from '../../src/ownership/person-name.ts';
import type { PscKindClass, PscNameElements } from '../../src/domain/psc.ts';

const elements = (title: string | null, forename: string | null, middle: string | null, surname: string | null) =>
  ({ title, forename, middle_name: middle, surname }) satisfies PscNameElements;

describe('normalisePersonName', () => {
  const cases: { name: string; kind: PscKindClass; elements?: PscNameElements; want: string }[] = [
    {
      name: 'Mr John Andrew Smith',
      kind: 'individual',
      elements: elements('Mr', 'John', 'Andrew', 'SMITH'),
      want: 'JOHN ANDREW SMITH',
    },
    // The elements win over the name as printed.
    { name: 'Mr J A Smith', kind: 'individual', elements: elements('Mr', 'John', null, 'Smith'), want: 'JOHN SMITH' },
    {
      name: 'Dame Zoë O’Brien-Hughes',
      kind: 'individual',
      elements: elements('Dame', 'Zoë', null, 'O’Brien-Hughes'),
      want: 'ZOE OBRIEN HUGHES',
    },
    // No forename or surname among the elements: the name less the filed title.
    {
      name: 'Councillor Jane Doe',
      kind: 'individual',
      elements: elements('Councillor', null, null, null),
      want: 'JANE DOE',
    },
    // No elements at all: the name less the usual titles, however many.
    { name: 'Prof Sir Alan Turing', kind: 'individual', want: 'ALAN TURING' },
    { name: 'Mrs. Ada Lovelace', kind: 'individual', want: 'ADA LOVELACE' },
    // A title that is the whole name stays.
    { name: 'Lord', kind: 'individual', want: 'LORD' },
    // Companies and legal persons: as company names are normalised, titles and all.
    { name: 'ACME HOLDINGS LIMITED', kind: 'corporate', want: 'ACME HOLDINGS' },
    { name: 'Sir Robert McAlpine Limited', kind: 'corporate', want: 'SIR ROBERT MCALPINE' },
    { name: 'The Secretary of State for Defence', kind: 'legal_person', want: 'THE SECRETARY OF STATE FOR DEFENCE' },
    { name: 'Smith & Sons Trustees Ltd.', kind: 'legal_person', want: 'SMITH AND SONS TRUSTEES' },
  ];
  for (const c of cases)
    test(`${c.kind} "${c.name}" → "${c.want}"`, () => {
      assert.equal(normalisePersonName(c.name, c.kind, c.elements ?? null), c.want);
    });
});

describe('personNameQuery', () => {
  const cases: { input: string; want: string }[] = [
    { input: 'john smith', want: 'JOHN SMITH' },
    { input: 'Mr John Smith', want: 'JOHN SMITH' },
    { input: 'dr. who', want: 'WHO' },
    { input: 'ACME HOLDINGS LTD', want: 'ACME HOLDINGS' },
    { input: 'mr acme ltd', want: 'ACME' },
    { input: 'Mr', want: 'MR' },
    { input: 'LIMITED', want: 'LIMITED' },
    { input: "o'brien", want: 'OBRIEN' },
    { input: '  !!  ', want: '' },
  ];
  for (const c of cases)
    test(`"${c.input}" → "${c.want}"`, () => {
      const query = personNameQuery(c.input);
      assert.equal(query.phrase, c.want);
      assert.deepEqual(query.words, c.want === '' ? [] : c.want.split(' '));
    });
});
