/**
 * The watchlists of API keys: the companies each key watches, with the snapshot taken when each
 * was added. Adapter: src/adapters/postgres/watchlist-store.ts.
 */
import type { WatchSnapshot, WatchedCompany } from '../domain/watchlists.ts';

export interface WatchlistStore {
  list(keyId: number): Promise<WatchedCompany[]>;
  /**
   * Add companies with their snapshots; those already watched keep theirs. All or nothing: when
   * the new ones would take the list over `limit`, nothing is added and `limitReached` is true.
   * `addedAt` (ISO date-time) is when they are added by the caller's clock, the one alerts ask
   * on; the database's clock when omitted.
   */
  add(
    keyId: number,
    entries: readonly { company_number: string; snapshot: WatchSnapshot }[],
    limit: number,
    addedAt?: string,
  ): Promise<{ added: string[]; alreadyWatched: string[]; limitReached: boolean }>;
  remove(keyId: number, companyNumbers: readonly string[]): Promise<{ removed: string[]; notWatched: string[] }>;
}
