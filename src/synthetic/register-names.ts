/**
 * A synthetic company's names over time. Many companies change name within months of
 * incorporation (bought off the shelf, or renamed once trading starts); a few change later in
 * life, and a company that has changed once is likelier to change again.
 *
 * The name `syntheticCompany` gives, the one its accounts carry, is the name in force on
 * `NAME_REFERENCE_DATE` (or at incorporation, for younger companies). Names before it appear as
 * previous names; changes after it give the company new names, with the accounts name then listed
 * as its most recent previous name.
 */
import type { SyntheticCompany } from './companies.ts';
import { companyName } from './company-names.ts';
import { fastDayNumber, fastFromDayNumber } from './dates.ts';
import { exponentialDays, labelSeed, Random } from './random.ts';

/** The date on which every company bears the name `syntheticCompany` gives it. */
export const NAME_REFERENCE_DATE = '2025-01-01';

/** The register lists at most this many previous names. */
const MOST_PREVIOUS_NAMES = 10;

export interface PreviousName {
  /** ISO date the company stopped using this name (the register's CONDATE). */
  date: string;
  name: string;
}

export interface NamesOnRegister {
  name: string;
  /** Newest first, at most `MOST_PREVIOUS_NAMES`. */
  previous: PreviousName[];
}

const CHANGES = labelSeed('register-name-changes');
const NAMES = labelSeed('register-names');
const REFERENCE_DAY = fastDayNumber(NAME_REFERENCE_DATE);
const EARLY_CHANGE = 0.075;
const LATER_RATE = 0.003;
const AGAIN_RATE = 0.008;
/** Bounds the changes followed, whatever the rates. */
const MOST_CHANGES = 30;

/** Days on which the company changed its name, ascending, up to and including `until`. */
function nameChangeDays(seed: number, company: SyntheticCompany, until: number): number[] {
  const incorporated = fastDayNumber(company.incorporated);
  const days: number[] = [];
  const first = Random.derive(seed, company.index, CHANGES, 0);
  let t = incorporated;
  if (first.chance(EARLY_CHANGE)) {
    t += first.int(7, 330);
    if (t > until) return days;
    days.push(t);
  }
  for (let n = 1; days.length < MOST_CHANGES; n++) {
    const rng = Random.derive(seed, company.index, CHANGES, n);
    t += exponentialDays(rng, days.length === 0 ? LATER_RATE : AGAIN_RATE);
    if (t > until) break;
    days.push(t);
  }
  return days;
}

/** The company's name and previous names on `day` (days since 1970-01-01). */
export function namesOnRegister(seed: number, company: SyntheticCompany, day: number): NamesOnRegister {
  const reference = Math.max(fastDayNumber(company.incorporated), REFERENCE_DAY);
  const changes = nameChangeDays(seed, company, Math.max(day, reference));
  // Name j is in force from change j - 1 (or incorporation) until change j; the accounts name is
  // the one in force on the reference day.
  let inForceOnReference = 0;
  let inForceOnDay = 0;
  for (const change of changes) {
    if (change <= reference) inForceOnReference++;
    if (change <= day) inForceOnDay++;
  }
  const previous: PreviousName[] = [];
  for (let j = inForceOnDay - 1; j >= 0 && previous.length < MOST_PREVIOUS_NAMES; j--) {
    const name = j === inForceOnReference ? company.name : otherName(seed, company, j);
    previous.push({ date: fastFromDayNumber(changes[j]!), name });
  }
  const name = inForceOnDay === inForceOnReference ? company.name : otherName(seed, company, inForceOnDay);
  return { name, previous };
}

/** The company's `j`th name when it is not the accounts name: never that name again. */
function otherName(seed: number, company: SyntheticCompany, j: number): string {
  const holding = company.group || company.sector === 'holding';
  for (let attempt = 0; ; attempt++) {
    const name = companyName(Random.derive(seed, company.index, NAMES, j, attempt), company.legalForm, holding);
    if (name !== company.name || attempt >= 8) return name;
  }
}
