/**
 * Company officers (directors, secretaries, members, …) as the Companies House Public Data API and
 * its officers stream publish them, the disqualifications of officers, and the identity
 * verification details both officers and PSCs now carry. Pure: reading the API's JSON into records
 * and the rules read from them (current or not, verified or overdue).
 */

/** `identity_verification_details` as published (each field null when absent). */
export interface IdentityVerification {
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
export function readIdentityVerification(json: Json): IdentityVerification | null {
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

/**
 * The day from which a person's identity verification is overdue: the day after
 * `appointment_verification_statement_due_on`, when the block says the person is not verified.
 * Companies House publishes the block in three shapes: not yet verified (only the due date, and
 * for a PSC the date its window opens), verified through an authorised corporate service provider
 * (`identity_verified_on` and the statement dates), and verified directly with Companies House
 * (only `appointment_verification_start_on`, the day the statement was supplied). Either of
 * `identity_verified_on` and `appointment_verification_start_on` is verified; a block without a
 * due date asks nothing yet. Null: not overdue on any day.
 */
export function verificationOverdueFrom(verification: IdentityVerification | null): string | null {
  if (!verification) return null;
  const { identity_verified_on: verified, appointment_verification_start_on: supplied } = verification;
  const due = verification.appointment_verification_statement_due_on;
  if (verified !== null || supplied !== null || due === null) return null;
  return nextDay(due);
}

/** Whether the verification is overdue on `asOf` (ISO date): the due date has passed and it is not verified. */
export function isVerificationOverdue(verification: IdentityVerification | null, asOf: string): boolean {
  const from = verificationOverdueFrom(verification);
  return from !== null && from <= asOf;
}

/** The earliest day from which one of these people's verification is overdue; null when none ever is. */
export function earliestOverdueFrom(verifications: readonly (IdentityVerification | null)[]): string | null {
  let earliest: string | null = null;
  for (const verification of verifications) {
    const from = verificationOverdueFrom(verification);
    if (from !== null && (earliest === null || from < earliest)) earliest = from;
  }
  return earliest;
}

/** A current officer or PSC as the identity rule reads it. */
export interface VerifiablePerson {
  name: string | null;
  /** `director`, `secretary`, … for an officer; `person with significant control` for a PSC. */
  role: string;
  identity_verification: IdentityVerification | null;
}

/** The people whose verification is overdue on `asOf`, earliest due first, each with its due date. */
export function overdueVerifications(
  people: readonly VerifiablePerson[],
  asOf: string,
): { name: string | null; role: string; due_on: string }[] {
  return people
    .filter((person) => isVerificationOverdue(person.identity_verification, asOf))
    .map((person) => ({
      name: person.name,
      role: person.role,
      due_on: person.identity_verification!.appointment_verification_statement_due_on!,
    }))
    .sort((a, b) => (a.due_on < b.due_on ? -1 : a.due_on > b.due_on ? 1 : 0));
}

/** A verification in a few words for tables: verified, statement supplied, or due (overdue on `asOf`). */
export function verificationWords(verification: IdentityVerification | null, asOf?: string): string | null {
  if (!verification) return null;
  const v = verification;
  if (v.identity_verified_on) return `verified ${v.identity_verified_on}`;
  if (v.appointment_verification_start_on) return `verification statement ${v.appointment_verification_start_on}`;
  const due = v.appointment_verification_statement_due_on;
  if (due) return `due ${due}${asOf !== undefined && isVerificationOverdue(v, asOf) ? ' (overdue)' : ''}`;
  return null;
}

function nextDay(isoDate: string): string {
  const day = new Date(`${isoDate}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
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
