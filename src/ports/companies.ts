/**
 * The store of register and accounts data: what the register and accounts loads write, and what
 * lookups, the recent filings feed and the status page read. Adapter:
 * src/adapters/postgres/company-store.ts (pg or PGlite), which also keeps the load journal
 * (load-journal.ts), the search index's cursor (index-cursor.ts) and answers the health check
 * (health.ts) on the same connection.
 */
import type { RegisterCompany } from '../domain/company.ts';
import type {
  CompanyWithAccounts,
  FilingRecord,
  ParseFailureRecord,
  RecentFilingKey,
  RecentFilingsPage,
} from '../domain/filings.ts';
import type { StoredPsc } from '../domain/psc.ts';

/** What the register and accounts loads write. */
export interface CompanyWriter {
  /** Insert or update companies as of `snapshotDate`; an older snapshot never overwrites a newer one. */
  upsertCompanies(companies: readonly RegisterCompany[], snapshotDate: string): Promise<void>;
  /** After a complete snapshot: companies it no longer lists are kept and marked dissolved. */
  markRemovedFromRegister(snapshotDate: string): Promise<number>;
  /**
   * What markRemovedFromRegister would mark, of the companies on the register: counted, nothing
   * changed; with the newest snapshot date any of them was last listed on (null when none).
   */
  countNotListed(snapshotDate: string): Promise<{ count: number; held: number; lastListed: string | null }>;
  /** Save parsed filings and failures, and rebuild the accounts history of the companies concerned. */
  saveFilings(filings: readonly FilingRecord[], failures: readonly ParseFailureRecord[]): Promise<void>;
}

/** What lookups, watchlists, alerts and the feed read of companies and their accounts. */
export interface CompanyReader {
  getCompany(companyNumber: string): Promise<CompanyWithAccounts | null>;
  /**
   * Several companies at once (one query), those on the register only, in no particular order,
   * each with its insolvency cases (what alerts and watch snapshots compare).
   */
  getCompanies(companyNumbers: readonly string[]): Promise<CompanyWithAccounts[]>;
  /**
   * A company on the register with its accounts history (as getCompany gives it) and its PSCs
   * and statements (as OwnershipReader.pscsOf gives them), in one statement: what a lookup reads.
   * Null when the company is not on the register.
   */
  companyWithPscs(
    companyNumber: string,
    includeCeased: boolean,
  ): Promise<(CompanyWithAccounts & { pscs: StoredPsc[] }) | null>;
  /**
   * Filings published on or after `since`, newest publication first (ties by company number, then
   * newest balance sheet date, then source file): `limit` of them from just after `after`, the
   * count of all, and the place of the last one when more follow.
   */
  recentFilings(since: string, limit: number, after?: RecentFilingKey): Promise<RecentFilingsPage>;
  counts(): Promise<{ companies: number; filings: number; history: number; failures: number }>;
}

/** Both sides of the company store. */
export interface CompanyStore extends CompanyWriter, CompanyReader {}
