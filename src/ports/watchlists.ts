/**
 * The watchlists of API keys: the companies each key watches, with the snapshot taken when each
 * was added. Adapter: src/adapters/postgres/watchlist-store.ts.
 */
import type { WatchSnapshot, WatchedCompany } from '../domain/watchlists.ts';

/** What adding does when the new companies would take a watchlist over its limit. */
type OverLimit = 'refuse' | 'add_what_fits';

export interface WatchlistStore {
  /** The key's companies in the order they were added (a request's in the order it gave them). */
  list(keyId: number): Promise<WatchedCompany[]>;
  /**
   * Add companies with their snapshots; those already watched keep theirs. When the new ones
   * would take the list over `limit`: `overLimit` 'refuse' (the default) adds none of them and
   * says `limitReached`; 'add_what_fits' adds the first that fit. Either way `overLimit` lists
   * the new ones not added for the limit. `addedAt` (ISO date-time) is when they are added by the
   * caller's clock, the one alerts ask on; the database's clock when omitted.
   */
  add(
    keyId: number,
    entries: readonly { company_number: string; snapshot: WatchSnapshot }[],
    limit: number,
    addedAt?: string,
    overLimit?: OverLimit,
  ): Promise<{ added: string[]; alreadyWatched: string[]; overLimit: string[]; limitReached: boolean }>;
  remove(keyId: number, companyNumbers: readonly string[]): Promise<{ removed: string[]; notWatched: string[] }>;
}
