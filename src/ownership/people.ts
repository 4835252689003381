/**
 * People search: the document the people index holds of one person with significant control, how
 * it is made from the PSC records that share a person_key, and what a search asks and answers.
 * Both people adapters store exactly this and rank it alike (the types are in domain/people.ts).
 *
 * A "person" is any named PSC: an individual, a corporate entity or a legal person (beneficial
 * owners of overseas entities included). Statements, exemptions and super-secure PSCs name nobody
 * and are not people. Never an address or a full date of birth: only what psc.ts keeps.
 */
import { isPersonKind, PERSON_COMPANIES_KEPT } from '../domain/people.ts';
import type { PersonCompany, PersonDocument, PersonKind } from '../domain/people.ts';
import type { PscRecord } from '../domain/psc.ts';
import { normalisePersonName } from './person-name.ts';

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
