/**
 * The PSC register's codes in words: each nature of control (how a person controls a company),
 * each PSC statement (what a company says when it has no PSC to name, or cannot name one yet),
 * and the bands of control an edge of the ownership graph carries.
 *
 * The codes are those of Companies House's own list (companieshouse/api-enumerations,
 * psc_descriptions.yml: `description` and `statement_description`). Each nature is encoded here as
 * data (what right, what band, in what capacity, over what kind of body), and its words are
 * composed from that, so that every variant reads alike. A code not in the list is never an error:
 * it reads as the code itself, hyphens to spaces.
 */

/**
 * Bands of shares, voting rights or surplus assets, as the register states them: more than 25% and
 * up to 50%; more than 50% and below 75%; 75% or more. A registered overseas entity's beneficial
 * owners state only "more than 25%". Ordered from the weakest statement to the strongest.
 */
export const CONTROL_BANDS = ['more_than_25', '25_to_50', '50_to_75', '75_to_100'] as const;
type ControlBand = (typeof CONTROL_BANDS)[number];

/** @public What the person holds or can do. */
export const CONTROL_RIGHTS = [
  'shares',
  'voting_rights',
  /** An LLP's or a partnership's equivalent of shares: its surplus assets on a winding up. */
  'surplus_assets',
  'appoint_directors',
  /** Of an LLP. */
  'appoint_members',
  /** Of a (Scottish) partnership: those entitled to take part in its management. */
  'appoint_managers',
  'significant_influence',
  /** A registered overseas entity holds UK land as nominee for this beneficial owner. */
  'nominee_for_person',
  /** … as nominee for another entity of which this person is a registered beneficial owner. */
  'nominee_for_entity',
] as const;
type ControlRight = (typeof CONTROL_RIGHTS)[number];

/**
 * Directly, or through a trust or a firm (a body that is not a legal person) whose trustees or
 * members hold the right; a registered overseas entity's beneficial owner may also hold it as a
 * trustee or as a member of a firm.
 */
type ControlCapacity = 'direct' | 'through_trust' | 'through_firm' | 'as_trustee' | 'as_firm_member';

/** The kind of body controlled, as the code says. */
type ControlledBody = 'company' | 'llp' | 'partnership' | 'overseas_entity';

/** Where the land an overseas entity holds as nominee lies. */
type NomineeJurisdiction = 'england_wales' | 'scotland' | 'northern_ireland';

export interface Nature {
  right: ControlRight;
  band: ControlBand | null;
  capacity: ControlCapacity;
  body: ControlledBody;
  jurisdiction: NomineeJurisdiction | null;
}

function nature(
  right: ControlRight,
  band: ControlBand | null,
  capacity: ControlCapacity,
  body: ControlledBody,
  jurisdiction: NomineeJurisdiction | null = null,
): Nature {
  return { right, band, capacity, body, jurisdiction };
}

