/**
 * Where the follower keeps its place in each stream, and who follows it. A stream's position (the
 * timepoint of the last event applied) is written in the transaction that applies the events, so
 * a restart resumes exactly after what is stored. One process follows a stream at a time, by a
 * lease on the database's clock that it renews; another takes the stream over when it runs out.
 * Adapter: src/adapters/postgres/stream-ledger.ts (pg or PGlite).
 */
import type { Lease } from './shared-work.ts';
import type { AppliedEvents, StreamApplier, StreamEvent } from './stream-appliers.ts';

interface StreamPosition {
  /** The timepoint of the last event applied; null: read the stream from now. */
  timepoint: number | null;
  /** When that event was published (ISO date-time); null before the first. */
  publishedAt: string | null;
}

export interface StreamLedger {
  /** Take the stream's lease when nobody holds it, its holder let it run out, or it is ours already. */
  claim(stream: string, lease: Lease): Promise<boolean>;
  /** Extend the lease; false when another process holds it now. */
  renew(stream: string, lease: Lease): Promise<boolean>;
  /** Give the lease up (on a clean stop), so another process need not wait for it to run out. */
  release(stream: string, holder: string): Promise<void>;
  position(stream: string): Promise<StreamPosition>;
  /**
   * The stream whose last applied event was published most recently, and when (ISO date-time,
   * UTC); null when no stream has applied an event: how fresh what the streams bring is.
   */
  newest(): Promise<{ stream: string; publishedAt: string } | null>;
  /**
   * In one transaction, while `holder` holds the stream's lease: the applier applies `events`, and
   * the last one's timepoint becomes the stream's position. Null (nothing applied) when the lease
   * is no longer this holder's.
   */
  applyBatch(
    stream: string,
    holder: string,
    events: readonly StreamEvent[],
    applier: StreamApplier,
  ): Promise<AppliedEvents | null>;
  /**
   * The stream could not resume from its position (416): record the gap from it, and read the
   * stream from now on. False when the lease is no longer this holder's.
   */
  restartFromNow(stream: string, holder: string, reason: string): Promise<boolean>;
}
