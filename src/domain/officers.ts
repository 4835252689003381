/**
 * Company officers (directors, secretaries, members, …) as the Companies House Public Data API and
 * its officers stream publish them, the disqualifications of officers, and the identity
 * verification details both officers and PSCs now carry. Pure: reading the API's JSON into records
 * and the rules read from them (current or not, verified or overdue).
 */

/** `identity_verification_details` as published (each field null when absent). */
interface IdentityVerification {
  identity_verified_on: string | null;
  appointment_verification_start_on: string | null;
  appointment_verification_end_on: string | null;
  /** From when the verification statement can be supplied (PSCs). */
  appointment_verification_statement_date: string | null;
  /** The date by which the verification statement must be supplied. */
  appointment_verification_statement_due_on: string | null;
  authorised_corporate_service_provider_name: string | null;
  preferred_name: string | null;
}

/** One appointment of one officer at one company, as read from the API or the stream. */
export interface OfficerRecord {
  company_number: string;
  /** The appointment's id: the last part of `/company/{number}/appointments/{id}`. */
  appointment_id: string;
  /** The officer's id across companies, from `links.officer.appointments` (`/officers/{id}/appointments`). */
  officer_id: string | null;
  name: string;
  /** `officer_role` as filed (`director`, `secretary`, `llp-designated-member`, …). */
  role: string;
  appointed_on: string | null;
  resigned_on: string | null;
  nationality: string | null;
  occupation: string | null;
  country_of_residence: string | null;
  /** Month and year of birth, as published (the day never is). */
  birth_year: number | null;
  birth_month: number | null;
  identity_verification: IdentityVerification | null;
  /** The appointment as published. */
  data: Record<string, unknown>;
}

/** An appointment as stored: the record, and whether a disqualification of its officer is in force. */
export interface StoredOfficer extends OfficerRecord {
  /** When the stored state was published (stream) or fetched (API), ISO date-time. */
  as_of: string;
  disqualified_until: string | null;
}

/** One disqualification of a disqualified officer, as the disqualified-officers stream carries it. */
export interface Disqualification {
  disqualified_from: string | null;
  disqualified_until: string | null;
  /** `reason.description_identifier` (`misconduct-in-connection-with-a-company`, …). */
  reason: string | null;
  company_names: string[];
}

export interface DisqualifiedOfficer {
  officer_id: string;
  /** `natural` or `corporate`. */
  kind: string;
  name: string | null;
  disqualifications: Disqualification[];
}

type Json = Record<string, unknown>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function date(value: unknown): string | null {
  const found = text(value);
  return found !== null && ISO_DATE.test(found) ? found : null;
}

function object(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function whole(value: unknown, min: number, max: number): number | null {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max ? number : null;
}

/**
 * `identity_verification_details`, or the same block under the name the PSC records carried
 * before it (`verification_details`); null when neither is there or neither says anything.
 */
function readIdentityVerification(json: Json): IdentityVerification | null {
  const block = object(json.identity_verification_details) ?? object(json.verification_details);
  if (!block) return null;
  const read: IdentityVerification = {
    identity_verified_on: date(block.identity_verified_on),
    appointment_verification_start_on: date(block.appointment_verification_start_on),
    appointment_verification_end_on: date(block.appointment_verification_end_on),
    appointment_verification_statement_date: date(block.appointment_verification_statement_date),
    appointment_verification_statement_due_on: date(block.appointment_verification_statement_due_on),
    authorised_corporate_service_provider_name: text(block.authorised_corporate_service_provider_name),
    preferred_name: text(block.preferred_name),
  };
  return Object.values(read).some((value) => value !== null) ? read : null;
}

/** The id in `/officers/{id}/appointments`. */
function officerIdOf(json: Json): string | null {
  const links = object(json.links);
  const officer = object(links?.officer);
  const path = text(officer?.appointments);
  const match = path ? /\/officers\/([^/?#]+)\/appointments/.exec(path) : null;
  return match ? decodeURIComponent(match[1]!) : null;
}

/** The company number and appointment id in `/company/{number}/appointments/{id}`. */
export function appointmentPath(path: string): { company_number: string; appointment_id: string } | null {
  const match = /^\/company\/([A-Z0-9]{8})\/appointments\/([^/?#]+)$/.exec(path);
  return match ? { company_number: match[1]!, appointment_id: decodeURIComponent(match[2]!) } : null;
}

/**
 * An appointment's JSON (an item of `/company/{number}/officers`, or the data of an officers
 * stream event) as a record; a string saying what is wrong when it cannot be one.
 */
export function readOfficer(companyNumber: string, appointmentId: string, json: unknown): OfficerRecord | string {
  const data = object(json);
  if (!data) return 'the appointment is not a JSON object';
  const name = text(data.name);
  if (!name) return 'the appointment has no name';
  const role = text(data.officer_role);
  if (!role) return 'the appointment has no officer_role';
  const birth = object(data.date_of_birth);
  return {
    company_number: companyNumber,
    appointment_id: appointmentId,
    officer_id: officerIdOf(data),
    name,
    role,
    appointed_on: date(data.appointed_on) ?? date(data.appointed_before),
    resigned_on: date(data.resigned_on),
    nationality: text(data.nationality),
    occupation: text(data.occupation),
    country_of_residence: text(data.country_of_residence),
    birth_year: whole(birth?.year, 1800, 2200),
    birth_month: whole(birth?.month, 1, 12),
    identity_verification: readIdentityVerification(data),
    data,
  };
}

/** A disqualified officer's JSON (the data of a disqualified-officers stream event). */
export function readDisqualifiedOfficer(officerId: string, kind: string, json: unknown): DisqualifiedOfficer | string {
  const data = object(json);
  if (!data) return 'the disqualified officer is not a JSON object';
  const list = Array.isArray(data.disqualifications) ? data.disqualifications : null;
  if (!list) return 'the disqualified officer has no disqualifications list';
  const words = [data.forename, data.other_forenames, data.surname].map(text).filter((w) => w !== null);
  return {
    officer_id: officerId,
    kind,
    name: text(data.name) ?? (words.length > 0 ? words.join(' ') : null),
    disqualifications: list.map((entry) => {
      const item = object(entry) ?? {};
      return {
        disqualified_from: date(item.disqualified_from),
        disqualified_until: date(item.disqualified_until),
        reason: text(object(item.reason)?.description_identifier),
        company_names: Array.isArray(item.company_names) ? item.company_names.map(text).filter((n) => n !== null) : [],
      };
    }),
  };
}

/**
 * A stream event's `published_at` as an instant: the streams publish it without a zone
 * (`2026-11-27T09:14:03`), read as UTC; null when it is not a date-time at all.
 */
export function publishedInstant(value: unknown): string | null {
  const found = text(value);
  if (!found || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(found)) return null;
  const instant = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(found) ? found : `${found}Z`);
  return Number.isNaN(instant) ? null : new Date(instant).toISOString();
}
