/**
 * The companies search index: name search, criteria search, triggers and stats, and its upkeep by
 * the indexer. Adapters: src/adapters/elasticsearch/es-search-index.ts and
 * src/adapters/pg-search/pg-search-index.ts, both held to test/contract/search-index.test.ts.
 */
import type { CompanyFilters, CompanyMatches, CompanyQuery, MarketStats } from '../domain/criteria.ts';
import type { GroupBy, GroupedMarketStats } from '../domain/market-groups.ts';
import type { NameKey, NamePage } from '../domain/name-search.ts';
import type { SearchDocument } from '../domain/search-document.ts';

/** What the operations ask of the index. */
interface SearchIndexReader {
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
}

/** How the indexer keeps the index. */
interface SearchIndexWriter {
  /** Insert or replace documents; visible to searches after `refresh`. */
  upsertCompanies(documents: readonly SearchDocument[]): Promise<void>;
  refresh(): Promise<void>;
  /** How many companies the index holds. */
  count(): Promise<number>;
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

export interface SearchIndex extends SearchIndexReader, SearchIndexWriter {}
