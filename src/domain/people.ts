/**
 * People search's terms: the document the people index holds of one person (any named PSC: an
 * individual, a corporate entity or a legal person; and any company officer), and what a search
 * asks and answers. ownership/people.ts makes the document from the PSC records and officer
 * appointments sharing a person_key; both people adapters store exactly this and rank it alike.
 */
import type { IdentityVerification } from './officers.ts';
import type { PscKindClass, PscNameElements } from './psc.ts';

export const PERSON_KINDS = ['individual', 'corporate', 'legal_person'] as const satisfies readonly PscKindClass[];
export type PersonKind = (typeof PERSON_KINDS)[number];

export function isPersonKind(kind: string): kind is PersonKind {
  return (PERSON_KINDS as readonly string[]).includes(kind);
}

/** At most this many of a person's companies are kept in the index (current first, newest first). */
export const PERSON_COMPANIES_KEPT = 100;

/** One company a person controls or controlled. */
export interface PersonCompany {
  company_number: string;
  /** From the register, null when the company is not on it. */
  company_name: string | null;
  /** The codes as filed ("ownership-of-shares-75-to-100-percent"). */
  natures_of_control: string[];
  notified_on: string | null;
  ceased_on: string | null;
  ceased: boolean;
  /**
   * The PSC record's `identity_verification_details` as filed; null when it carries none. Kept per
   * company: Companies House publishes it on each PSC record (each has its own statement due date).
   */
  identity_verification: IdentityVerification | null;
}

/** One appointment of a person as a company officer (director, secretary, LLP member, …). */
export interface PersonAppointment {
  company_number: string;
  /** From the register, null when the company is not on it. */
  company_name: string | null;
  company_status: string | null;
  /** `officer_role` as filed (`director`, `secretary`, `llp-designated-member`, …). */
  role: string;
  appointed_on: string | null;
  resigned_on: string | null;
  /** Companies House's id of the officer (the same person elsewhere, as it links them). */
  officer_id: string | null;
  /** The appointment's `identity_verification_details` as published; null when it carries none. */
  identity_verification: IdentityVerification | null;
}

/** The role a person has as a PSC, among the officer roles of PersonDocument.roles. */
export const PSC_ROLE = 'psc';

/** Who search_people keeps: people with significant control, officers, or anyone (absent). */
export const PERSON_ROLE_FILTERS = ['psc', 'officer'] as const;
type PersonRoleFilter = (typeof PERSON_ROLE_FILTERS)[number];

export interface PersonDocument {
  person_key: string;
  kind: PersonKind;
  /** As filed on the person's newest record ("Mr John Andrew Smith", "ACME HOLDINGS LIMITED"). */
  name: string;
  name_elements: PscNameElements | null;
  birth_year: number | null;
  birth_month: number | null;
  nationality: string | null;
  country_of_residence: string | null;
  /** Where a corporate or legal-person PSC is registered or governed, as filed. */
  country: string | null;
  /** A corporate PSC on a UK register: its company number there. */
  registered_company_number: string | null;
  /** Companies the person controls now, and has ever controlled (the records this index knows). */
  current_companies: number;
  company_count: number;
  /** Up to PERSON_COMPANIES_KEPT of them: current first, newest notified first, then by number. */
  companies: PersonCompany[];
  /**
   * What the person is: `psc` when on the PSC register, then each officer role as filed, those
   * held now before those held before.
   */
  roles: string[];
  /** Companies House's officer ids of the appointments (one person may have several). */
  officer_ids: string[];
  /** Appointments held now (not resigned), and in all. */
  current_appointments: number;
  appointment_count: number;
  /** Up to PERSON_COMPANIES_KEPT of them: current first, newest appointed first, then by number. */
  appointments: PersonAppointment[];
  /** Companies the person is on now in any way (controls, or holds an office in): what ranks them. */
  active_companies: number;
}

/**
 * How people rank, best first: the tier of the name's match (PERSON_TIERS), then more active
 * companies (PersonDocument.active_companies), then the shorter normalised name, then the
 * person_key (byte order). A page's place is its last person's values of these:
 * `[tier, active companies, name length, person_key]`.
 */
export type PersonKey = readonly [tier: number, activeCompanies: number, nameLength: number, personKey: string];

/** The tiers of a name's match, as numbers in PersonKey. Every query word starts a word of the name. */
export const PERSON_TIERS = {
  /** The normalised name is the normalised query. */
  exact: 0,
  /** It starts with the query's phrase. */
  starts: 1,
  /** It contains the phrase at a word start. */
  contains: 2,
  /** Its words start with the query's words, in any order. */
  words: 3,
} as const;

export interface PeopleQuery {
  /** The name as asked; the adapters normalise it (personNameQuery). */
  name: string;
  birth_year?: number;
  /** Only with birth_year. */
  birth_month?: number;
  /** Only people with significant control, or only officers. */
  role?: PersonRoleFilter;
  limit: number;
  /** The page after this place (a PersonKey from the page before), never an offset. */
  after?: PersonKey;
  /** Count the matches up to this many (default PEOPLE_TOTAL_COUNTED_UP_TO). */
  count_up_to?: number;
}

/**
 * Matches are counted up to this many: counting every one of a common name ("john") costs more than
 * the page itself, and nobody pages through ten thousand people.
 */
export const PEOPLE_TOTAL_COUNTED_UP_TO = 10_000;

export interface PeoplePage {
  /**
   * Every person matching the name's words and the birth filters, not only those listed, counted up to
   * the query's count_up_to: min(matches, count_up_to).
   */
  total: number;
  /** More people match than `total` (the count stopped at count_up_to). */
  total_is_lower_bound: boolean;
  people: PersonDocument[];
  /** The place of the page's last person when another page follows, else null. */
  next: PersonKey | null;
}
