/**
 * Annual returns and confirmation statements on the register. Until 30 June 2016 a company made
 * an annual return up to each anniversary of its incorporation, due 28 days later; from then on a
 * confirmation statement at least once a year, due 14 days after the end of its review period.
 * The register keeps both sets of fields: the returns ones frozen where the old regime left them.
 *
 * Confirmation statements are made up to the anniversary (or the day before), and most are filed
 * within the 14 days; a few come late, which leaves the company overdue for a while.
 */
import type { SyntheticCompany } from './companies.ts';
import { civilDayNumber, dayOf, fastDayNumber, fastFromDayNumber, lastDayOfMonth, monthOf, yearOf } from './dates.ts';
import { labelSeed, Random } from './random.ts';

/** The register's `Returns.*` and `ConfStmt*` fields. */
export interface StatementsOnRegister {
  returns: { next_due: string | null; last_made_up: string | null };
  conf_stmt: { next_due: string | null; last_made_up: string | null };
}

/** The first day of confirmation statements. */
const CONFIRMATION_STATEMENTS_FROM = '2016-06-30';

const STATEMENTS = labelSeed('register-statements');
const CONFIRMATION_DAY = fastDayNumber(CONFIRMATION_STATEMENTS_FROM);

/** Day number of the `years`th anniversary of a date (29 February falls on the 28th in other years). */
function anniversaryDay(year: number, month: number, day: number, years: number): number {
  return civilDayNumber(year + years, month, Math.min(day, lastDayOfMonth(year + years, month)));
}

/** The calendar year of a day number. */
function yearOfDay(day: number): number {
  const year = 1970 + Math.floor(day / 365.2425);
  if (civilDayNumber(year, 1, 1) > day) return year - 1;
  return civilDayNumber(year + 1, 1, 1) <= day ? year + 1 : year;
}

/** Anniversaries of the date passed by day `on`. */
function yearsBy(year: number, month: number, day: number, on: number): number {
  const years = yearOfDay(on) - year;
  if (years <= 0) return 0;
  return anniversaryDay(year, month, day, years) <= on ? years : years - 1;
}

/** The returns and confirmation statement fields of the company's entry on `day`. */
export function statementsOnRegister(seed: number, company: SyntheticCompany, day: number): StatementsOnRegister {
  const inc = company.incorporated;
  const y0 = yearOf(inc);
  const m0 = monthOf(inc);
  const d0 = dayOf(inc);
  if (day < civilDayNumber(y0, m0, d0)) {
    return { returns: { next_due: null, last_made_up: null }, conf_stmt: { next_due: null, last_made_up: null } };
  }
  // Annual returns: the last made up to an anniversary before the regime ended (or before `day`).
  const returnsMade = yearsBy(y0, m0, d0, Math.min(day, CONFIRMATION_DAY - 1));
  const returnsLastMadeUp = returnsMade > 0 ? fastFromDayNumber(anniversaryDay(y0, m0, d0, returnsMade)) : null;
  const returnsNextDue = fastFromDayNumber(anniversaryDay(y0, m0, d0, returnsMade + 1) + 28);
  const returns = { next_due: returnsNextDue, last_made_up: returnsLastMadeUp };
  if (day < CONFIRMATION_DAY) return { returns, conf_stmt: { next_due: null, last_made_up: null } };

  // Made up to the anniversary itself, or to the day before (the end of the review period).
  const offset = Random.derive(seed, company.index, STATEMENTS).chance(0.5) ? 0 : -1;
  // The first statement is the first one made up on or after the regime began.
  const first = yearsBy(y0, m0, d0, CONFIRMATION_DAY - offset - 1) + 1;
  let cycle = yearsBy(y0, m0, d0, day - offset);
  // Step back past a statement made up but not filed yet; lags never reach a year.
  if (cycle >= first && anniversaryDay(y0, m0, d0, cycle) + offset + filingLag(seed, company, cycle) > day) cycle--;
  const last = cycle >= first ? anniversaryDay(y0, m0, d0, cycle) + offset : null;
  const next = anniversaryDay(y0, m0, d0, last === null ? first : cycle + 1) + offset;
  return {
    returns,
    conf_stmt: { next_due: fastFromDayNumber(next + 14), last_made_up: last === null ? null : fastFromDayNumber(last) },
  };
}

/** Days between the made-up date of statement `cycle` and its filing. */
function filingLag(seed: number, company: SyntheticCompany, cycle: number): number {
  const rng = Random.derive(seed, company.index, STATEMENTS, cycle);
  const [min, max] = rng.weighted<readonly [number, number]>([
    [[0, 14], 85],
    [[15, 60], 11],
    [[61, 200], 4],
  ]);
  return rng.int(min, max);
}
