/**
 * A company profile of the Public Data API (the `data` of a companies stream event, or GET
 * /company/{number}) as the register company the store keeps. The API spells statuses, types and
 * accounts categories as enumeration keys (`liquidation`, `ltd`, `total-exemption-full`); the
 * register's snapshot spells them as words ("Liquidation", "Private Limited Company", "TOTAL
 * EXEMPTION FULL"), and filters, signals and alerts read the words, so the keys are turned into
 * the snapshot's words. What the profile does not carry (charge counts, SIC descriptions) is kept
 * from the record held.
 */
import type { Address, RegisterCompany } from './company.ts';

/** company_status (and company_status_detail) keys, as the register's snapshot words them. */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  active: 'Active',
  dissolved: 'Dissolved',
  liquidation: 'Liquidation',
  receivership: 'Receivership Action',
  administration: 'In Administration',
  'voluntary-arrangement': 'Voluntary Arrangement',
  'converted-closed': 'Converted/Closed',
  'insolvency-proceedings': 'Insolvency Proceedings',
  registered: 'Registered',
  removed: 'Removed',
  closed: 'Closed',
  open: 'Open',
};

/** company_status_detail keys that refine an active status. */
const STATUS_DETAIL_WORDS: Readonly<Record<string, string>> = {
  'active-proposal-to-strike-off': 'Active - Proposal to Strike off',
};

/** type keys, as the register's CompanyCategory words them. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  ltd: 'Private Limited Company',
  plc: 'Public Limited Company',
  llp: 'Limited Liability Partnership',
  'limited-partnership': 'Limited Partnership',
  'private-unlimited': 'Private Unlimited Company',
  'private-unlimited-nsc': 'Private Unlimited Company',
  'private-limited-guarant-nsc': 'PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)',
  'private-limited-guarant-nsc-limited-exemption':
    "PRI/LBG/NSC (Private, Limited by guarantee, no share capital, use of 'Limited' exemption)",
  'private-limited-shares-section-30-exemption':
    'PRIV LTD SECT. 30 (Private limited company, section 30 of the Companies Act)',
  'old-public-company': 'Old Public Company',
  'charitable-incorporated-organisation': 'Charitable Incorporated Organisation',
  'scottish-charitable-incorporated-organisation': 'Scottish Charitable Incorporated Organisation',
  'scottish-partnership': 'Scottish Partnership',
  'registered-overseas-entity': 'Overseas Entity',
  'registered-society-non-jurisdictional': 'Registered Society',
  'industrial-and-provident-society': 'Industrial and Provident Society',
  'royal-charter': 'Royal Charter Company',
  'investment-company-with-variable-capital': 'Investment Company with Variable Capital',
  'protected-cell-company': 'Protected Cell Company',
  'further-education-or-sixth-form-college-corporation': 'Further Education and Sixth Form College Corps',
  'united-kingdom-economic-interest-grouping': 'United Kingdom Economic Interest Grouping',
  'united-kingdom-societas': 'United Kingdom Societas',
  'converted-or-closed': 'Converted/Closed',
  other: 'Other Company Type',
};

/** Jurisdictions of companies registered in the United Kingdom (the snapshot's CountryOfOrigin). */
const UK_JURISDICTIONS = new Set([
  'england-wales',
  'wales',
  'england',
  'scotland',
  'northern-ireland',
  'united-kingdom',
]);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a profile cannot be read, naming the field. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
}

/**
 * The register company a profile describes, on top of `held` (the record stored now, or null).
 * Throws ProfileError naming the field when the profile lacks a number or a name, or has a
 * malformed date.
 */
