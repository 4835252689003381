/**
 * People search: the document the people index holds of one person, how it is made from the PSC
 * records and officer appointments that share a person_key, and what a search asks and answers.
 * Both people adapters store exactly this and rank it alike (the types are in domain/people.ts).
 *
 * A "person" is any named PSC: an individual, a corporate entity or a legal person (beneficial
 * owners of overseas entities included); and any company officer (officer-person.ts keys them as
 * PSCs are keyed, so a director who controls the company is one person). Statements, exemptions and
 * super-secure PSCs name nobody and are not people. Never an address or a full date of birth: only
 * what psc.ts and officers.ts keep.
 */
import { isPersonKind, PERSON_COMPANIES_KEPT, PSC_ROLE } from '../domain/people.ts';
import type { PersonAppointment, PersonCompany, PersonDocument, PersonKind } from '../domain/people.ts';
import type { IdentityVerification } from '../domain/officers.ts';
import type { PscRecord } from '../domain/psc.ts';
import { officerKind, officerNameElements } from './officer-person.ts';
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
> & {
  person_key: string;
  company_name: string | null;
  /** Read from the record's `data` (identity_verification_details, or its older name). */
  identity_verification: IdentityVerification | null;
};

/** What the people index reads of one officer appointment (a row of the store, with the register's facts). */
export interface OfficerPersonRecord extends PersonAppointment {
  person_key: string;
  /** As filed ("SMITH, John Andrew", "ACME SECRETARIES LIMITED"). */
  name: string;
  birth_year: number | null;
  birth_month: number | null;
  nationality: string | null;
  country_of_residence: string | null;
}

/**
 * One person from the PSC records and officer appointments sharing its person_key; null when none
 * of them names a person (the key's records are all statements or super-secure, or have no name).
 * A company listed by several of the PSC records (a PSC ceased and notified again) appears once:
 * its current record, else its newest. What the register says of the person (kind, name, birth,
 * nationality) comes from their newest PSC record, else from their newest appointment.
 */
export function personDocument(
  records: readonly PersonRecord[],
  appointments: readonly OfficerPersonRecord[] = [],
): PersonDocument | null {
  const named = records.filter((r) => isPersonKind(r.kind_class) && displayName(r) !== null).sort(newestFirst);
  const offices = [...appointments].sort(currentAppointmentFirst);
  const first = named[0];
  const office = offices[0];
  if (!first && !office) return null;
  const byCompany = new Map<string, PersonRecord>();
  for (const record of named) if (!byCompany.has(record.company_number)) byCompany.set(record.company_number, record);
  const companies = [...byCompany.values()].map((r): PersonCompany => ({
    company_number: r.company_number,
    company_name: r.company_name,
    natures_of_control: [...r.natures_of_control],
    notified_on: r.notified_on,
    ceased_on: r.ceased_on,
    ceased: r.ceased,
    identity_verification: r.identity_verification,
  }));
  const known = <T>(value: (r: PersonRecord) => T | null, ofOffice: (o: OfficerPersonRecord) => T | null): T | null =>
    named.map(value).find((v) => v !== null && v !== undefined) ??
    offices.map(ofOffice).find((v) => v !== null && v !== undefined) ??
    null;
  const current = companies.filter((c) => !c.ceased);
  const currentOffices = offices.filter((o) => o.resigned_on === null);
  const active = new Set([...current.map((c) => c.company_number), ...currentOffices.map((o) => o.company_number)]);
  const roles = [...new Set([...(named.length > 0 ? [PSC_ROLE] : []), ...offices.map((o) => o.role)])];
  return {
    person_key: first?.person_key ?? office!.person_key,
    kind: first ? (first.kind_class as PersonKind) : officerKind(office!.role),
    name: first ? displayName(first)! : office!.name,
    name_elements: first ? first.name_elements : officerNameElements(office!.name, office!.role),
    birth_year: known(
      (r) => r.birth_year,
      (o) => o.birth_year,
    ),
    birth_month: known(
      (r) => r.birth_month,
      (o) => o.birth_month,
    ),
    nationality: known(
      (r) => r.nationality,
      (o) => o.nationality,
    ),
    country_of_residence: known(
      (r) => r.country_of_residence,
      (o) => o.country_of_residence,
    ),
    country: known(
      (r) => r.country,
      () => null,
    ),
    registered_company_number: known(
      (r) => r.registered_company_number,
      () => null,
    ),
    current_companies: current.length,
    company_count: companies.length,
    companies: companies.slice(0, PERSON_COMPANIES_KEPT),
    roles,
    officer_ids: [...new Set(offices.map((o) => o.officer_id).filter((id) => id !== null))],
    current_appointments: currentOffices.length,
    appointment_count: offices.length,
    appointments: offices.slice(0, PERSON_COMPANIES_KEPT).map((o): PersonAppointment => ({
      company_number: o.company_number,
      company_name: o.company_name,
      company_status: o.company_status,
      role: o.role,
      appointed_on: o.appointed_on,
      resigned_on: o.resigned_on,
      officer_id: o.officer_id,
      identity_verification: o.identity_verification,
    })),
    active_companies: active.size,
  };
}

/** Held now before resigned, newest appointed first (undated last), then by company number and role. */
function currentAppointmentFirst(a: OfficerPersonRecord, b: OfficerPersonRecord): number {
  if ((a.resigned_on === null) !== (b.resigned_on === null)) return a.resigned_on === null ? -1 : 1;
  const an = a.appointed_on ?? '';
  const bn = b.appointed_on ?? '';
  if (an !== bn) return an > bn ? -1 : 1;
  if (a.company_number !== b.company_number) return a.company_number < b.company_number ? -1 : 1;
  return a.role < b.role ? -1 : a.role > b.role ? 1 : 0;
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
