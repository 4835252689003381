/**
 * People search: the document the people index holds of one person with significant control, how
 * it is made from the PSC records that share a person_key, and what a search asks and answers.
 * Both people adapters store exactly this and rank it alike.
 *
 * A "person" is any named PSC: an individual, a corporate entity or a legal person (beneficial
 * owners of overseas entities included). Statements, exemptions and super-secure PSCs name nobody
 * and are not people. Never an address or a full date of birth: only what psc.ts keeps.
 */
import { normalisePersonName } from './person-name.ts';
import type { PscKindClass, PscNameElements, PscRecord } from './psc.ts';

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
}

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
}

/** What the people index reads of one PSC record (a row of the store, with the register's name). */
export type PersonRecord = Pick<
  PscRecord,
  | 'company_number'
  | 'kind_class'
  | 'name'
  | 'name_elements'
  | 'natures_of_control'
  | 'notified_on'
  | 'ceased_on'
  | 'ceased'
  | 'birth_year'
  | 'birth_month'
  | 'nationality'
  | 'country_of_residence'
  | 'country'
  | 'registered_company_number'
> & { person_key: string; company_name: string | null };

/**
 * One person from the records sharing its person_key; null when none of them names a person (the
 * key's records are all statements or super-secure, or have no name). A company listed by several
 * of the records (a PSC ceased and notified again) appears once: its current record, else its
 * newest.
 */
export function personDocument(records: readonly PersonRecord[]): PersonDocument | null {
  const named = records.filter((r) => isPersonKind(r.kind_class) && displayName(r) !== null).sort(newestFirst);
  const first = named[0];
  if (!first) return null;
  const byCompany = new Map<string, PersonRecord>();
  for (const record of named) if (!byCompany.has(record.company_number)) byCompany.set(record.company_number, record);
  const companies = [...byCompany.values()].map((r): PersonCompany => ({
    company_number: r.company_number,
    company_name: r.company_name,
    natures_of_control: [...r.natures_of_control],
    notified_on: r.notified_on,
    ceased_on: r.ceased_on,
    ceased: r.ceased,
  }));
  const known = <T>(value: (r: PersonRecord) => T | null): T | null =>
    named.map(value).find((v) => v !== null && v !== undefined) ?? null;
  return {
    person_key: first.person_key,
    kind: first.kind_class as PersonKind,
    name: displayName(first)!,
    name_elements: first.name_elements,
    birth_year: known((r) => r.birth_year),
    birth_month: known((r) => r.birth_month),
    nationality: known((r) => r.nationality),
    country_of_residence: known((r) => r.country_of_residence),
    country: known((r) => r.country),
    registered_company_number: known((r) => r.registered_company_number),
    current_companies: companies.filter((c) => !c.ceased).length,
    company_count: companies.length,
    companies: companies.slice(0, PERSON_COMPANIES_KEPT),
  };
}

/** The name as filed, else put together from its elements; null when there is none. */
function displayName(record: PersonRecord): string | null {
  if (record.name !== null && record.name.trim() !== '') return record.name.trim();
  const e = record.name_elements;
  const joined = [e?.title, e?.forename, e?.middle_name, e?.surname].filter((part) => part?.trim()).join(' ');
  return joined === '' ? null : joined;
}

/** Current before ceased, newest notified first (undated last), then by company number. */
function newestFirst(a: PersonRecord, b: PersonRecord): number {
  if (a.ceased !== b.ceased) return a.ceased ? 1 : -1;
  const an = a.notified_on ?? '';
  const bn = b.notified_on ?? '';
  if (an !== bn) return an > bn ? -1 : 1;
  return a.company_number < b.company_number ? -1 : a.company_number > b.company_number ? 1 : 0;
}

/**
 * What both adapters index beside the document to rank it: the normalised name (person-name.ts)
 * and its length.
 */
export function personSearchName(document: Pick<PersonDocument, 'name' | 'kind' | 'name_elements'>): {
  normalised: string;
  length: number;
} {
  const normalised = normalisePersonName(document.name, document.kind, document.name_elements);
  return { normalised, length: normalised.length };
}

/**
 * How people rank, best first: the tier of the name's match (PERSON_TIERS), then more current
 * companies, then the shorter normalised name, then the person_key (byte order). A page's place is
 * its last person's values of these: `[tier, current companies, name length, person_key]`.
 */
export type PersonKey = readonly [tier: number, currentCompanies: number, nameLength: number, personKey: string];

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

export interface PeopleIndex {
  /** Insert or replace these people (by person_key). */
  upsertPeople(documents: readonly PersonDocument[]): Promise<void>;
  /** Remove people no record names any more. */
  removePeople(personKeys: readonly string[]): Promise<void>;
  refresh(): Promise<void>;
  count(): Promise<number>;
  /** Replace the whole index without downtime; returns how many were indexed. */
  rebuild(batches: AsyncIterable<readonly PersonDocument[]>): Promise<number>;
  /** Built from an older mapping than this code's: the indexer rebuilds it in full. */
  outdated(): Promise<boolean>;
  searchPeople(query: PeopleQuery): Promise<PeoplePage>;
}
