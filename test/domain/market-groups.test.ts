import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GroupBy } from '../../src/domain/market-groups.ts';
import { compareGroups, groupKeys } from '../../src/domain/market-groups.ts';
import type { SearchDocument } from '../../src/domain/search-document.ts';
import { sicSection, sicSectionDivisions, SIC_SECTIONS } from '../../src/domain/sic-section.ts';
import { criteriaCompanies } from '../support/search-fixtures.ts';

describe('sicSection', () => {
  const cases: [code: string, section: string | null][] = [
    ['01110', 'A'],
    ['03220', 'A'],
    ['04000', null],
    ['05101', 'B'],
    ['09900', 'B'],
    ['10110', 'C'],
    ['33200', 'C'],
    ['34000', null],
    ['35110', 'D'],
    ['36000', 'E'],
    ['39000', 'E'],
    ['41100', 'F'],
    ['43999', 'F'],
    ['45111', 'G'],
    ['47990', 'G'],
    ['49100', 'H'],
    ['53202', 'H'],
    ['55100', 'I'],
    ['56302', 'I'],
    ['58110', 'J'],
    ['62020 - Information technology consultancy activities', 'J'],
    ['63990', 'J'],
    ['64191', 'K'],
    ['66300', 'K'],
    ['68209', 'L'],
    ['69201', 'M'],
    ['74990', 'M'],
    ['75000', 'M'],
    ['77110', 'N'],
    ['82990', 'N'],
    ['84110', 'O'],
    ['85200', 'P'],
    ['86101', 'Q'],
    ['88990', 'Q'],
    ['89000', null],
    ['90010', 'R'],
    ['93290', 'R'],
    ['94110', 'S'],
    ['96090', 'S'],
    ['97000', 'T'],
    ['98200', 'T'],
    ['99000', 'U'],
    ['99999 - Dormant Company', 'U'],
    ['62', 'J'],
    ['6', null],
    ['None Supplied', null],
    ['', null],
  ];
  for (const [code, section] of cases)
    test(`${JSON.stringify(code)}: ${section}`, () => assert.equal(sicSection(code), section));

  test('every used division is in exactly one section, and its section is the one sicSection gives', () => {
    const seen = new Map<string, string>();
    for (const section of Object.keys(SIC_SECTIONS) as (keyof typeof SIC_SECTIONS)[])
      for (const division of sicSectionDivisions(section)) {
        assert.equal(seen.has(division), false, division);
        seen.set(division, section);
        assert.equal(sicSection(division), section, division);
      }
    assert.equal(seen.size, 88);
  });
});

describe('groupKeys', () => {
  const base = criteriaCompanies.northwind;
  const doc = (changes: Partial<SearchDocument>): SearchDocument => ({ ...base, ...changes });
  const cases: [label: string, document: SearchDocument, groupBy: GroupBy, keys: (string | null)[]][] = [
    ['status as filed', doc({ status: 'Liquidation' }), 'status', ['Liquidation']],
    [
      'type as filed',
      doc({ type: 'PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)' }),
      'type',
      ['PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)'],
    ],
    [
      'two codes in one section',
      doc({ sic_prefixes: ['6', '62', '620', '6201', '62012', '63', '631', '6312', '63120'] }),
      'sic_section',
      ['J'],
    ],
    [
      'codes in two sections',
      doc({ sic_prefixes: ['6', '62', '620', '6202', '62020', '4', '47', '479', '4791', '47910'] }),
      'sic_section',
      ['J', 'G'],
    ],
    ['no SIC code', doc({ sic_prefixes: [] }), 'sic_section', [null]],
    ['only an unused division', doc({ sic_prefixes: ['8', '89', '890', '8900', '89000'] }), 'sic_section', [null]],
    [
      'each five-digit code',
      doc({ sic_prefixes: ['6', '62', '620', '6202', '62020', '4', '47', '479', '4791', '47910'] }),
      'sic_code',
      ['62020', '47910'],
    ],
    ['a four-digit code is no five-digit code', doc({ sic_prefixes: ['7', '74', '749', '7499'] }), 'sic_code', [null]],
    ['post town key', doc({ post_town_key: 'NEWCASTLE UPON TYNE' }), 'post_town', ['NEWCASTLE UPON TYNE']],
    ['no post town', doc({ post_town_key: null }), 'post_town', [null]],
    ['incorporation year', doc({ incorporated: '2019-03-04' }), 'incorporation_year', ['2019']],
    ['no incorporation date', doc({ incorporated: null }), 'incorporation_year', [null]],
    ['size band', doc({ size_band: 'small' }), 'size', ['small']],
    ['size unknown', doc({ size_band: null }), 'size', [null]],
    [
      'risk band while not overdue',
      doc({ must_file: true, accounts_next_due: '2026-06-01', risk_band: 'low', risk_band_if_overdue: 'medium' }),
      'risk_band',
      ['low'],
    ],
    [
      'risk band once overdue',
      doc({ must_file: true, accounts_next_due: '2026-01-01', risk_band: 'low', risk_band_if_overdue: 'medium' }),
      'risk_band',
      ['medium'],
    ],
    [
      'due today is not overdue',
      doc({ must_file: true, accounts_next_due: '2026-03-01', risk_band: 'low', risk_band_if_overdue: 'medium' }),
      'risk_band',
      ['low'],
    ],
    [
      'past due but not owed',
      doc({ must_file: false, accounts_next_due: '2026-01-01', risk_band: 'low', risk_band_if_overdue: 'medium' }),
      'risk_band',
      ['low'],
    ],
  ];
  for (const [label, document, groupBy, keys] of cases)
    test(`${groupBy}: ${label}`, () => assert.deepEqual(groupKeys(document, groupBy, '2026-03-01'), keys));
});

describe('compareGroups', () => {
  test('most companies first, ties by key in byte order, no value last', () => {
    const groups = [
      { key: 'b', companies: 2 },
      { key: null, companies: 2 },
      { key: 'B', companies: 2 },
      { key: 'a', companies: 5 },
      { key: null, companies: 9 },
    ];
    assert.deepEqual(
      groups.sort(compareGroups).map((g) => g.key),
      [null, 'a', 'B', 'b', null],
    );
  });
});
