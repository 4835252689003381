/**
 * The register's codes in words: every nature-of-control and statement code Companies House lists
 * (companieshouse/api-enumerations psc_descriptions.yml, August 2026) is known and reads in words;
 * the words of each kind of nature; codes not in the list read as themselves; an edge's bands.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ControlBands } from '../../src/ownership/natures.ts';
import {
  controlBand,
  describeNature,
  NATURES,
  naturesInWords,
  readableCode,
  statementMeaning,
  STATEMENTS,
} from '../../src/ownership/natures.ts';

/** The `description` keys of psc_descriptions.yml, in its order. */
const REGISTER_NATURE_CODES = [
  'ownership-of-shares-25-to-50-percent',
  'ownership-of-shares-50-to-75-percent',
  'ownership-of-shares-75-to-100-percent',
  'ownership-of-shares-25-to-50-percent-as-trust',
  'ownership-of-shares-50-to-75-percent-as-trust',
  'ownership-of-shares-75-to-100-percent-as-trust',
  'ownership-of-shares-25-to-50-percent-as-firm',
  'ownership-of-shares-50-to-75-percent-as-firm',
  'ownership-of-shares-75-to-100-percent-as-firm',
  'ownership-of-shares-more-than-25-percent-registered-overseas-entity',
  'ownership-of-shares-more-than-25-percent-as-trust-registered-overseas-entity',
  'ownership-of-shares-more-than-25-percent-as-firm-registered-overseas-entity',
  'ownership-of-shares-more-than-25-percent-as-control-over-trust-registered-overseas-entity',
  'ownership-of-shares-more-than-25-percent-as-control-over-firm-registered-overseas-entity',
  'voting-rights-25-to-50-percent',
  'voting-rights-50-to-75-percent',
  'voting-rights-75-to-100-percent',
  'voting-rights-25-to-50-percent-as-trust',
  'voting-rights-50-to-75-percent-as-trust',
  'voting-rights-75-to-100-percent-as-trust',
  'voting-rights-25-to-50-percent-as-firm',
  'voting-rights-50-to-75-percent-as-firm',
  'voting-rights-75-to-100-percent-as-firm',
  'voting-rights-more-than-25-percent-registered-overseas-entity',
  'voting-rights-more-than-25-percent-as-trust-registered-overseas-entity',
  'voting-rights-more-than-25-percent-as-firm-registered-overseas-entity',
  'voting-rights-more-than-25-percent-as-control-over-trust-registered-overseas-entity',
  'voting-rights-more-than-25-percent-as-control-over-firm-registered-overseas-entity',
  'right-to-appoint-and-remove-directors',
  'right-to-appoint-and-remove-directors-as-trust',
  'right-to-appoint-and-remove-directors-as-firm',
  'right-to-appoint-and-remove-directors-as-control-over-trust-registered-overseas-entity',
  'right-to-appoint-and-remove-directors-as-control-over-firm-registered-overseas-entity',
  'significant-influence-or-control',
  'significant-influence-or-control-as-trust',
  'significant-influence-or-control-as-firm',
  'right-to-share-surplus-assets-25-to-50-percent-limited-liability-partnership',
  'right-to-share-surplus-assets-50-to-75-percent-limited-liability-partnership',
  'right-to-share-surplus-assets-75-to-100-percent-limited-liability-partnership',
  'right-to-share-surplus-assets-25-to-50-percent-as-trust-limited-liability-partnership',
  'right-to-share-surplus-assets-50-to-75-percent-as-trust-limited-liability-partnership',
  'right-to-share-surplus-assets-75-to-100-percent-as-trust-limited-liability-partnership',
  'right-to-share-surplus-assets-25-to-50-percent-as-firm-limited-liability-partnership',
  'right-to-share-surplus-assets-50-to-75-percent-as-firm-limited-liability-partnership',
  'right-to-share-surplus-assets-75-to-100-percent-as-firm-limited-liability-partnership',
  'voting-rights-25-to-50-percent-limited-liability-partnership',
  'voting-rights-50-to-75-percent-limited-liability-partnership',
  'voting-rights-75-to-100-percent-limited-liability-partnership',
  'voting-rights-25-to-50-percent-as-trust-limited-liability-partnership',
  'voting-rights-50-to-75-percent-as-trust-limited-liability-partnership',
  'voting-rights-75-to-100-percent-as-trust-limited-liability-partnership',
  'voting-rights-25-to-50-percent-as-firm-limited-liability-partnership',
  'voting-rights-50-to-75-percent-as-firm-limited-liability-partnership',
  'voting-rights-75-to-100-percent-as-firm-limited-liability-partnership',
  'right-to-appoint-and-remove-members-limited-liability-partnership',
  'right-to-appoint-and-remove-members-as-trust-limited-liability-partnership',
  'right-to-appoint-and-remove-members-as-firm-limited-liability-partnership',
  'significant-influence-or-control-limited-liability-partnership',
  'significant-influence-or-control-as-trust-limited-liability-partnership',
  'significant-influence-or-control-as-firm-limited-liability-partnership',
  'significant-influence-or-control-registered-overseas-entity',
  'significant-influence-or-control-as-trust-registered-overseas-entity',
  'significant-influence-or-control-as-firm-registered-overseas-entity',
  'significant-influence-or-control-as-control-over-trust-registered-overseas-entity',
  'significant-influence-or-control-as-control-over-firm-registered-overseas-entity',
  'part-right-to-share-surplus-assets-25-to-50-percent',
  'part-right-to-share-surplus-assets-50-to-75-percent',
  'part-right-to-share-surplus-assets-75-to-100-percent',
  'part-right-to-share-surplus-assets-25-to-50-percent-as-trust',
  'part-right-to-share-surplus-assets-50-to-75-percent-as-trust',
  'part-right-to-share-surplus-assets-75-to-100-percent-as-trust',
  'part-right-to-share-surplus-assets-25-to-50-percent-as-firm',
  'part-right-to-share-surplus-assets-50-to-75-percent-as-firm',
  'part-right-to-share-surplus-assets-75-to-100-percent-as-firm',
  'right-to-appoint-and-remove-person',
  'right-to-appoint-and-remove-person-as-firm',
  'right-to-appoint-and-remove-person-as-trust',
  'right-to-appoint-and-remove-directors-registered-overseas-entity',
  'right-to-appoint-and-remove-directors-as-trust-registered-overseas-entity',
  'right-to-appoint-and-remove-directors-as-firm-registered-overseas-entity',
  'registered-owner-as-nominee-person-england-wales-registered-overseas-entity',
  'registered-owner-as-nominee-person-scotland-registered-overseas-entity',
  'registered-owner-as-nominee-person-northern-ireland-registered-overseas-entity',
  'registered-owner-as-nominee-another-entity-england-wales-registered-overseas-entity',
  'registered-owner-as-nominee-another-entity-scotland-registered-overseas-entity',
  'registered-owner-as-nominee-another-entity-northern-ireland-registered-overseas-entity',
];

