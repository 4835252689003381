/**
 * Where the search indexer reads companies from and how far it has brought each index up to date,
 * on the database's clock. Adapter: src/adapters/postgres/company-store.ts.
 */
import type { IndexSource } from '../domain/search-document.ts';

export interface IndexCursor {
  /**
   * Companies with their accounts history (newest first; only the entries with at least one
   * figure, so the latest figures are never an empty entry), as the search indexer needs them, in
   * batches ordered by company number, with their PSC registers summed up: all of them, or those
   * changed after `changedSince` (a register, accounts or PSC load touched them).
   */
  companiesForIndex(batchSize: number, changedSince?: string): AsyncGenerator<IndexSource[]>;
  /** The database's clock, so that "changed since" compares times from one clock. */
  now(): Promise<string>;
  /**
   * Where an index run that starts now records it has read from: now, or earlier when other
   * transactions still open may commit rows dated before now (a row's updated_at is its
   * transaction's start), so that the next run reads what they commit after this one read.
   */
  indexWatermark(): Promise<string>;
  /** When the search index named `target` was last brought up to date (an `indexWatermark()` value). */
  searchIndexedThrough(target: string): Promise<string | null>;
  recordSearchIndexedThrough(target: string, through: string): Promise<void>;
  /**
   * Runs `work` while no other process indexes `target`, waiting for one that does (calling
   * `onWait` first): several API instances starting at once, or a sync beside an operator's
   * `ukcd index`, must not build the same index side by side.
   */
  indexingExclusively<T>(target: string, work: () => Promise<T>, onWait?: () => void): Promise<T>;
}
