/**
 * Officer appointments for tests that need named officers in a store: an item as the Public Data
 * API serves `/company/{number}/officers`, read by the real reader (domain/officers.ts).
 */
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { readOfficer } from '../../src/domain/officers.ts';
import type { IdentityVerification, OfficerRecord } from '../../src/domain/officers.ts';
import type { Sql } from '../../src/ports/sql.ts';

export interface OfficerPlan {
  /** As Companies House prints it: "SMITH, John Andrew", or a corporate body's name. */
  name: string;
  role?: string;
  officerId: string;
  birthYear?: number;
  birthMonth?: number;
  appointedOn?: string;
  resignedOn?: string;
  nationality?: string;
  occupation?: string;
  countryOfResidence?: string;
  /** `identity_verification_details` as the API publishes it. */
  identityVerification?: Record<string, string>;
}

/** One appointment of `plan.officerId` at a company, as stored from the API. */
export function officerRecord(companyNumber: string, plan: OfficerPlan): OfficerRecord {
  const appointmentId = `${plan.officerId}-${companyNumber}-${plan.role ?? 'director'}`;
  const item = {
    name: plan.name,
    officer_role: plan.role ?? 'director',
    appointed_on: plan.appointedOn ?? '2020-01-01',
    ...(plan.resignedOn ? { resigned_on: plan.resignedOn } : {}),
    ...(plan.birthYear ? { date_of_birth: { year: plan.birthYear, month: plan.birthMonth } } : {}),
    ...(plan.nationality ? { nationality: plan.nationality } : {}),
    ...(plan.occupation ? { occupation: plan.occupation } : {}),
    ...(plan.countryOfResidence ? { country_of_residence: plan.countryOfResidence } : {}),
    ...(plan.identityVerification ? { identity_verification_details: plan.identityVerification } : {}),
    links: {
      self: `/company/${companyNumber}/appointments/${appointmentId}`,
      officer: { appointments: `/officers/${plan.officerId}/appointments` },
    },
  };
  const read = readOfficer(companyNumber, appointmentId, item);
  if (typeof read === 'string') throw new Error(read);
  return read;
}

/** The officer the API tests' fixtures hold: a director of BETA BUILDERS LTD (00000002) and a resigned one of 00000003. */
export const FIXTURE_OFFICER_ID = 'fixtureOfficer1';

/** Writes FIXTURE_OFFICER_ID's appointments (as the officers backfill would) into the world's store. */
export async function addFixtureOfficer(sql: Sql): Promise<void> {
  const officers = createOfficerStore(sql);
  const plan = { name: 'HOPPER, Grace Brewster', officerId: FIXTURE_OFFICER_ID, birthYear: 1961, birthMonth: 12 };
  await officers.replaceCompanyOfficers(
    '00000002',
    [officerRecord('00000002', { ...plan, appointedOn: '2021-04-01', occupation: 'Engineer' })],
    '2025-06-01T00:00:00Z',
  );
  await officers.replaceCompanyOfficers(
    '00000003',
    [officerRecord('00000003', { ...plan, role: 'secretary', appointedOn: '2015-01-01', resignedOn: '2019-01-01' })],
    '2025-06-01T00:00:00Z',
  );
}

/** An identity verification block as read (domain/officers.ts): every field null but those given. */
export function identityVerification(given: Partial<IdentityVerification>): IdentityVerification {
  return {
    identity_verified_on: null,
    appointment_verification_start_on: null,
    appointment_verification_end_on: null,
    appointment_verification_statement_date: null,
    appointment_verification_statement_due_on: null,
    authorised_corporate_service_provider_name: null,
    preferred_name: null,
    ...given,
  };
}