/** Every nature-of-control code of the register, as psc_descriptions.yml lists them. */
export const NATURES: Readonly<Record<string, Nature>> = {
  'ownership-of-shares-25-to-50-percent': nature('shares', '25_to_50', 'direct', 'company'),
  'ownership-of-shares-50-to-75-percent': nature('shares', '50_to_75', 'direct', 'company'),
  'ownership-of-shares-75-to-100-percent': nature('shares', '75_to_100', 'direct', 'company'),
  'ownership-of-shares-25-to-50-percent-as-trust': nature('shares', '25_to_50', 'through_trust', 'company'),
  'ownership-of-shares-50-to-75-percent-as-trust': nature('shares', '50_to_75', 'through_trust', 'company'),
  'ownership-of-shares-75-to-100-percent-as-trust': nature('shares', '75_to_100', 'through_trust', 'company'),
  'ownership-of-shares-25-to-50-percent-as-firm': nature('shares', '25_to_50', 'through_firm', 'company'),
  'ownership-of-shares-50-to-75-percent-as-firm': nature('shares', '50_to_75', 'through_firm', 'company'),
  'ownership-of-shares-75-to-100-percent-as-firm': nature('shares', '75_to_100', 'through_firm', 'company'),
  'ownership-of-shares-more-than-25-percent-registered-overseas-entity': nature(
    'shares',
    'more_than_25',
    'direct',
    'overseas_entity',
  ),
  'ownership-of-shares-more-than-25-percent-as-trust-registered-overseas-entity': nature(
    'shares',
    'more_than_25',
    'as_trustee',
    'overseas_entity',
  ),
  'ownership-of-shares-more-than-25-percent-as-firm-registered-overseas-entity': nature(
    'shares',
    'more_than_25',
    'as_firm_member',
    'overseas_entity',
  ),
  'ownership-of-shares-more-than-25-percent-as-control-over-trust-registered-overseas-entity': nature(
    'shares',
    'more_than_25',
    'through_trust',
    'overseas_entity',
  ),
  'ownership-of-shares-more-than-25-percent-as-control-over-firm-registered-overseas-entity': nature(
    'shares',
    'more_than_25',
    'through_firm',
    'overseas_entity',
  ),
  'voting-rights-25-to-50-percent': nature('voting_rights', '25_to_50', 'direct', 'company'),
  'voting-rights-50-to-75-percent': nature('voting_rights', '50_to_75', 'direct', 'company'),
  'voting-rights-75-to-100-percent': nature('voting_rights', '75_to_100', 'direct', 'company'),
  'voting-rights-25-to-50-percent-as-trust': nature('voting_rights', '25_to_50', 'through_trust', 'company'),
  'voting-rights-50-to-75-percent-as-trust': nature('voting_rights', '50_to_75', 'through_trust', 'company'),
  'voting-rights-75-to-100-percent-as-trust': nature('voting_rights', '75_to_100', 'through_trust', 'company'),
  'voting-rights-25-to-50-percent-as-firm': nature('voting_rights', '25_to_50', 'through_firm', 'company'),
  'voting-rights-50-to-75-percent-as-firm': nature('voting_rights', '50_to_75', 'through_firm', 'company'),
  'voting-rights-75-to-100-percent-as-firm': nature('voting_rights', '75_to_100', 'through_firm', 'company'),
  'voting-rights-more-than-25-percent-registered-overseas-entity': nature(
    'voting_rights',
    'more_than_25',
    'direct',
    'overseas_entity',
  ),
  'voting-rights-more-than-25-percent-as-trust-registered-overseas-entity': nature(
    'voting_rights',
    'more_than_25',
    'as_trustee',
    'overseas_entity',
  ),
  'voting-rights-more-than-25-percent-as-firm-registered-overseas-entity': nature(
    'voting_rights',
    'more_than_25',
    'as_firm_member',
    'overseas_entity',
  ),
  'voting-rights-more-than-25-percent-as-control-over-trust-registered-overseas-entity': nature(
    'voting_rights',
    'more_than_25',
    'through_trust',
    'overseas_entity',
  ),
  'voting-rights-more-than-25-percent-as-control-over-firm-registered-overseas-entity': nature(
    'voting_rights',
    'more_than_25',
    'through_firm',
    'overseas_entity',
  ),
  'right-to-appoint-and-remove-directors': nature('appoint_directors', null, 'direct', 'company'),
  'right-to-appoint-and-remove-directors-as-trust': nature('appoint_directors', null, 'through_trust', 'company'),
  'right-to-appoint-and-remove-directors-as-firm': nature('appoint_directors', null, 'through_firm', 'company'),
  'right-to-appoint-and-remove-directors-as-control-over-trust-registered-overseas-entity': nature(
    'appoint_directors',
    null,
    'through_trust',
    'overseas_entity',
  ),
  'right-to-appoint-and-remove-directors-as-control-over-firm-registered-overseas-entity': nature(
    'appoint_directors',
    null,
    'through_firm',
    'overseas_entity',
  ),
  'significant-influence-or-control': nature('significant_influence', null, 'direct', 'company'),
  'significant-influence-or-control-as-trust': nature('significant_influence', null, 'through_trust', 'company'),
  'significant-influence-or-control-as-firm': nature('significant_influence', null, 'through_firm', 'company'),
  'right-to-share-surplus-assets-25-to-50-percent-limited-liability-partnership': nature(
    'surplus_assets',
    '25_to_50',
    'direct',
    'llp',
  ),
  'right-to-share-surplus-assets-50-to-75-percent-limited-liability-partnership': nature(
    'surplus_assets',
    '50_to_75',
    'direct',
    'llp',
  ),
  'right-to-share-surplus-assets-75-to-100-percent-limited-liability-partnership': nature(
    'surplus_assets',
    '75_to_100',
    'direct',
    'llp',
  ),
  'right-to-share-surplus-assets-25-to-50-percent-as-trust-limited-liability-partnership': nature(
    'surplus_assets',
    '25_to_50',
    'through_trust',
    'llp',
  ),
  'right-to-share-surplus-assets-50-to-75-percent-as-trust-limited-liability-partnership': nature(
    'surplus_assets',
    '50_to_75',
    'through_trust',
    'llp',
  ),
  'right-to-share-surplus-assets-75-to-100-percent-as-trust-limited-liability-partnership': nature(
    'surplus_assets',
    '75_to_100',
    'through_trust',
    'llp',
  ),
  'right-to-share-surplus-assets-25-to-50-percent-as-firm-limited-liability-partnership': nature(
    'surplus_assets',
    '25_to_50',
    'through_firm',
    'llp',
  ),
  'right-to-share-surplus-assets-50-to-75-percent-as-firm-limited-liability-partnership': nature(
    'surplus_assets',
    '50_to_75',
    'through_firm',
    'llp',
  ),
  'right-to-share-surplus-assets-75-to-100-percent-as-firm-limited-liability-partnership': nature(
    'surplus_assets',
    '75_to_100',
    'through_firm',
    'llp',
  ),
  'voting-rights-25-to-50-percent-limited-liability-partnership': nature('voting_rights', '25_to_50', 'direct', 'llp'),
  'voting-rights-50-to-75-percent-limited-liability-partnership': nature('voting_rights', '50_to_75', 'direct', 'llp'),
  'voting-rights-75-to-100-percent-limited-liability-partnership': nature(
    'voting_rights',
    '75_to_100',
    'direct',
    'llp',
  ),
  'voting-rights-25-to-50-percent-as-trust-limited-liability-partnership': nature(
    'voting_rights',
    '25_to_50',
    'through_trust',
    'llp',
  ),
  'voting-rights-50-to-75-percent-as-trust-limited-liability-partnership': nature(
    'voting_rights',
    '50_to_75',
    'through_trust',
    'llp',
  ),
  'voting-rights-75-to-100-percent-as-trust-limited-liability-partnership': nature(
    'voting_rights',
    '75_to_100',
    'through_trust',
    'llp',
  ),
  'voting-rights-25-to-50-percent-as-firm-limited-liability-partnership': nature(
    'voting_rights',
    '25_to_50',
    'through_firm',
    'llp',
  ),
  'voting-rights-50-to-75-percent-as-firm-limited-liability-partnership': nature(
    'voting_rights',
    '50_to_75',
    'through_firm',
    'llp',
  ),
  'voting-rights-75-to-100-percent-as-firm-limited-liability-partnership': nature(
    'voting_rights',
    '75_to_100',
    'through_firm',
    'llp',
  ),
  'right-to-appoint-and-remove-members-limited-liability-partnership': nature('appoint_members', null, 'direct', 'llp'),
  'right-to-appoint-and-remove-members-as-trust-limited-liability-partnership': nature(
    'appoint_members',
    null,
    'through_trust',
    'llp',
  ),
  'right-to-appoint-and-remove-members-as-firm-limited-liability-partnership': nature(
    'appoint_members',
    null,
    'through_firm',
    'llp',
  ),
  'significant-influence-or-control-limited-liability-partnership': nature(
    'significant_influence',
    null,
    'direct',
    'llp',
  ),
  'significant-influence-or-control-as-trust-limited-liability-partnership': nature(
    'significant_influence',
    null,
    'through_trust',
    'llp',
  ),
  'significant-influence-or-control-as-firm-limited-liability-partnership': nature(
    'significant_influence',
    null,
    'through_firm',
    'llp',
  ),
  'significant-influence-or-control-registered-overseas-entity': nature(
    'significant_influence',
    null,
    'direct',
    'overseas_entity',
  ),
  'significant-influence-or-control-as-trust-registered-overseas-entity': nature(
    'significant_influence',
    null,
    'as_trustee',
    'overseas_entity',
  ),
  'significant-influence-or-control-as-firm-registered-overseas-entity': nature(
    'significant_influence',
    null,
    'as_firm_member',
    'overseas_entity',
  ),
  'significant-influence-or-control-as-control-over-trust-registered-overseas-entity': nature(
    'significant_influence',
    null,
    'through_trust',
    'overseas_entity',
  ),
  'significant-influence-or-control-as-control-over-firm-registered-overseas-entity': nature(
    'significant_influence',
    null,
    'through_firm',
    'overseas_entity',
  ),
  'part-right-to-share-surplus-assets-25-to-50-percent': nature('surplus_assets', '25_to_50', 'direct', 'partnership'),
  'part-right-to-share-surplus-assets-50-to-75-percent': nature('surplus_assets', '50_to_75', 'direct', 'partnership'),
  'part-right-to-share-surplus-assets-75-to-100-percent': nature(
    'surplus_assets',
    '75_to_100',
    'direct',
    'partnership',
  ),
  'part-right-to-share-surplus-assets-25-to-50-percent-as-trust': nature(
    'surplus_assets',
    '25_to_50',
    'through_trust',
    'partnership',
  ),
  'part-right-to-share-surplus-assets-50-to-75-percent-as-trust': nature(
    'surplus_assets',
    '50_to_75',
    'through_trust',
    'partnership',
  ),
  'part-right-to-share-surplus-assets-75-to-100-percent-as-trust': nature(
    'surplus_assets',
    '75_to_100',
    'through_trust',
    'partnership',
  ),
  'part-right-to-share-surplus-assets-25-to-50-percent-as-firm': nature(
    'surplus_assets',
    '25_to_50',
    'through_firm',
    'partnership',
  ),
  'part-right-to-share-surplus-assets-50-to-75-percent-as-firm': nature(
    'surplus_assets',
    '50_to_75',
    'through_firm',
    'partnership',
  ),
  'part-right-to-share-surplus-assets-75-to-100-percent-as-firm': nature(
    'surplus_assets',
    '75_to_100',
    'through_firm',
    'partnership',
  ),
  'right-to-appoint-and-remove-person': nature('appoint_managers', null, 'direct', 'partnership'),
  'right-to-appoint-and-remove-person-as-firm': nature('appoint_managers', null, 'through_firm', 'partnership'),
  'right-to-appoint-and-remove-person-as-trust': nature('appoint_managers', null, 'through_trust', 'partnership'),
  'right-to-appoint-and-remove-directors-registered-overseas-entity': nature(
    'appoint_directors',
    null,
    'direct',
    'overseas_entity',
  ),
  'right-to-appoint-and-remove-directors-as-trust-registered-overseas-entity': nature(
    'appoint_directors',
    null,
    'as_trustee',
    'overseas_entity',
  ),
  'right-to-appoint-and-remove-directors-as-firm-registered-overseas-entity': nature(
    'appoint_directors',
    null,
    'as_firm_member',
    'overseas_entity',
  ),
  'registered-owner-as-nominee-person-england-wales-registered-overseas-entity': nature(
    'nominee_for_person',
    null,
    'direct',
    'overseas_entity',
    'england_wales',
  ),
  'registered-owner-as-nominee-person-scotland-registered-overseas-entity': nature(
    'nominee_for_person',
    null,
    'direct',
    'overseas_entity',
    'scotland',
  ),
  'registered-owner-as-nominee-person-northern-ireland-registered-overseas-entity': nature(
    'nominee_for_person',
    null,
    'direct',
    'overseas_entity',
    'northern_ireland',
  ),
  'registered-owner-as-nominee-another-entity-england-wales-registered-overseas-entity': nature(
    'nominee_for_entity',
    null,
    'direct',
    'overseas_entity',
    'england_wales',
  ),
  'registered-owner-as-nominee-another-entity-scotland-registered-overseas-entity': nature(
    'nominee_for_entity',
    null,
    'direct',
    'overseas_entity',
    'scotland',
  ),
  'registered-owner-as-nominee-another-entity-northern-ireland-registered-overseas-entity': nature(
    'nominee_for_entity',
    null,
    'direct',
    'overseas_entity',
    'northern_ireland',
  ),
};

