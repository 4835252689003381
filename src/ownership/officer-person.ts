/**
 * Officers as people: the person_key an appointment is grouped by, made exactly as a PSC's is
 * (psc-line.ts personKey), so that a director who is also a person with significant control is one
 * person in the people index, with their control and their appointments. Officers are named
 * "SURNAME, Forenames" where a PSC is "Mr Forenames Surname": the name elements put both in the
 * same order before the key is made.
 */
import type { PscNameElements } from '../domain/psc.ts';
import { personKey } from './psc-line.ts';

/** An officer is a person unless their role says a corporate body holds it (`corporate-director`, …). */
export function officerKind(role: string): 'individual' | 'corporate' {
  return role.startsWith('corporate-') ? 'corporate' : 'individual';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * An individual officer's name elements: `name_elements` when the appointment carries them, else
 * read from the name as Companies House prints it ("SMITH, John Andrew": the surname before the
 * comma, the forenames after it, honours after a second comma left out); null for a corporate
 * officer, or a name with no comma and no elements.
 */
export function officerNameElements(
  name: string,
  role: string,
  data: Record<string, unknown> | null = null,
): PscNameElements | null {
  if (officerKind(role) !== 'individual') return null;
  const filed = data && typeof data.name_elements === 'object' ? (data.name_elements as Record<string, unknown>) : null;
  if (filed && (text(filed.forename) || text(filed.surname)))
    return {
      title: text(filed.title),
      forename: text(filed.forename),
      middle_name: text(filed.other_forenames),
      surname: text(filed.surname),
    };
  const comma = name.indexOf(',');
  if (comma < 0) return null;
  const surname = text(name.slice(0, comma));
  const forenames = (text(name.slice(comma + 1).split(',')[0]) ?? '').split(/\s+/).filter((w) => w !== '');
  if (surname === null && forenames.length === 0) return null;
  return {
    title: null,
    forename: forenames[0] ?? null,
    middle_name: forenames.length > 1 ? forenames.slice(1).join(' ') : null,
    surname,
  };
}

/** What an officer's person_key is made of. */
export interface OfficerIdentity {
  name: string;
  role: string;
  birth_year: number | null;
  birth_month: number | null;
  data?: Record<string, unknown> | null;
}

/** The person an appointment is grouped by: the PSC person_key of the same name and birth. */
export function officerPersonKey(officer: OfficerIdentity): string | null {
  const kind = officerKind(officer.role);
  const elements = officerNameElements(officer.name, officer.role, officer.data ?? null);
  // A corporate body has no birth; a PSC's corporate key has none either.
  return kind === 'individual'
    ? personKey(kind, officer.name, elements, officer.birth_year, officer.birth_month)
    : personKey(kind, officer.name, null, null, null);
}
