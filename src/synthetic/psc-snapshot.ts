/**
 * The synthetic persons-with-significant-control snapshot in Companies House's format: one JSON
 * record a line for every PSC, statement and exemption of the companies on the synthetic register
 * of the snapshot date (the same companies `registerSnapshot` lists), then the totals line.
 *
 * As in the real file, statements come after all the PSCs and exemptions after the statements:
 * a reader cannot assume a company's records are together. Lines are a pure function of (seed,
 * companies, snapshot date), and a later snapshot tells the same story further on: PSCs notified
 * since, cessations that came.
 *
 * Lines stream; what is held is one block's plan and the list of companies with statements or
 * exemptions (an index each, a few per cent of companies), so memory stays flat for 12 million
 * lines.
 */
import { isCalendarDate } from '../domain/calendar-date.ts';
import { PSC_SUMMARY_KIND } from '../ownership/psc-line.ts';
import { syntheticCompany } from './companies.ts';
import type { SyntheticCompany } from './companies.ts';
import { dayNumber } from './dates.ts';
import { companyPscEntries } from './psc-company.ts';
import type { PscEntry } from './psc-company.ts';
import { BlockPlans } from './psc-plan.ts';
import { RENDERED_KIND, renderPscEntry } from './psc-render.ts';
import { statusOnDay } from './register-life.ts';

export { PSC_REGIME_START } from './psc-company.ts';

export interface PscSnapshotOptions {
  seed: number;
  /** Company indices 0 to `companies` - 1 are considered; only those on the register on the date have records. */
  companies: number;
  /** ISO date of the snapshot. */
  snapshotDate: string;
}

/** Company indices `from` to `to` - 1: the companies of one part of a snapshot. */
export interface IndexRange {
  from: number;
  to: number;
}

/** What a snapshot (or a part of one) held: the totals line counts the same. */
export interface PscSnapshotCounts {
  persons_of_significant_control_count: number;
  statements_count: number;
  exemptions_count: number;
}

/** The snapshot day (days since 1970-01-01) of checked options; throws on a bad count or date. */
export function pscSnapshotDay(options: PscSnapshotOptions): number {
  if (!Number.isInteger(options.companies) || options.companies < 0) {
    throw new Error(`companies must be a whole number, got ${options.companies}`);
  }
  if (!isCalendarDate(options.snapshotDate)) {
    throw new Error(`snapshotDate must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(options.snapshotDate)}`);
  }
  return dayNumber(options.snapshotDate);
}

/** Company `index` on the register on `day`, with its PSC entries; null when it is not on it. */
function companyOnSnapshot(
  seed: number,
  index: number,
  day: number,
  plans: BlockPlans,
): { company: SyntheticCompany; entries: PscEntry[] } | null {
  const company = syntheticCompany(seed, index);
  if (statusOnDay(seed, company, day).status === null) return null;
  return { company, entries: companyPscEntries(seed, company, plans.of(index)) };
}

/**
 * The record lines of companies `from` to `to` - 1 on the snapshot date, without the totals line:
 * their PSCs, then their statements, then their exemptions. `counts` is added to as lines go.
 */
export function* pscRangeLines(
  options: PscSnapshotOptions,
  { from, to }: IndexRange,
  counts: PscSnapshotCounts,
): Generator<string> {
  const day = pscSnapshotDay(options);
  const { seed, companies } = options;
  const plans = new BlockPlans(seed, companies);
  // Companies with statements or exemptions, visited again once the PSCs are all out.
  let later = new Int32Array(1024);
  let laterCount = 0;
  for (let index = from; index < to; index++) {
    const found = companyOnSnapshot(seed, index, day, plans);
    if (found === null) continue;
    let revisit = false;
    for (const entry of found.entries) {
      if (RENDERED_KIND[entry.type] !== 'psc') {
        revisit = true;
        continue;
      }
      const line = renderPscEntry({ seed, company: found.company, entry, day });
      if (line === null) continue;
      counts.persons_of_significant_control_count++;
      yield line;
    }
    if (revisit) {
      if (laterCount === later.length) {
        const grown = new Int32Array(later.length * 2);
        grown.set(later);
        later = grown;
      }
      later[laterCount++] = index;
    }
  }
  for (const kind of ['statement', 'exemption'] as const) {
    for (let k = 0; k < laterCount; k++) {
      const found = companyOnSnapshot(seed, later[k]!, day, plans);
      for (const entry of found?.entries ?? []) {
        if (RENDERED_KIND[entry.type] !== kind) continue;
        const line = renderPscEntry({ seed, company: found!.company, entry, day });
        if (line === null) continue;
        if (kind === 'statement') counts.statements_count++;
        else counts.exemptions_count++;
        yield line;
      }
    }
  }
}

/** The closing line: what the snapshot holds, and when it was made (early on the snapshot date). */
export function pscSummaryLine(snapshotDate: string, counts: PscSnapshotCounts): string {
  return JSON.stringify({
    data: {
      kind: PSC_SUMMARY_KIND,
      persons_of_significant_control_count: counts.persons_of_significant_control_count,
      statements_count: counts.statements_count,
      exemptions_count: counts.exemptions_count,
      generated_at: `${snapshotDate}T03:40:50Z`,
    },
  });
}

export function emptyCounts(): PscSnapshotCounts {
  return { persons_of_significant_control_count: 0, statements_count: 0, exemptions_count: 0 };
}

/** Every line of the snapshot, the totals line last, without line ends. */
export function* pscSnapshotLines(options: PscSnapshotOptions): Generator<string> {
  const counts = emptyCounts();
  yield* pscRangeLines(options, { from: 0, to: options.companies }, counts);
  yield pscSummaryLine(options.snapshotDate, counts);
}
