/**
 * Ports: what the domain and the entry points need from the outside world, in their terms.
 * Adapters under src/adapters implement them; only src/main.ts and the loaders' composition
 * choose which.
 */
import type { RegisterCompany } from './domain/company.ts';
import type { AccountsPeriod } from './domain/accounts-period.ts';
import type { CompanyFilters, CompanyMatches, CompanyQuery, MarketStats } from './domain/criteria.ts';
import type { GroupBy, GroupedMarketStats } from './domain/market-groups.ts';
import type { AccountingStandard, FigureSet } from './domain/figures.ts';
import type { IndexedRegisterFacts, SearchDocument } from './domain/search-document.ts';
import type { PscKindClass } from './ownership/psc.ts';
import type { PscSummary } from './ownership/psc-summary.ts';

export interface SqlResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** Parameterised SQL on Postgres: a pg pool, or PGlite in-process. The same SQL runs on both. */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
  /**
   * PostgreSQL only, in a transaction: `COPY … FROM STDIN` (text format) fed with `data`. Far
   * cheaper for the server to read than the same rows as a JSON parameter.
   */
  copyFrom?(statement: string, data: string): Promise<void>;
}

export interface Sql extends SqlClient {
  readonly dialect: 'postgres' | 'pglite';
  /** Run `work` in one transaction on one connection; rolled back if it throws. */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only (absent on PGlite): one large read streamed `batchRows` rows at a time through
   * a cursor, in one read-only snapshot on a connection of its own, with memory for a large sort.
   * For a full rebuild, where one sequential scan and a sort beat millions of index lookups
   * scattered over the heap. Stopping early (return, throw) closes the cursor.
   */
  scan?<Row = Record<string, unknown>>(
    text: string,
    batchRows: number,
    params?: readonly unknown[],
  ): AsyncGenerator<Row[]>;
  /** Several statements at once, without parameters (migrations). */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The store of register and accounts data.

/** One parsed filing, as the accounts loader hands it to the store. */
export interface FilingRecord {
  company_number: string;
  source_zip: string;
  source_file: string;
  published: string | null;
  balance_sheet_date: string;
  period_start: string | null;
  standard: AccountingStandard;
  entity_name: string | null;
  current: FigureSet;
  prior_balance_sheet_date: string | null;
  prior_period_start: string | null;
  prior: FigureSet | null;
  quality: { field: string; period: 'current' | 'prior'; message: string }[];
}

export interface ParseFailureRecord {
  source_zip: string;
  source_file: string;
  code: string;
  message: string;
}

/** One entry of a company's accounts history, newest first in lookups. */
export interface AccountsEntry {
  balance_sheet_date: string;
  period_start: string | null;
  published: string | null;
  standard: AccountingStandard;
  figures: FigureSet;
  quality: { field: string; period: 'current' | 'prior'; message: string }[];
  from_prior_period: boolean;
  /** The filed file the figures came from (the later filing, for a year from its prior-year column). */
  source: FilingSource;
}

/** A filing's place in the bulk data: the zip's base name (null for a file loaded on its own) and its own name. */
export interface FilingSource {
  zip: string | null;
  file: string;
}

export interface CompanyWithAccounts {
  company: RegisterCompany & { removed_from_register: string | null; snapshot_date: string };
  accounts: AccountsEntry[];
}

export interface IndexSource {
  company: IndexedRegisterFacts;
  accounts: AccountsPeriod[];
  /** The company's PSC register summed up; null when the store holds no PSC record of it. */
  pscs: PscSummary | null;
}

export interface RecentFiling {
  company_number: string;
  /** The register's name, or the name in the filing for a company not on the register. */
  name: string | null;
  published: string;
  balance_sheet_date: string;
  net_assets: number | null;
  cash: number | null;
  turnover: number | null;
}

/** A filing's place in recentFilings' order; the source file and zip make it unique. */
export type RecentFilingKey = readonly [
  published: string,
  companyNumber: string,
  balanceSheetDate: string,
  sourceFile: string,
  sourceZip: string,
];

export interface RecentFilingsPage {
  /** Every filing published since the day asked, not only those returned. */
  total: number;
  filings: RecentFiling[];
  /** The place of the last filing when more follow; null on the last page. */
  next: RecentFilingKey | null;
}

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
}

export interface LoadProgress {
  /** Oldest first. A load killed without finishing stays here until its source is loaded again. */
  running: RunningLoad[];
  /** One per kind and outcome that has ever occurred, by kind then status. */
  lastFinished: FinishedLoad[];
}

