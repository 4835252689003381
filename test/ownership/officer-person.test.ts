/**
 * Officers' person keys, as a table: made as a PSC's is, so that the PSC register's "Mr John
 * Andrew Smith" and the officers' "SMITH, John Andrew" of the same birth are one person.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { officerNameElements, officerPersonKey } from '../../src/ownership/officer-person.ts';
import type { OfficerIdentity } from '../../src/ownership/officer-person.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';

const born = { birth_year: 1970, birth_month: 5 };

const cases: { name: string; officer: OfficerIdentity; want: string | null }[] = [
  {
    name: 'surname, forenames',
    officer: { name: 'SMITH, John Andrew', role: 'director', ...born },
    want: 'individual|john andrew smith|1970|5',
  },
  {
    name: 'honours after a second comma are left out',
    officer: { name: 'SMITH, John, Sir', role: 'director', ...born },
    want: 'individual|john smith|1970|5',
  },
  {
    name: 'filed name elements win over the printed name',
    officer: {
      name: 'SMITH, Jack',
      role: 'secretary',
      ...born,
      data: { name_elements: { forename: 'John', other_forenames: 'Andrew', surname: 'SMITH', title: 'Mr' } },
    },
    want: 'individual|john andrew smith|1970|5',
  },
  {
    name: 'a corporate officer is keyed as a corporate PSC, with no birth',
    officer: { name: 'ACME  Secretaries LIMITED', role: 'corporate-secretary', birth_year: null, birth_month: null },
    want: 'corporate|acme secretaries limited||',
  },
  {
    name: 'a name without a comma is taken as written',
    officer: { name: 'John Smith', role: 'llp-member', ...born },
    want: 'individual|john smith|1970|5',
  },
  {
    name: 'no birth published',
    officer: { name: 'SMITH, John', role: 'director', birth_year: null, birth_month: null },
    want: 'individual|john smith||',
  },
];

for (const { name, officer, want } of cases)
  test(name, () => {
    assert.equal(officerPersonKey(officer), want);
  });

test('the same key as the PSC snapshot gives the same person', () => {
  const line = JSON.stringify({
    company_number: '00000001',
    data: {
      kind: 'individual-person-with-significant-control',
      name: 'Mr John Andrew Smith',
      name_elements: { title: 'Mr', forename: 'John', middle_name: 'Andrew', surname: 'Smith' },
      date_of_birth: { year: 1970, month: 5 },
      natures_of_control: ['ownership-of-shares-75-to-100-percent'],
      notified_on: '2020-01-01',
      links: { self: '/company/00000001/persons-with-significant-control/individual/abc' },
    },
  });
  const parsed = parsePscLine(line);
  assert.equal(parsed.type, 'psc');
  assert.equal(
    parsed.type === 'psc' ? parsed.record.person_key : null,
    officerPersonKey({ name: 'SMITH, John Andrew', role: 'director', ...born }),
  );
});

test('name elements of an officer: none for a corporate officer', () => {
  assert.deepEqual(officerNameElements('SMITH, John Andrew', 'director'), {
    title: null,
    forename: 'John',
    middle_name: 'Andrew',
    surname: 'SMITH',
  });
  assert.equal(officerNameElements('ACME LIMITED', 'corporate-director'), null);
});