const BAND_WORDS: Record<ControlBand, string> = {
  more_than_25: 'more than 25%',
  '25_to_50': '25–50%',
  '50_to_75': '50–75%',
  '75_to_100': '75–100%',
};

const JURISDICTION_WORDS: Record<NomineeJurisdiction, string> = {
  england_wales: 'England and Wales',
  scotland: 'Scotland',
  northern_ireland: 'Northern Ireland',
};

function rightWords({ right, band, jurisdiction }: Nature): string {
  const share = band === null ? 'a share' : BAND_WORDS[band];
  const land = jurisdiction === null ? 'the UK' : JURISDICTION_WORDS[jurisdiction];
  switch (right) {
    case 'shares':
      return `owns ${share} of shares`;
    case 'voting_rights':
      return `holds ${share} of voting rights`;
    case 'surplus_assets':
      return `has a right to ${share} of surplus assets`;
    case 'appoint_directors':
      return 'can appoint or remove the majority of the board';
    case 'appoint_members':
      return 'can appoint or remove the majority of the members';
    case 'appoint_managers':
      return 'can appoint or remove the majority of those who manage the partnership';
    case 'significant_influence':
      return 'has significant influence or control';
    case 'nominee_for_person':
      return `the overseas entity holds land in ${land} as its nominee`;
    case 'nominee_for_entity':
      return `the overseas entity holds land in ${land} as nominee for another entity it beneficially owns`;
  }
}

