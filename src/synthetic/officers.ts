/**
 * Synthetic company officers in the Public Data API's shape: the items of
 * `/company/{number}/officers` (a name as "SURNAME, Forenames", officer_role, appointed_on and
 * resigned_on, nationality, occupation, country of residence, month and year of birth, a service
 * address, links.self naming the appointment and links.officer the officer) and the paged list
 * around them. An officer is the PSC generator's person (psc-people.ts) behind the same id, so a
 * director who sits on several boards has the same name and birth in each, and the same officer id.
 */
import { pscPerson } from './psc-people.ts';
import { labelSeed, Random } from './random.ts';
import { dayNumber } from './dates.ts';
import { verificationOnDay } from './identity-verification.ts';

const OFFICER = labelSeed('officer');

const OCCUPATIONS = ['Director', 'Company Director', 'Accountant', 'Engineer', 'Consultant', 'Solicitor', 'Retired'];

/** One appointment to generate: who (a person id of psc-people.ts), where, and its dates. */
export interface OfficerAppointmentPlan {
  companyNumber: string;
  personId: number;
  role?: string;
  appointedOn: string;
  resignedOn?: string;
  /** `identity_verification_details` to publish, as published. */
  identityVerification?: Record<string, string>;
  /** Else publish the generated story's verification (identity-verification.ts) as it stood on this ISO day. */
  verificationAsOf?: string;
}

/** A stable id as Companies House's look: 27 URL-safe characters. */
function idOf(seed: number, ...parts: number[]): string {
  const rng = Random.derive(seed, OFFICER, ...parts);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  return Array.from({ length: 27 }, () => alphabet[rng.int(0, alphabet.length - 1)]).join('');
}

function numberSeed(companyNumber: string): number {
  return labelSeed(companyNumber);
}

/** The officer id of person `personId` (what `/officers/{id}/appointments` names). */
export function syntheticOfficerId(seed: number, personId: number): string {
  return idOf(seed, 1, personId);
}

/** One item of `/company/{number}/officers`, as the API serves it. */
export function officerItem(seed: number, plan: OfficerAppointmentPlan): Record<string, unknown> {
  const person = pscPerson(seed, plan.personId);
  const rng = Random.derive(seed, OFFICER, 2, plan.personId, numberSeed(plan.companyNumber));
  const appointmentId = idOf(seed, 3, plan.personId, numberSeed(plan.companyNumber));
  const forenames = [person.forename, person.middle_name].filter((p) => p !== null).join(' ');
  const role = plan.role ?? 'director';
  const verification =
    plan.identityVerification ??
    (plan.verificationAsOf === undefined
      ? undefined
      : verificationOnDay(
          seed,
          [plan.personId, numberSeed(plan.companyNumber)],
          dayNumber(plan.appointedOn),
          dayNumber(
            plan.resignedOn !== undefined && plan.resignedOn < plan.verificationAsOf
              ? plan.resignedOn
              : plan.verificationAsOf,
          ),
        ).details);
  return {
    address: person.address,
    appointed_on: plan.appointedOn,
    ...(plan.resignedOn ? { resigned_on: plan.resignedOn } : {}),
    country_of_residence: person.country_of_residence,
    date_of_birth: { month: person.birth_month, year: person.birth_year },
    ...(verification ? { identity_verification_details: verification } : {}),
    links: {
      self: `/company/${plan.companyNumber}/appointments/${appointmentId}`,
      officer: { appointments: `/officers/${syntheticOfficerId(seed, plan.personId)}/appointments` },
    },
    name: `${person.surname.toUpperCase()}, ${forenames}`,
    nationality: person.nationality,
    ...(role === 'secretary' ? {} : { occupation: rng.pick(OCCUPATIONS) }),
    officer_role: role,
  };
}
/**
 * The pages of `/company/{number}/officers` for these appointments (all of one company), as the
 * API pages them: `items_per_page` items a page from `start_index`, with the counts.
 */
export function officerListPages(
  seed: number,
  plans: readonly OfficerAppointmentPlan[],
  itemsPerPage: number,
): Record<string, unknown>[] {
  const items = plans.map((plan) => officerItem(seed, plan));
  const resigned = plans.filter((plan) => plan.resignedOn).length;
  const pages: Record<string, unknown>[] = [];
  for (let start = 0; start === 0 || start < items.length; start += itemsPerPage) {
    pages.push({
      active_count: plans.length - resigned,
      resigned_count: resigned,
      inactive_count: 0,
      etag: idOf(seed, 4, start, numberSeed(plans[0]?.companyNumber ?? '')),
      items: items.slice(start, start + itemsPerPage),
      items_per_page: itemsPerPage,
      kind: 'officer-list',
      links: { self: `/company/${plans[0]?.companyNumber ?? ''}/officers` },
      start_index: start,
      total_results: items.length,
    });
  }
  return pages;
}