export interface CompanyStore {
  /** Insert or update companies as of `snapshotDate`; an older snapshot never overwrites a newer one. */
  upsertCompanies(companies: readonly RegisterCompany[], snapshotDate: string): Promise<void>;
  /** After a complete snapshot: companies it no longer lists are kept and marked dissolved. */
  markRemovedFromRegister(snapshotDate: string): Promise<number>;
  /** Save parsed filings and failures, and rebuild the accounts history of the companies concerned. */
  saveFilings(filings: readonly FilingRecord[], failures: readonly ParseFailureRecord[]): Promise<void>;
  getCompany(companyNumber: string): Promise<CompanyWithAccounts | null>;
  /** Several companies at once (one query), those on the register only, in no particular order. */
  getCompanies(companyNumbers: readonly string[]): Promise<CompanyWithAccounts[]>;
  /**
   * Filings published on or after `since`, newest publication first (ties by company number, then
   * newest balance sheet date, then source file): `limit` of them from just after `after`, the
   * count of all, and the place of the last one when more follow.
   */
  recentFilings(since: string, limit: number, after?: RecentFilingKey): Promise<RecentFilingsPage>;
  counts(): Promise<{ companies: number; filings: number; history: number; failures: number }>;
  /** Answers when the database does (readiness): one trivial round trip, whatever the data's size. */
  ping(): Promise<void>;
  /**
   * Companies with their accounts history (newest first; only the entries with at least one
   * figure, so the latest figures are never an empty entry), as the search indexer needs them, in
   * batches ordered by company number, with their PSC registers summed up: all of them, or those
   * changed after `changedSince` (a register, accounts or PSC load touched them).
   */
  companiesForIndex(batchSize: number, changedSince?: string): AsyncGenerator<IndexSource[]>;
  /** The database's clock, so that "changed since" compares times from one clock. */
  now(): Promise<string>;
  /** When the search index named `target` was last brought up to date (a `now()` value). */
  searchIndexedThrough(target: string): Promise<string | null>;
  recordSearchIndexedThrough(target: string, through: string): Promise<void>;
  /**
   * Runs `work` while no other process indexes `target`, waiting for one that does (calling
   * `onWait` first): several API instances starting at once, or a sync beside an operator's
   * `ukcd index`, must not build the same index side by side.
   */
  indexingExclusively<T>(target: string, work: () => Promise<T>, onWait?: () => void): Promise<T>;
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

// ---------------------------------------------------------------------------------------------
// The search index: name search, criteria search, triggers and stats.

export type { SearchDocument } from './domain/search-document.ts';

/** What a name search returns of a company. */
export type NameSearchHit = Pick<
  SearchDocument,
  'company_number' | 'name' | 'status' | 'type' | 'post_town' | 'incorporated' | 'sic_codes'
>;

/**
 * A place in name search's ranking: the tier (0 the exact name and active, 1 the exact name, then
 * active names 2 starting with the phrase, 3 containing it, 4 matching its words; 5–7 the same
 * for other statuses), the name's length, and the company number.
 */
export type NameKey = readonly [tier: number, nameLength: number, companyNumber: string];

export interface NamePage {
  /** Every name matching the query's words, not only those returned. */
  total: number;
  hits: NameSearchHit[];
  /** The place of the last hit when more follow; null on the last page. */
  next: NameKey | null;
}

export interface SearchIndex {
  /** Insert or replace documents; visible to searches after `refresh`. */
  upsertCompanies(documents: readonly SearchDocument[]): Promise<void>;
  refresh(): Promise<void>;
  /** How many companies the index holds. */
  count(): Promise<number>;
  /**
   * Companies by name, ranked: (1) the exact name ignoring legal suffixes, case, punctuation and
   * &/and; (2) active before others; (3) names starting with, then containing, the phrase; (4)
   * other names whose words all match as prefixes. Ties: shorter name, then company number.
   * "Starts with" and "contains" compare the normalised strings (contains: at the start of a word),
   * so "tesco sto" starts TESCO STORES while "tesc sto" only prefix-matches its words.
   * Returns `limit` hits from just after `after` in that ranking, with the count of all matches.
   */
  searchByName(query: string, limit: number, after?: NameKey): Promise<NamePage>;
  /**
   * Companies matching every filter (and the trigger, if any), in the sort order with missing
   * values last and ties by company number, with the count of all matches; from just after
   * `query.after` when given.
   */
  findCompanies(query: CompanyQuery): Promise<CompanyMatches>;
  /** Counts and figure distributions over the companies matching the filters. */
  stats(filters: CompanyFilters, asOf: string): Promise<MarketStats>;
  /**
   * The same statistics per group (market-groups.ts): the GROUP_LIMIT groups with most companies
   * (ties by key), and `other` over the matching companies in none of them.
   */
  groupedStats(filters: CompanyFilters, groupBy: GroupBy, asOf: string): Promise<GroupedMarketStats>;
  /**
   * Replace the whole index with these documents without downtime: searches read the old index
   * until the new one is complete, then switch at once. Returns how many were indexed.
   */
  rebuild(batches: AsyncIterable<readonly SearchDocument[]>): Promise<number>;
  /**
   * Whether the documents were written to an older shape than this code writes (an Elasticsearch
   * index built from an earlier mapping version): the indexer then rebuilds it in full. The
   * Postgres table is emptied by the migration that changes it instead, so it says false.
   */
  outdated(): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// API keys, their monthly usage, and watchlists (issue 5).

export type Plan = 'free' | 'pro';

export interface ApiKeyRecord {
  id: number;
  /** The first characters of the key (`ukcd_` and 8 more), shown to operators; never the key. */
  prefix: string;
  plan: Plan;
  email: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface KeyStore {
  /**
   * Store a new key by its hash. With `freeLimit`, a free key for `clientIp` is refused (null)
   * when that address already received `freeLimit.count` keys since `freeLimit.since`; the check
   * and the insert are one atomic step. `createdAt` (ISO date-time) is when the key is created by
   * the caller's clock, the one `freeLimit.since` is read on; the database's clock when omitted.
   */
  createKey(input: {
    hash: string;
    prefix: string;
    plan: Plan;
    email: string | null;
    clientIp: string | null;
    createdAt?: string;
    freeLimit?: { count: number; since: string };
  }): Promise<ApiKeyRecord | null>;
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** Keys whose prefix starts with `prefix` (all without), with their usage in `month` ("2026-11"). */
  listKeys(month: string, prefix?: string): Promise<(ApiKeyRecord & { used: number })[]>;
  /** Revoke the keys whose prefix starts with `prefix`; returns those revoked now. */
  revokeKeys(prefix: string): Promise<ApiKeyRecord[]>;
  /**
   * Count one request against the key's quota for `month`, atomically: of N concurrent calls on a
   * key with R requests left, exactly min(N, R) succeed. Returns the count after this request, or
   * null (nothing counted) when the quota was already used up.
   */
  consumeRequest(keyId: number, month: string, limit: number): Promise<number | null>;
  /**
   * Count `count` requests at once (a batch call), all or none, in one atomic statement: a key
   * with fewer than `count` left has nothing counted. `left` is what remains after counting, or,
   * when refused, what the statement found left.
   */
  consumeRequests(keyId: number, month: string, limit: number, count: number): Promise<QuotaTake>;
  /** Give back `count` (default 1) requests counted for a call that then failed on our side. */
  refundRequest(keyId: number, month: string, count?: number): Promise<void>;
  /**
   * findByHash and consumeRequests in one atomic statement, one round trip (every API call makes
   * both): the key with this hash, or null; and, only when it is not revoked, `count` requests
   * counted against its plan's limit in `limits` for `month`, all or none (`take` null for a
   * revoked key, which has nothing counted).
   */
  identifyAndConsume(
    hash: string,
    month: string,
    limits: Readonly<Record<Plan, number>>,
    count: number,
  ): Promise<{ key: ApiKeyRecord; take: QuotaTake | null } | null>;
}

export interface QuotaTake {
  counted: boolean;
  left: number;
}

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

// ---------------------------------------------------------------------------------------------
// Web page sessions (issue 16): a signed-in person's browser holds an opaque id; the store holds
// its hash, the key it signed in with (by id, never the key) and the session's CSRF token.

export interface WebSession {
  /** The key signed in with, as it is now (revoked_at set when revoked since). */
  key: ApiKeyRecord;
  /** The value the session's forms must send back. */
  csrfToken: string;
  /** ISO date-time after which the session is gone. */
  expiresAt: string;
}

export interface SessionStore {
  /** Keep a new session under the hash of its id, until `expiresAt`. */
  create(session: { idHash: string; keyId: number; csrfToken: string; expiresAt: Date }): Promise<void>;
  /** The session with this id hash, unless it expired by `now` (or never was). */
  find(idHash: string, now: Date): Promise<WebSession | null>;
  /** Forget the session (sign out); nothing happens for one that is not there. */
  delete(idHash: string): Promise<void>;
  /** Forget every session expired by `now`; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}
