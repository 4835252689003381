/**
 * The gaps a 416 left in a stream (stream_gaps) and their catch-up through the REST API: the
 * watched companies are fetched one by one, in company-number order, and each company's fetched
 * resources are applied by the stream's appliers in one transaction with the gap's progress, so a
 * catch-up interrupted resumes after the last company done. Adapter:
 * src/adapters/postgres/stream-gaps.ts.
 */
import type { AppliedEvents, StreamApplier, StreamEvent } from './stream-appliers.ts';

export interface OpenGap {
  id: number;
  stream: string;
  /** The last company done by an interrupted catch-up; null: none yet. */
  afterCompany: string | null;
  /** What the catch-up did so far, by what was counted. */
  counts: Record<string, number>;
}

export interface StreamGaps {
  /** Gaps not filled yet, oldest first. */
  open(): Promise<OpenGap[]>;
  /** Companies some key watches, after `after` in number order, at most `limit`. */
  watchedAfter(after: string | null, limit: number): Promise<string[]>;
  /**
   * In one transaction: each applier applies its events (in the order given), and the gap's
   * progress becomes `company` with `counts`. What the appliers changed.
   */
  applyFill(
    gapId: number,
    company: string,
    runs: readonly { applier: StreamApplier; events: readonly StreamEvent[] }[],
    counts: Record<string, number>,
  ): Promise<AppliedEvents>;
  /** The gap is filled: every watched company was fetched. */
  markFilled(gapId: number, counts: Record<string, number>): Promise<void>;
}