/** The `statement_description` keys of psc_descriptions.yml. */
const REGISTER_STATEMENT_CODES = [
  'no-individual-or-entity-with-signficant-control',
  'psc-exists-but-not-identified',
  'psc-details-not-confirmed',
  'steps-to-find-psc-not-yet-completed',
  'psc-contacted-but-no-response',
  'psc-has-failed-to-confirm-changed-details',
  'restrictions-notice-issued-to-psc',
  'no-individual-or-entity-with-signficant-control-partnership',
  'psc-exists-but-not-identified-partnership',
  'psc-details-not-confirmed-partnership',
  'steps-to-find-psc-not-yet-completed-partnership',
  'psc-contacted-but-no-response-partnership',
  'psc-has-failed-to-confirm-changed-details-partnership',
  'restrictions-notice-issued-to-psc-partnership',
  'all-beneficial-owners-identified',
  'no-beneficial-owner-identified',
  'at-least-one-beneficial-owner-unidentified',
  'information-not-provided-for-at-least-one-beneficial-owner',
  'at-least-one-beneficial-owner-unidentified-and-information-not-provided-for-at-least-one-beneficial-owner',
  'nobody-has-become-or-ceased-to-be-a-beneficial-owner',
  'somebody-has-become-or-ceased-to-be-a-beneficial-owner',
  'no-change-beneficial-owner-relevant-period',
  'change-beneficial-owner-relevant-period',
  'no-trust-involved-relevant-period',
  'trust-involved-relevant-period',
  'no-change-beneficiary-relevant-period',
  'change-beneficiary-relevant-period',
  'awaiting-confirmation-from-psc',
];

