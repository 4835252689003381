/**
 * Charges (mortgages) registered against a synthetic company: a lender takes security when it
 * lends, and the charge is satisfied when the loan is repaid. Property companies and larger
 * companies borrow against their assets; most micro companies never register a charge.
 *
 * A company's charges form a chain of events drawn from (seed, index, charge number) alone, so
 * the counts on any date come from the same history: a later snapshot only ever adds charges or
 * satisfies them.
 */
import type { SizeProfile, SyntheticCompany } from './companies.ts';
import { fastDayNumber } from './dates.ts';
import { exponentialDays, labelSeed, Random } from './random.ts';

/** The register's `Mortgages.*` counts. */
export interface ChargeCounts {
  charges: number;
  outstanding: number;
  /** Outstanding charges of which part has been released. */
  part_satisfied: number;
  satisfied: number;
}

const CHARGES = labelSeed('register-charges');

/** Share of companies that ever borrow against their assets. */
const BORROWERS: Record<SizeProfile, number> = { dormant: 0.02, micro: 0.1, small: 0.28, medium: 0.5, large: 0.55 };

/** No company runs through more charges than this; bounds the work for the oldest companies. */
const MOST_CHARGES = 40;

/** The company's charges as the register counts them on `day` (days since 1970-01-01). */
export function chargesOnRegister(seed: number, company: SyntheticCompany, day: number): ChargeCounts {
  const start = Random.derive(seed, company.index, CHARGES, 0);
  const property = company.sector === 'property';
  const share = Math.min(0.85, BORROWERS[company.size] * (property ? 2.2 : 1) * (company.group ? 1.3 : 1));
  if (!start.chance(share)) return none();
  const incorporated = fastDayNumber(company.incorporated);
  if (day < incorporated) return none();
  // New charges a year; a property company often charges its first property at once.
  const rate = property ? 0.22 : 0.1;
  let t = incorporated + (property && start.chance(0.5) ? start.int(20, 400) : exponentialDays(start, rate));
  const counts = none();
  for (let n = 1; n <= MOST_CHARGES && t <= day; n++) {
    const rng = Random.derive(seed, company.index, CHARGES, n);
    counts.charges++;
    // Most loans are repaid within a few years to a decade; the rest are still owed.
    const satisfied = rng.chance(0.6) ? t + rng.int(300, 12 * 365) : Infinity;
    const partly = rng.chance(0.05) ? t + rng.int(200, 5 * 365) : Infinity;
    if (satisfied <= day) counts.satisfied++;
    else if (partly <= day) counts.part_satisfied++;
    t += exponentialDays(rng, rate);
  }
  counts.outstanding = counts.charges - counts.satisfied;
  return counts;
}

// A fresh object each time: it becomes part of a record its reader may change.
function none(): ChargeCounts {
  return { charges: 0, outstanding: 0, part_satisfied: 0, satisfied: 0 };
}