const CAPACITY_WORDS: Record<ControlCapacity, string> = {
  direct: '',
  through_trust: ' through control over a trust',
  through_firm: ' through control over a firm',
  as_trustee: ' as a trustee of a trust',
  as_firm_member: ' as a member of a firm',
};

/** A nature in words: "owns 75–100% of shares", "holds 25–50% of voting rights as a trustee of a trust". */
function natureWords(nature: Nature): string {
  return `${rightWords(nature)}${CAPACITY_WORDS[nature.capacity]}`;
}

/** A code as it reads when this list does not know it: the code itself, hyphens to spaces. */
export function readableCode(code: string): string {
  return code.replace(/[-_]+/g, ' ').trim();
}

/** A nature-of-control code in words; a code not in the register's list reads as itself. */
export function describeNature(code: string): string {
  const known = Object.hasOwn(NATURES, code) ? NATURES[code] : undefined;
  return known ? natureWords(known) : readableCode(code);
}

/** Each code with its words, in the order filed. */
export function naturesInWords(codes: readonly string[]): { code: string; words: string }[] {
  return codes.map((code) => ({ code, words: describeNature(code) }));
}

/** The control an edge carries, summed up over its natures. */
export interface ControlBands {
  /** Shares, or an LLP's or partnership's surplus assets: the strongest band stated; null if none. */
  ownership: ControlBand | null;
  /** Voting rights: the strongest band stated; null if none. */
  voting: ControlBand | null;
  /** Can appoint or remove the majority of the board (an LLP's members, a partnership's managers). */
  appoints_board: boolean;
  significant_influence: boolean;
}

