/** The load journal's terms: the kinds of load, how each ended, and the counts they report. */

export type LoadKind = 'register' | 'accounts' | 'psc';
export type LoadStatus = 'running' | 'done' | 'failed' | 'interrupted';

export interface LoadCounts {
  rows_read: number;
  rows_written: number;
  rows_rejected: number;
}

/** A load the journal says is running, with the counts it last reported. */
export interface RunningLoad extends LoadCounts {
  id: number;
  kind: LoadKind;
  source: string;
  /** ISO date-time, UTC. */
  started_at: string;
}

/** The newest finished load of a kind with a given outcome. */
export interface FinishedLoad extends LoadCounts {
  kind: LoadKind;
  status: Exclude<LoadStatus, 'running'>;
  /** ISO date-time, UTC. */
  finished_at: string;
  /** A snapshot load taken as partial: why, as its journal entry says; null otherwise. */
  partial_because: string | null;
}

export interface LoadProgress {
  /** Oldest first. A load killed without finishing stays here until its source is loaded again. */
  running: RunningLoad[];
  /** One per kind and outcome that has ever occurred, by kind then status. */
  lastFinished: FinishedLoad[];
}
