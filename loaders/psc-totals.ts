/**
 * Whether a PSC load read the whole snapshot, judged from what it read: the snapshot's closing
 * totals line counts every record of the whole snapshot (across all its parts), so the records
 * read must add up to it, and no line may have been rejected. Only then may the load mark as
 * ceased what it no longer lists: a line missing, cut or unreadable would otherwise make its PSC
 * look ceased. The real 2024-11-22 totals line counts 12,799,821 PSCs, 774,422 statements and 77
 * exemptions; an extract of 19 of those lines, named as the whole snapshot, is not the register.
 */

/** What the load read, counted as it went. */
export interface PscReadCounts {
  /** Lines read as a PSC, statement or exemption (the totals line not included). */
  records: number;
  /** Lines rejected (not JSON, no company number, too long, …). */
  rejected: number;
  /** The closing totals line's `data`; null when none was read. */
  totals: Record<string, unknown> | null;
  /** A second totals line that disagrees with the first, when one was read. */
  conflictingTotals?: Record<string, unknown> | null;
}

export interface PscCompletenessInput {
  /** --complete (true) or --partial (false); undefined: judged from the names and contents. */
  forced: boolean | undefined;
  /** Why the file names do not make the whole snapshot (parts missing, …); null when they do. */
  incomplete: string | null;
  read: PscReadCounts;
}

const COUNTS = ['persons_of_significant_control_count', 'statements_count', 'exemptions_count'] as const;

const n = (value: number) => value.toLocaleString('en-GB');

/** The records the totals line counts, or null when it does not give its counts as whole numbers. */
function recordsCounted(totals: Record<string, unknown>): number | null {
  let sum = 0;
  for (const key of COUNTS) {
    const value = totals[key] ?? 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return null;
    sum += value;
  }
  return sum;
}

/**
 * Why the load is not the whole snapshot, in words an operator acts on; null when it is. --partial
 * always makes it partial. --complete stands in for the file names and for a missing totals line
 * (a snapshot put together by hand), never for evidence that lines are missing or unreadable: a
 * rejected line, or records that do not add up to the totals line.
 */
export function whyPscLoadPartial({ forced, incomplete, read }: PscCompletenessInput): string | null {
  if (forced === false) return 'loaded as partial (--partial)';
  const reasons: string[] = [];
  if (forced === undefined && incomplete) reasons.push(incomplete);
  if (read.rejected > 0) {
    reasons.push(
      `${n(read.rejected)} line(s) rejected: the PSCs on them cannot be told from those the snapshot no longer lists`,
    );
  }
  if (read.conflictingTotals) reasons.push('two totals lines that disagree were read: parts of different snapshots?');
  if (read.totals === null) {
    if (forced === undefined) reasons.push('no closing totals line was read: the snapshot may be cut short');
  } else {
    const counted = recordsCounted(read.totals);
    const lines = read.records + read.rejected;
    if (counted === null) reasons.push('the totals line does not give its counts as whole numbers');
    else if (counted !== lines) {
      const parts = `${n(Number(read.totals.persons_of_significant_control_count ?? 0))} PSCs, ${n(Number(read.totals.statements_count ?? 0))} statements, ${n(Number(read.totals.exemptions_count ?? 0))} exemptions`;
      reasons.push(
        `the totals line counts ${n(counted)} records (${parts}) but ${n(lines)} were read: ` +
          (lines < counted
            ? 'lines are missing, or this is an extract of the snapshot'
            : 'lines are repeated or added'),
      );
    }
  }
  return reasons.length === 0 ? null : reasons.join('; ');
}

/** The two totals lines say the same counts. */
export function sameTotals(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return COUNTS.every((key) => a[key] === b[key]);
}
