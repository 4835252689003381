/**
 * How events of the Companies House Streaming API change stored data. The follower reads each
 * stream and hands a batch of its events to that stream's applier inside the one transaction that
 * also records the batch's last timepoint, so a batch is applied and remembered together or not
 * at all. Each stream (companies, filings, officers, …) has one applier.
 */
import type { SqlClient } from './sql.ts';

/** One event, as one line of a stream carries it (Streaming API specification). */
export interface StreamEvent {
  resource_kind: string;
  resource_uri: string;
  resource_id: string;
  data: Record<string, unknown>;
  event: {
    timepoint: number;
    /** ISO date-time, as published (`2026-11-27T09:14:03`). */
    published_at: string;
    /** `changed` or `deleted`. */
    type: string;
    fields_changed?: string[];
  };
}

/** What a batch changed: the companies whose stored state it changed (for alerts and search). */
export interface AppliedEvents {
  companies: string[];
}

export interface StreamApplier {
  /** The stream's path: `companies`, `filings`, `officers`, `disqualified-officers`, … */
  readonly stream: string;
  /**
   * Applies `events` (in the order received) within `tx`. An event already applied, or older
   * than what is stored (by its own dates and timepoint), changes nothing.
   */
  apply(tx: SqlClient, events: readonly StreamEvent[]): Promise<AppliedEvents>;
}