const BAND_RANK = new Map<ControlBand, number>(CONTROL_BANDS.map((band, rank) => [band, rank]));

function stronger(a: ControlBand | null, b: ControlBand | null): ControlBand | null {
  if (a === null) return b;
  if (b === null) return a;
  return BAND_RANK.get(b)! > BAND_RANK.get(a)! ? b : a;
}

/**
 * The bands of control stated by these codes, directly or through a trust or firm alike; codes
 * this list does not know add nothing.
 */
export function controlBand(codes: readonly string[]): ControlBands {
  const bands: ControlBands = { ownership: null, voting: null, appoints_board: false, significant_influence: false };
  for (const code of codes) {
    const known = Object.hasOwn(NATURES, code) ? NATURES[code] : undefined;
    if (!known) continue;
    switch (known.right) {
      case 'shares':
      case 'surplus_assets':
        bands.ownership = stronger(bands.ownership, known.band);
        break;
      case 'voting_rights':
        bands.voting = stronger(bands.voting, known.band);
        break;
      case 'appoint_directors':
      case 'appoint_members':
      case 'appoint_managers':
        bands.appoints_board = true;
        break;
      case 'significant_influence':
        bands.significant_influence = true;
        break;
      case 'nominee_for_person':
      case 'nominee_for_entity':
        break;
    }
  }
  return bands;
}

/** What a PSC statement means for a reader of the ownership chain. */
export interface StatementMeaning {
  words: string;
  /** The company says there is no one to register: the chain ends here. */
  no_registrable_psc: boolean;
  /**
   * A controller exists, or may, but is not named or not fully: not identified, details not
   * confirmed, steps to find one not finished, a notice not complied with, a restrictions notice,
   * beneficial owners unidentified or their information not provided.
   */
  withholds_details: boolean;
}

function statement(words: string, flag: 'none' | 'withheld' | null = null): StatementMeaning {
  return { words, no_registrable_psc: flag === 'none', withholds_details: flag === 'withheld' };
}