describe('every code of the register is known', () => {
  test("the natures are exactly the register's list", () =>
    assert.deepEqual(Object.keys(NATURES).sort(), [...REGISTER_NATURE_CODES].sort()));
  test("the statements are exactly the register's list", () =>
    assert.deepEqual(Object.keys(STATEMENTS).sort(), [...REGISTER_STATEMENT_CODES].sort()));
  for (const code of REGISTER_NATURE_CODES)
    test(code, () => {
      const words = describeNature(code);
      assert.notEqual(words, readableCode(code), 'in words, not the code');
      // The words state the band the code states.
      const band = /(\d+)-to-(\d+)-percent/.exec(code);
      if (band) assert.ok(words.includes(`${band[1]}–${band[2]}%`), words);
      if (code.includes('more-than-25-percent')) assert.ok(words.includes('more than 25%'), words);
      // Through a trust or a firm, or as a trustee or member of one: the words say which.
      if (/-as-(control-over-)?trust/.test(code)) assert.match(words, /trust$/);
      if (/-as-(control-over-)?firm/.test(code)) assert.match(words, /firm$/);
    });
  for (const code of REGISTER_STATEMENT_CODES)
    test(code, () => assert.notEqual(statementMeaning(code).words, readableCode(code)));
});

describe('natures in words', () => {
  const cases: [code: string, want: string][] = [
    ['ownership-of-shares-75-to-100-percent', 'owns 75–100% of shares'],
    ['ownership-of-shares-25-to-50-percent', 'owns 25–50% of shares'],
    ['voting-rights-25-to-50-percent', 'holds 25–50% of voting rights'],
    ['voting-rights-50-to-75-percent', 'holds 50–75% of voting rights'],
    ['right-to-appoint-and-remove-directors', 'can appoint or remove the majority of the board'],
    ['significant-influence-or-control', 'has significant influence or control'],
    ['ownership-of-shares-50-to-75-percent-as-trust', 'owns 50–75% of shares through control over a trust'],
    ['voting-rights-75-to-100-percent-as-firm', 'holds 75–100% of voting rights through control over a firm'],
    [
      'right-to-appoint-and-remove-directors-as-trust',
      'can appoint or remove the majority of the board through control over a trust',
    ],
    ['significant-influence-or-control-as-firm', 'has significant influence or control through control over a firm'],
    [
      'right-to-share-surplus-assets-75-to-100-percent-limited-liability-partnership',
      'has a right to 75–100% of surplus assets',
    ],
    ['voting-rights-25-to-50-percent-limited-liability-partnership', 'holds 25–50% of voting rights'],
    [
      'right-to-appoint-and-remove-members-limited-liability-partnership',
      'can appoint or remove the majority of the members',
    ],
    ['significant-influence-or-control-limited-liability-partnership', 'has significant influence or control'],
    ['part-right-to-share-surplus-assets-25-to-50-percent', 'has a right to 25–50% of surplus assets'],
    ['right-to-appoint-and-remove-person', 'can appoint or remove the majority of those who manage the partnership'],
    ['ownership-of-shares-more-than-25-percent-registered-overseas-entity', 'owns more than 25% of shares'],
    [
      'ownership-of-shares-more-than-25-percent-as-trust-registered-overseas-entity',
      'owns more than 25% of shares as a trustee of a trust',
    ],
    [
      'voting-rights-more-than-25-percent-as-firm-registered-overseas-entity',
      'holds more than 25% of voting rights as a member of a firm',
    ],
    [
      'voting-rights-more-than-25-percent-as-control-over-trust-registered-overseas-entity',
      'holds more than 25% of voting rights through control over a trust',
    ],
    [
      'significant-influence-or-control-as-trust-registered-overseas-entity',
      'has significant influence or control as a trustee of a trust',
    ],
    [
      'registered-owner-as-nominee-person-scotland-registered-overseas-entity',
      'the overseas entity holds land in Scotland as its nominee',
    ],
    [
      'registered-owner-as-nominee-another-entity-england-wales-registered-overseas-entity',
      'the overseas entity holds land in England and Wales as nominee for another entity it beneficially owns',
    ],
    // Not in the register's list: the code itself, readably; never an error.
    ['ownership-of-shares-90-to-100-percent', 'ownership of shares 90 to 100 percent'],
    ['some_new_code', 'some new code'],
    ['', ''],
    ['toString', 'toString'],
  ];
  for (const [code, want] of cases) test(JSON.stringify(code), () => assert.equal(describeNature(code), want));

  test('a list keeps its order and its codes', () =>
    assert.deepEqual(naturesInWords(['voting-rights-25-to-50-percent', 'x-y']), [
      { code: 'voting-rights-25-to-50-percent', words: 'holds 25–50% of voting rights' },
      { code: 'x-y', words: 'x y' },
    ]));
});