export function companyFromProfile(
  profile: Record<string, unknown>,
  held: Partial<RegisterCompany> | null,
): RegisterCompany {
  const number = text(profile, 'company_number');
  const name = text(profile, 'company_name');
  if (!number) throw new ProfileError('company_number is missing');
  if (!name) throw new ProfileError('company_name is missing');
  const accounts = object(profile, 'accounts');
  const reference = object(accounts, 'accounting_reference_date');
  const confirmation = object(profile, 'confirmation_statement');
  const statusKey = text(profile, 'company_status');
  const detail = STATUS_DETAIL_WORDS[text(profile, 'company_status_detail') ?? ''];
  const typeKey = text(profile, 'type');
  const jurisdiction = text(profile, 'jurisdiction');
  const lastType = text(object(accounts, 'last_accounts'), 'type');
  return {
    company_number: number,
    name,
    status: detail ?? (statusKey ? (STATUS_WORDS[statusKey] ?? words(statusKey)) : (held?.status ?? '')),
    type: typeKey ? (TYPE_WORDS[typeKey] ?? words(typeKey)) : (held?.type ?? ''),
    incorporated: date(profile, 'date_of_creation'),
    dissolved: date(profile, 'date_of_cessation'),
    country_of_origin:
      jurisdiction && UK_JURISDICTIONS.has(jurisdiction)
        ? 'United Kingdom'
        : (text(object(object(profile, 'foreign_company_details'), 'originating_registry'), 'country') ??
          held?.country_of_origin ??
          null),
    accounts_ref_day: dayOrMonth(reference, 'day', held?.accounts_ref_day),
    accounts_ref_month: dayOrMonth(reference, 'month', held?.accounts_ref_month),
    accounts_category: lastType ? lastType.replace(/-/g, ' ').toUpperCase() : (held?.accounts_category ?? null),
    accounts_last_made_up_to:
      date(object(accounts, 'last_accounts'), 'made_up_to') ?? held?.accounts_last_made_up_to ?? null,
    accounts_next_due: date(accounts, 'next_due') ?? date(object(accounts, 'next_accounts'), 'due_on'),
    confirmation_last_made_up_to: date(confirmation, 'last_made_up_to'),
    confirmation_next_due: date(confirmation, 'next_due'),
    // The profile does not count charges: the charges stream and the snapshot do.
    charges_total: held?.charges_total ?? 0,
    charges_outstanding: held?.charges_outstanding ?? 0,
    charges_part_satisfied: held?.charges_part_satisfied ?? 0,
    charges_satisfied: held?.charges_satisfied ?? 0,
    sic_codes: sicCodes(profile, held?.sic_codes ?? []),
    address: address(object(profile, 'registered_office_address')),
    previous_names: previousNames(profile),
  };
}

/** The profile's SIC codes, each with the snapshot's description when the held record has it. */
function sicCodes(profile: Record<string, unknown>, held: readonly string[]): string[] {
  const codes = profile.sic_codes;
  if (!Array.isArray(codes)) return [...held];
  return codes
    .filter((code): code is string => typeof code === 'string' && code.trim() !== '')
    .map((code) => held.find((described) => described.split(' - ')[0]!.trim() === code.trim()) ?? code.trim());
}

function previousNames(profile: Record<string, unknown>): RegisterCompany['previous_names'] {
  const names = profile.previous_company_names;
  if (!Array.isArray(names)) return [];
  return names.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const record = entry as Record<string, unknown>;
    const name = text(record, 'name');
    return name ? [{ name, changed: date(record, 'ceased_on') }] : [];
  });
}

function address(place: Record<string, unknown>): Address {
  return {
    care_of: text(place, 'care_of'),
    po_box: text(place, 'po_box'),
    line_1: text(place, 'address_line_1') ?? text(place, 'premises'),
    line_2: text(place, 'address_line_2'),
    post_town: text(place, 'locality'),
    county: text(place, 'region'),
    country: text(place, 'country'),
    postcode: text(place, 'postal_code'),
  };
}

function words(key: string): string {
  const spaced = key.replace(/-/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function object(from: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = from[field];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(from: Record<string, unknown>, field: string): string | null {
  const value = from[field];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function date(from: Record<string, unknown>, field: string): string | null {
  const value = text(from, field);
  if (value === null) return null;
  if (!ISO_DATE.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ProfileError(`${field} is not a date (YYYY-MM-DD): "${value}"`);
  }
  return value;
}

function dayOrMonth(from: Record<string, unknown>, field: string, held: number | null | undefined): number | null {
  const value = from[field];
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 ? n : (held ?? null);
}
