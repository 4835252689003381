/**
 * The load journal: every register, accounts and PSC load records when it starts, what it counts
 * as it goes and how it ends, so that work done is skipped and progress can be watched.
 * Adapter: src/adapters/postgres/company-store.ts.
 */
import type { LoadCounts, LoadKind, LoadProgress, LoadStatus } from '../domain/loads.ts';

export interface LoadJournal {
  startLoad(kind: LoadKind, source: string, detail: Record<string, unknown>): Promise<number>;
  finishLoad(id: number, status: LoadStatus, counts: LoadCounts, detail?: Record<string, unknown>): Promise<void>;
  /** The counts of a running load so far, for anyone watching; ignored once the load has finished. */
  reportLoadProgress(id: number, counts: LoadCounts): Promise<void>;
  /** What the journal says is running, and how each kind of load last ended. */
  loadProgress(): Promise<LoadProgress>;
  /** The completed load of this source, if any, for skipping work already done. */
  findCompletedLoad(kind: LoadKind, source: string): Promise<{ id: number; detail: Record<string, unknown> } | null>;
  /**
   * How far completed loads reach: the newest register snapshot date, or the newest accounts
   * publication date, of any load that finished; null before the first.
   */
  loadedThrough(kind: LoadKind): Promise<string | null>;
}
