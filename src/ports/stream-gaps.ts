/**
 * The gaps a 416 left in a stream (stream_gaps) and their catch-up through the REST API: the
 * watched companies are fetched one by one, in company-number order, and each company's fetched
 * resources are applied by the stream's appliers in one transaction with the gap's progress, so a
 * catch-up interrupted resumes after the last company done. One process fills a gap at a time,
 * by a lease on the database's clock that each company renews. Adapter:
 * src/adapters/postgres/stream-gaps.ts.
 */
import type { AppliedEvents, StreamApplier, StreamEvent } from './stream-appliers.ts';

export interface OpenGap {
  id: number;
  stream: string;
  /** The last company done by an interrupted catch-up; null: none yet. */
  afterCompany: string | null;
  /**
   * The day (UTC, ISO) the lost events began: that of the last event applied before the gap, or
   * the day the gap was recorded when that is not known.
   */
  since: string;
  /** What the catch-up did so far, by what was counted. */
  counts: Record<string, number>;
}

export interface StreamGaps {
  /**
   * The gaps not filled yet that `holder` may fill now (nobody else's lease on them is live),
   * oldest first but the companies stream's last, each now leased to `holder` for `seconds`.
   */
  claimOpen(holder: string, seconds: number): Promise<OpenGap[]>;
  /** Companies some key watches, after `after` in number order, at most `limit`. */
  watchedAfter(after: string | null, limit: number): Promise<string[]>;
  /**
   * In one transaction, while `holder` holds the gap's lease (renewed for `seconds`): each applier
   * applies its events (in the order given), and the gap's progress becomes `company` with
   * `counts`. What the appliers changed; null, and nothing applied, when the lease went to another.
   */
  applyFill(
    gap: { id: number; holder: string; seconds: number },
    company: string,
    runs: readonly { applier: StreamApplier; events: readonly StreamEvent[] }[],
    counts: Record<string, number>,
  ): Promise<AppliedEvents | null>;
  /**
   * The link paths (`/company/{n}/appointments/{id}`, a PSC's or statement's self link) of what is
   * stored of `company` from `stream` and could still be deleted there: appointments not deleted,
   * PSCs and statements not ceased. Only rows keyed by their link's last segment, as the stream's
   * appliers key them: a PSC a snapshot stored under its etag (its line had no self link) is never
   * listed. Null for a stream whose deletions a catch-up does not apply.
   */
  storedLinks(stream: string, company: string): Promise<string[] | null>;
  /** The gap is filled: every watched company was fetched. */
  markFilled(gap: { id: number; holder: string }, counts: Record<string, number>): Promise<void>;
}