describe('statements in words', () => {
  const cases: [code: string, want: { words?: RegExp; none: boolean; withheld: boolean }][] = [
    [
      'no-individual-or-entity-with-signficant-control',
      { words: /^no registrable person/, none: true, withheld: false },
    ],
    ['no-individual-or-entity-with-signficant-control-partnership', { none: true, withheld: false }],
    ['psc-details-not-confirmed', { words: /details are not confirmed/, none: false, withheld: true }],
    ['steps-to-find-psc-not-yet-completed', { words: /not yet completed/, none: false, withheld: true }],
    ['psc-exists-but-not-identified', { words: /not been identified/, none: false, withheld: true }],
    ['psc-contacted-but-no-response', { none: false, withheld: true }],
    ['psc-has-failed-to-confirm-changed-details', { none: false, withheld: true }],
    ['restrictions-notice-issued-to-psc', { words: /restrictions notice/, none: false, withheld: true }],
    ['restrictions-notice-issued-to-psc-partnership', { none: false, withheld: true }],
    ['awaiting-confirmation-from-psc', { none: false, withheld: true }],
    ['no-beneficial-owner-identified', { none: false, withheld: true }],
    ['at-least-one-beneficial-owner-unidentified', { none: false, withheld: true }],
    ['all-beneficial-owners-identified', { none: false, withheld: false }],
    ['nobody-has-become-or-ceased-to-be-a-beneficial-owner', { none: false, withheld: false }],
    ['a-statement-not-listed', { words: /^a statement not listed$/, none: false, withheld: false }],
  ];
  for (const [code, want] of cases)
    test(code, () => {
      const meaning = statementMeaning(code);
      if (want.words) assert.match(meaning.words, want.words);
      assert.equal(meaning.no_registrable_psc, want.none, 'no registrable PSC');
      assert.equal(meaning.withholds_details, want.withheld, 'withholds details');
    });
});

describe('controlBand: the bands of an edge', () => {
  const none: ControlBands = { ownership: null, voting: null, appoints_board: false, significant_influence: false };
  const cases: [name: string, codes: string[], want: ControlBands][] = [
    ['no natures', [], none],
    [
      'shares, votes and the board',
      [
        'ownership-of-shares-75-to-100-percent',
        'voting-rights-75-to-100-percent',
        'right-to-appoint-and-remove-directors',
      ],
      { ...none, ownership: '75_to_100', voting: '75_to_100', appoints_board: true },
    ],
    ['significant influence only', ['significant-influence-or-control'], { ...none, significant_influence: true }],
    [
      'through a trust counts as the band it states',
      ['ownership-of-shares-50-to-75-percent-as-trust', 'voting-rights-25-to-50-percent-as-firm'],
      { ...none, ownership: '50_to_75', voting: '25_to_50' },
    ],
    [
      'the strongest band of several',
      ['ownership-of-shares-25-to-50-percent', 'ownership-of-shares-50-to-75-percent-as-trust'],
      { ...none, ownership: '50_to_75' },
    ],
    [
      'an LLP: surplus assets are its ownership, appointing members its board',
      [
        'right-to-share-surplus-assets-25-to-50-percent-limited-liability-partnership',
        'right-to-appoint-and-remove-members-limited-liability-partnership',
      ],
      { ...none, ownership: '25_to_50', appoints_board: true },
    ],
    [
      'an overseas entity states more than 25%',
      ['ownership-of-shares-more-than-25-percent-registered-overseas-entity'],
      { ...none, ownership: 'more_than_25' },
    ],
    [
      'nominee land holding and unknown codes add nothing',
      ['registered-owner-as-nominee-person-scotland-registered-overseas-entity', 'ownership-of-shares-99-percent'],
      none,
    ],
  ];
  for (const [name, codes, want] of cases) test(name, () => assert.deepEqual(controlBand(codes), want));
});
