/**
 * Synthetic identity verification details, in the three shapes Companies House publishes on
 * individual PSCs and on officers (domain/officers.ts verificationOverdueFrom): not yet verified
 * (the day the statement window opens and the due date), verified through an authorised corporate
 * service provider (the verification date, the statement dates, the provider), and verified
 * directly (the statement date alone). A pure function of (seed, who, day): a later snapshot tells
 * the same story further on, and one person in five never verifies, so that some companies are
 * overdue.
 */
import { dayNumber, fastFromDayNumber } from './dates.ts';
import { labelSeed, mixSeed } from './random.ts';

const VERIFICATION = labelSeed('identity-verification');

/** The roll-out: from this day existing people get due dates, spread over the year after. */
const ROLL_OUT = dayNumber('2025-11-18');
/** The statement window: the due date is this many days after the day it opens. */
const WINDOW_DAYS = 14;

const PROVIDERS = ['Northgate Formations Ltd', 'Ledger & Co Accountants LLP', 'Harbour Company Services Ltd'];

/** How far along verification is on a day: what the block says, and a number that changes with it. */
export interface VerificationOnDay {
  /** `identity_verification_details` as published, keys in alphabetical order; undefined: none yet. */
  details: Record<string, string> | undefined;
  /** 0 before any block, 1 while due, 2 once verified: part of an etag, so a change shows. */
  stage: 0 | 1 | 2;
}

/** A fraction in [0, 1) drawn from the parts. */
function fraction(...parts: number[]): number {
  return (mixSeed(VERIFICATION, ...parts) >>> 0) / 2 ** 32;
}

/**
 * The verification of person `who` (any numbers that name them for good, e.g. the company index
 * and the PSC's slot), appointed or notified on day `since`, as published on `day`.
 */
export function verificationOnDay(seed: number, who: readonly number[], since: number, day: number): VerificationOnDay {
  if (day < ROLL_OUT) return { details: undefined, stage: 0 };
  // Existing people are asked over the year after the roll-out; those appointed since, on appointment.
  const opens = Math.max(since, ROLL_OUT + Math.floor(fraction(seed, 1, ...who) * 365));
  if (day < opens) return { details: undefined, stage: 0 };
  const due = opens + WINDOW_DAYS;
  const verifies = fraction(seed, 2, ...who) >= 0.2;
  const verifiedOn = opens + Math.floor(fraction(seed, 3, ...who) * (WINDOW_DAYS + 1));
  if (!verifies || day < verifiedOn)
    return {
      details: {
        appointment_verification_statement_date: fastFromDayNumber(opens),
        appointment_verification_statement_due_on: fastFromDayNumber(due),
      },
      stage: 1,
    };
  const started = fastFromDayNumber(verifiedOn);
  if (fraction(seed, 4, ...who) < 0.3) {
    const provider = PROVIDERS[Math.floor(fraction(seed, 5, ...who) * PROVIDERS.length)]!;
    return {
      details: {
        appointment_verification_start_on: started,
        authorised_corporate_service_provider_name: provider,
        identity_verified_on: fastFromDayNumber(Math.max(opens, verifiedOn - 1)),
      },
      stage: 2,
    };
  }
  return { details: { appointment_verification_start_on: started }, stage: 2 };
}