/** Every PSC statement code of the register (psc_descriptions.yml `statement_description`). */
export const STATEMENTS: Readonly<Record<string, StatementMeaning>> = {
  // "signficant" as Companies House spells the code.
  'no-individual-or-entity-with-signficant-control': statement(
    'no registrable person or legal entity with significant control',
    'none',
  ),
  'psc-exists-but-not-identified': statement(
    'a person with significant control exists but has not been identified',
    'withheld',
  ),
  'psc-details-not-confirmed': statement(
    'a person with significant control has been identified but their details are not confirmed',
    'withheld',
  ),
  'steps-to-find-psc-not-yet-completed': statement(
    'the steps to find out who has significant control are not yet completed',
    'withheld',
  ),
  'psc-contacted-but-no-response': statement(
    'a notice asking a person with significant control for their details (section 790D) has not been complied with',
    'withheld',
  ),
  'psc-has-failed-to-confirm-changed-details': statement(
    'a person with significant control has not complied with a notice to confirm changed details (section 790E)',
    'withheld',
  ),
  'restrictions-notice-issued-to-psc': statement(
    'a restrictions notice has been issued to a person with significant control (Schedule 1B)',
    'withheld',
  ),
  'no-individual-or-entity-with-signficant-control-partnership': statement(
    'the partnership has no registrable person or legal entity with significant control',
    'none',
  ),
  'psc-exists-but-not-identified-partnership': statement(
    'the partnership has a person with significant control who has not been identified',
    'withheld',
  ),
  'psc-details-not-confirmed-partnership': statement(
    'the partnership has identified a person with significant control but their details are not confirmed',
    'withheld',
  ),
  'steps-to-find-psc-not-yet-completed-partnership': statement(
    'the partnership has not yet completed the steps to find out who has significant control',
    'withheld',
  ),
  'psc-contacted-but-no-response-partnership': statement(
    'a notice the partnership gave a person with significant control (regulation 10) has not been complied with',
    'withheld',
  ),
  'psc-has-failed-to-confirm-changed-details-partnership': statement(
    'a notice to confirm changed details the partnership gave (regulation 11) has not been complied with',
    'withheld',
  ),
  'restrictions-notice-issued-to-psc-partnership': statement(
    'the partnership has issued a restrictions notice to a person with significant control',
    'withheld',
  ),
  'all-beneficial-owners-identified': statement(
    'all beneficial owners have been identified and all required information can be provided',
  ),
  'no-beneficial-owner-identified': statement('no beneficial owners have been identified', 'withheld'),
  'at-least-one-beneficial-owner-unidentified': statement(
    'some beneficial owners have not been identified',
    'withheld',
  ),
  'information-not-provided-for-at-least-one-beneficial-owner': statement(
    'all beneficial owners have been identified but only some required information can be provided',
    'withheld',
  ),
  'at-least-one-beneficial-owner-unidentified-and-information-not-provided-for-at-least-one-beneficial-owner':
    statement(
      'some beneficial owners have not been identified and only some required information can be provided',
      'withheld',
    ),
  'nobody-has-become-or-ceased-to-be-a-beneficial-owner': statement(
    'nobody has become or ceased to be a beneficial owner during the update period',
  ),
  'somebody-has-become-or-ceased-to-be-a-beneficial-owner': statement(
    'somebody has become or ceased to be a beneficial owner during the update period',
  ),
  'no-change-beneficial-owner-relevant-period': statement(
    'nobody has become or ceased to be a beneficial owner during the relevant period',
  ),
  'change-beneficial-owner-relevant-period': statement(
    'somebody has become or ceased to be a beneficial owner during the relevant period',
  ),
  'no-trust-involved-relevant-period': statement(
    'nobody has become or ceased to be a beneficial owner as a trustee during the relevant period',
  ),
  'trust-involved-relevant-period': statement(
    'somebody has become or ceased to be a beneficial owner as a trustee during the relevant period',
  ),
  'no-change-beneficiary-relevant-period': statement(
    'nobody has become or ceased to be a beneficiary during the relevant period',
  ),
  'change-beneficiary-relevant-period': statement(
    'somebody has become or ceased to be a beneficiary during the relevant period',
  ),
  'awaiting-confirmation-from-psc': statement(
    'the company believes it has a person with significant control but has not yet had their confirmation',
    'withheld',
  ),
};

/** A statement code's meaning; a code not in the register's list reads as itself and flags nothing. */
export function statementMeaning(code: string): StatementMeaning {
  const known = Object.hasOwn(STATEMENTS, code) ? STATEMENTS[code] : undefined;
  return known ?? statement(readableCode(code));
}

/** What the register says in place of a super-secure PSC's details. */
export const SUPER_SECURE_WORDS = "details not shown: restrictions on disclosing this person's details are in force";
