/**
 * What a watchlist keeps of each company: the snapshot taken when it was added, that alerts later
 * compare against.
 */
import type { PscKindClass } from './psc.ts';

/** What a watchlist remembers of a company when it is added, for alerts against it later. */
export interface WatchSnapshot {
  status: string;
  accounts_next_due: string | null;
  charges_total: number;
  charges_outstanding: number;
  latest_balance_sheet_date: string | null;
  net_assets: number | null;
  cash: number | null;
  /**
   * The current PSCs and statements then, newest notified first. Absent from snapshots taken
   * before PSCs were kept; absent or empty, there is nothing to compare (no control_change).
   */
  pscs?: SnapshotPsc[];
  /**
   * The keys (insolvencyCaseKey) of the insolvency cases the store held then. Absent from
   * snapshots taken before cases were kept, when the store held none: read as none.
   */
  insolvency_cases?: string[];
}

/** A PSC or statement as a watchlist snapshot keeps it (watch-snapshot.ts). */
export interface SnapshotPsc {
  psc_id: string;
  kind_class: PscKindClass;
  /** As filed; null for a statement or a PSC whose details are withheld. */
  name: string | null;
  /** A statement's code as filed, else null. */
  statement: string | null;
  notified_on: string | null;
}

export interface WatchedCompany {
  company_number: string;
  /** ISO date-time it was added. */
  added: string;
  snapshot: WatchSnapshot;
}
