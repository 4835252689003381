/**
 * The SearchIndex on Elasticsearch. Reads and writes go through an alias, so a rebuild can write a
 * new index and swap the alias. Ranking uses only core features (no scripts: the distribution the
 * project tests on has no painless): one filter per ranking tier, read in the index's own sort
 * order (name length, then company number).
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { normaliseCompanyName } from '../../domain/company-name.ts';
import {
  companyKey,
  documentConditions,
  filterConditions,
  queryConditions,
  querySortOrder,
} from '../../domain/company-conditions.ts';
import type { FigureStats, MarketStats, RangeFigure, SortOrder } from '../../domain/criteria.ts';
import { PERCENTILES, RANGE_FIGURES } from '../../domain/criteria.ts';
import type { GroupBy, GroupedDocument, GroupStats, StatsDocument } from '../../domain/market-groups.ts';
import { compareGroups, GROUP_LIMIT, groupedStatsOf } from '../../domain/market-groups.ts';
import { RISK_BANDS } from '../../domain/risk-band.ts';
import type { SicSection } from '../../domain/sic-section.ts';
import { SIC_SECTIONS, sicSectionDivisions } from '../../domain/sic-section.ts';
import {
  allowedEdits,
  isActiveStatus,
  NEAR_CANDIDATES,
  NEAR_MATCHES_UP_TO,
  nameQuery,
  nearMatches,
  wordStartSuffixes,
} from '../../domain/name-search.ts';
import type { NameKey, NamePage, NameSearchHit } from '../../domain/name-search.ts';
import { documentKey } from '../../domain/search-document.ts';
import type { SearchDocument } from '../../domain/search-document.ts';
import type { SearchIndex } from '../../ports/search-index.ts';
import { filterQuery } from './conditions-query.ts';
import { dependencyUnavailable } from '../../errors.ts';
import { translateRejections } from '../translate-rejections.ts';
import { isEsUnavailable } from './es-unavailable.ts';
import { indexGeneration } from './index-generation.ts';
import { createNameSearchCache } from './name-search-cache.ts';
import type { IndexMapping } from './es-versioned-index.ts';
import {
  bulkWrite,
  ensureAliasedIndex,
  mappingOutdated,
  msearch,
  msearchHits,
  readIndexMapping,
  rebuildBehindAlias,
} from './es-versioned-index.ts';

export interface EsSearchOptions {
  client: Client;
  /** The alias searches read; an index named `${alias}_v1` is created behind it when missing. */
  alias: string;
  /** Stats over more companies than this are estimated from a random sample of about `statsSample`. */
  exactStatsUpTo?: number;
  statsSample?: number;
  /** Name searches with fewer candidates than this are ranked by one scored query; more, by tiers. */
  scoredNameSearchUpTo?: number;
  /** Name search pages kept in memory (name-search-cache.ts); 0 keeps none. */
  nameSearchCacheEntries?: number;
  /** How stale the index's generation, which retires cached pages, may be (index-generation.ts). */
  generationMaxAgeMs?: number;
}

/**
 * Create the first index behind the alias if there is none. An index built from an earlier
 * mapping version gets the fields it lacks (new fields never conflict), so that updates, which
 * write every field, keep working; its documents gain their values when the indexer, seeing it
 * `outdated`, rebuilds it in full into a new `companies_vN` (searches read the old one meanwhile).
 */
export async function ensureIndex({ client, alias }: EsSearchOptions): Promise<void> {
  const mapping = readMapping();
  if (await ensureAliasedIndex(client, alias, mapping))
    await raiseResultWindow(client, alias, mapping.settings.max_result_window);
}

/**
 * An index built before the mapping raised max_result_window (which exact stats need) gets the
 * new value: it is a dynamic setting, so no rebuild is needed. Only a lower value is written, so
 * this is a read on every start but one.
 */
async function raiseResultWindow(client: Client, alias: string, window: number): Promise<void> {
  const current = await client.indices.getSettings({
    index: alias,
    name: 'index.max_result_window',
    include_defaults: true,
    flat_settings: true,
  });
  const low = Object.entries(current)
    .filter(([, state]) => {
      // flat_settings: keys as written, e.g. "index.max_result_window"; unset ones among the defaults.
      const key = 'index.max_result_window';
      const value: unknown = state.settings?.[key] ?? state.defaults?.[key];
      return Number(value) < window;
    })
    .map(([index]) => index);
  if (low.length > 0) await client.indices.putSettings({ index: low, settings: { 'index.max_result_window': window } });
}

export function createEsSearchIndex({
  client,
  alias,
  exactStatsUpTo = EXACT_STATS_UP_TO,
  statsSample = STATS_SAMPLE,
  scoredNameSearchUpTo = SCORED_UP_TO,
  nameSearchCacheEntries = NAME_SEARCH_CACHE_ENTRIES,
  generationMaxAgeMs = GENERATION_MAX_AGE_MS,
}: EsSearchOptions): SearchIndex {
  // Exact stats read ranks up to half the companies deep into a sorted search.
  const window = readMapping().settings.max_result_window;
  if (Math.floor(exactStatsUpTo / 2) + 1 > window)
    throw new Error(
      `exactStatsUpTo ${exactStatsUpTo} needs the index's max_result_window (${window}) to be at least ${Math.floor(exactStatsUpTo / 2) + 1}`,
    );
  /** Market stats over the companies matching `query`. */
  async function statsOver(query: estypes.QueryDslQueryContainer): Promise<MarketStats> {
    const companies = (await client.count({ index: alias, query })).count;
    // Over many companies, breakdowns and distributions come from a uniform random sample
    // (fixed seed: the same question gives the same answer); reading every document of a few
    // million takes seconds. The number of companies stays exact.
    // Elasticsearch samples with a probability of at most 0.5; above that, read everything.
    // Two significant digits: the probability reported is the one used, without float noise.
    const wanted = Number((statsSample / Math.max(companies, 1)).toPrecision(2));
    const probability = companies > exactStatsUpTo && wanted <= 0.5 ? Math.max(wanted, 0.0001) : 1;
    const aggs = statsAggregations();
    const result = await client.search({
      index: alias,
      size: 0,
      track_total_hits: false,
      query,
      aggs: probability < 1 ? { sample: { random_sampler: { probability, seed: STATS_SEED }, aggs } } : aggs,
    });
    if (probability < 1) {
      const sampled = (result.aggregations as Record<string, { doc_count: number }>).sample!;
      const aggregations = sampled as unknown as Aggregations;
      return {
        ...marketStats(companies, aggregations, estimatedPercentiles(aggregations)),
        sample: { probability, companies: sampled.doc_count },
      };
    }
    const aggregations = result.aggregations as unknown as Aggregations;
    return marketStats(companies, aggregations, await exactPercentiles(client, alias, query, aggregations));
  }

  const generation = indexGeneration(client, alias, generationMaxAgeMs);
  const nameSearchCache = createNameSearchCache(generation, nameSearchCacheEntries);
  /** A write through this adapter: cached name search pages computed before it are retired at once. */
  const changing = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } finally {
      generation.advance();
    }
  };

  /**
   * Name search's ranking, a page from just after `after` (its tier, then search_after on length
   * and number: never an offset). First pages of a phrase that likely matches few names (two
   * words or more; at full size a single word often matches tens of thousands) try the scored query alone, stopped after
   * `scoredNameSearchUpTo` candidates: when fewer match, it has ranked them all and counted them,
   * in one search. Otherwise, or when it stopped, the tiers below.
   */
  async function rankedByName(nameQuery: NameQuery): Promise<Omit<NamePage, 'near'>> {
    const { phrase, words, limit, after } = nameQuery;
    // One more than asked, to know whether another page follows.
    const want = limit + 1;
    const page = (total: number, ranked: RankedHit[]) => {
      const last = ranked[limit - 1];
      return {
        total,
        hits: ranked.slice(0, limit).map(({ hit }) => hit),
        next:
          ranked.length > limit && last ? ([last.tier, last.hit.name.length, last.hit.company_number] as const) : null,
      };
    };
    if (!after && scoredNameSearchUpTo > 0 && words.length > 1) {
      const [scored] = await msearchHits<NameSearchHit>(client, alias, [
        {
          ...scoredSearch({ phrase, words, limit: want }),
          track_total_hits: true,
          terminate_after: scoredNameSearchUpTo,
        },
      ]);
      const total = totalOf(scored!.hits.total);
      if (total < scoredNameSearchUpTo) return page(total, scoredHits(scored!.hits.hits));
    }
    const from = after?.[0] ?? 0;
    const tiers = nameTiers(phrase, words)
      .map((tier, i) => ({ tier: i, query: tier }))
      .filter((t) => t.tier >= from);
    const search = (tier: number, query: estypes.QueryDslQueryContainer, size: number) =>
      tierSearch(query, size, after && tier === after[0] ? [after[1], after[2]] : undefined);
    // The ranking's first tiers (the exact name; active names starting with the phrase), read
    // in the index's own sort order (length, number) so each stops after `want` hits however
    // many names match, and how many names match the words at all. On a first page the two exact
    // tiers are one search, split here by status, unless it fills the page (then some active
    // exact names may lie beyond it, and each tier is read on its own).
    const early = tiers.filter((t) => t.tier <= 2);
    const exactTogether = !after;
    const searches = exactTogether
      ? [search(0, exactName(phrase, words), want), search(2, tiers[2]!.query, want)]
      : early.map((t) => search(t.tier, t.query, want));
    const [counted, ...found] = await msearch<NameSearchHit>(client, alias, [
      { size: 0, track_total_hits: true, query: nameCandidates(words) },
      ...searches,
    ]);
    const total = counted!.total;
    let hits: RankedHit[];
    if (exactTogether && found[0]!.documents.length < want) {
      const exact = found[0]!.documents;
      hits = [
        ...exact.filter((hit) => isActiveStatus(hit.status)).map((hit) => ({ tier: 0, hit })),
        ...exact.filter((hit) => !isActiveStatus(hit.status)).map((hit) => ({ tier: 1, hit })),
        ...found[1]!.documents.map((hit) => ({ tier: 2, hit })),
      ];
    } else if (exactTogether) {
      const split = await msearch<NameSearchHit>(
        client,
        alias,
        early.filter((t) => t.tier < 2).map((t) => search(t.tier, t.query, want)),
      );
      hits = [
        ...split.flatMap((answer, tier) => answer.documents.map((hit) => ({ tier, hit }))),
        ...found[1]!.documents.map((hit) => ({ tier: 2, hit })),
      ];
    } else hits = early.flatMap((t, i) => found[i]!.documents.map((hit) => ({ tier: t.tier, hit })));
    if (hits.length >= want) return page(total, hits);
    // Few candidates: rank them all in one scored query. Many (a short prefix matches hundreds
    // of thousands): the remaining tiers, each stopping early, side by side.
    if (total < scoredNameSearchUpTo)
      return page(total, await scoredNameSearch(client, alias, { phrase, words, limit: want, after }));
    const later = tiers.filter((t) => t.tier > 2);
    const rest = await msearch<NameSearchHit>(
      client,
      alias,
      later.map((t) => search(t.tier, t.query, want - hits.length)),
    );
    later.forEach((t, i) => hits.push(...rest[i]!.documents.map((hit) => ({ tier: t.tier, hit }))));
    return page(total, hits);
  }

  const index: SearchIndex = {
    upsertCompanies: (documents) => changing(bulkIndex(client, alias, documents, { requireAlias: true })),

    rebuild: (batches) =>
      changing(
        rebuildBehindAlias({ client, alias, mapping: readMapping() }, batches, (index, batch) =>
          bulkIndex(client, index, batch),
        ),
      ),

    async refresh() {
      await changing(client.indices.refresh({ index: alias }));
    },

    outdated: () => mappingOutdated(client, alias, readMapping()),

    async count() {
      // Companies, not documents: a company's estimated document is a second copy of it.
      const result = await client.count({ index: alias, query: { bool: { must_not: [ESTIMATED] } } });
      return result.count;
    },

    async findCompanies(query) {
      const filter = filterQuery(queryConditions(query));
      const { field, descending } = querySortOrder(query);
      // One more than asked, to know whether another page follows.
      const want = query.limit + 1;
      const after = query.after;
      // After a key (search after, never an offset: stable while loads write), the page goes on
      // with the companies tied at its value with a greater number, then those beyond its value
      // (missing values last). The latter, like a first page, are sorted by their field alone
      // with the count beside them, in one request. Without an exact total to keep or a tie-break
      // to compare, the sorted search can skip documents that cannot make the page; a tie-break on
      // the company number would make it read every tie (half a million companies share a head
      // count of one).
      const tiedAt = (value: unknown) => tiedAtValue(field, value);
      const beyond = !after ? filter : beyondValue(filter, { field, descending }, after[0]);
      const searches: estypes.SearchSearchRequestBody[] = [{ size: 0, track_total_hits: true, query: filter }];
      if (after)
        searches.push({
          size: want,
          track_total_hits: false,
          query: { bool: { filter: [filter, tiedAt(after[0]), { range: { company_number: { gt: after[1] } } }] } },
          sort: [{ company_number: { order: 'asc' } }],
          _source: { excludes: INTERNAL_FIELDS },
        });
      if (beyond)
        searches.push({
          size: want,
          track_total_hits: false,
          query: beyond,
          sort: [{ [field]: { order: descending ? 'desc' : 'asc', missing: '_last' } }],
          _source: { excludes: INTERNAL_FIELDS },
        });
      const [count, ...pages] = await msearch<SearchDocument>(client, alias, searches);
      const page = (documents: SearchDocument[]) => ({
        total: count!.total,
        documents: documents.slice(0, query.limit),
        next: documents.length > query.limit ? companyKey(documents[query.limit - 1]!, query) : null,
      });
      const tiedAfter = after ? pages.shift()!.documents : [];
      const rest = want - tiedAfter.length;
      if (!beyond || rest <= 0) return page(tiedAfter);
      const documents = pages[0]!.documents.slice(0, rest);
      const compare = compareBy(field, descending);
      if (documents.length < rest) return page([...tiedAfter, ...documents.sort(compare)]);
      // Every value strictly better than the last one taken is there whole; the companies tied at
      // that last value are taken by company number from all of them.
      const boundary = documents.at(-1)![field as keyof SearchDocument] ?? null;
      const better = documents.filter(
        (d) => compareValues(d[field as keyof SearchDocument] ?? null, boundary, descending) < 0,
      );
      const [ties] = await msearch<SearchDocument>(client, alias, [
        {
          size: rest - better.length,
          track_total_hits: false,
          query: { bool: { filter: [beyond, tiedAt(boundary)] } },
          sort: [{ company_number: { order: 'asc' } }],
          _source: { excludes: INTERNAL_FIELDS },
        },
      ]);
      return page([...tiedAfter, ...better.sort(compare), ...ties!.documents]);
    },

    stats: (filters, asOf) => statsOver(filterQuery(filterConditions(filters, asOf))),

    async groupedStats(filters, groupBy, asOf) {
      const query = filterQuery(filterConditions(filters, asOf));
      // Up to exactStatsUpTo companies, every one is read (a few pages) and grouped here, exactly;
      // exact percentiles by rank searches for each of 51 groups took seconds even over 2,400.
      const companies = (await client.count({ index: alias, query })).count;
      if (companies <= exactStatsUpTo)
        return groupedStatsOf(await readStatsDocuments(client, alias, query), groupBy, asOf);
      const found = await groupCounts(client, alias, { query, groupBy, asOf });
      const listed = found.sort(compareGroups).slice(0, GROUP_LIMIT);
      // Over more: each group's stats are those of the filters with the group's condition added,
      // read as stats always are (exactly up to exactStatsUpTo companies in the group, else from
      // a sample of the group, flagged); `other` is the filters without any listed group's condition.
      const over = async (groupQuery: estypes.QueryDslQueryContainer): Promise<GroupStats> => {
        const { companies, with_accounts, figures, negative_net_assets_share, sample } = await statsOver(groupQuery);
        return { companies, with_accounts, figures, negative_net_assets_share, ...(sample ? { sample } : {}) };
      };
      const groups = await mapLimited(listed, GROUP_CONCURRENCY, async (group) => ({
        key: group.key,
        ...(await over({ bool: { filter: [query, group.query] } })),
      }));
      const other = await over({ bool: { filter: [query], must_not: listed.map((group) => group.query) } });
      return { group_by: groupBy, groups, other: other.companies === 0 ? null : other };
    },

    async searchByName(query, limit, after) {
      const { phrase, words } = nameQuery(query);
      if (words.length === 0) return { total: 0, hits: [], next: null, near: [] };
      return nameSearchCache.page({ phrase, limit, after }, async () => {
        const ranked = await rankedByName({ phrase, words, limit, after });
        // Near matches only when the words match no name at all: a query that finds anything
        // never pays for them.
        const room = after || ranked.total > 0 ? 0 : Math.min(limit, NEAR_MATCHES_UP_TO);
        return {
          ...ranked,
          near: room > 0 ? nearMatches(await nearCandidates(client, alias, words), words, room) : [],
        };
      });
    },
  };
  // Elasticsearch down or too slow is the port's "search unavailable" (a 503), whichever method met it.
  return translateRejections(index, (error) =>
    isEsUnavailable(error) ? dependencyUnavailable('search', error) : error,
  );
}

const BUCKETS = 1000;
/**
 * Up to this many companies, stats read every one (percentiles exactly, within the mapping's
 * max_result_window of 20,001); above, a random sample of about STATS_SAMPLE.
 */
const EXACT_STATS_UP_TO = 40_000;
const STATS_SAMPLE = 20_000;
const STATS_SEED = 20_250_101;
const NAME_HIT_FIELDS = ['company_number', 'name', 'status', 'type', 'post_town', 'incorporated', 'sic_codes'];
/** Fields the index keeps for name search only; not part of a SearchDocument. */
const INTERNAL_FIELDS = ['name_normalised', 'name_words', 'name_prefix', 'name_suffixes', 'name_length', 'active'];

/**
 * Name search's tiers, best first (NameKey's 0–7): exact and active, exact, then active (starts
 * with, contains, other word-prefix matches), then the rest in the same three. Each also requires
 * every query word to start a word of the name.
 */
const SCORED_UP_TO = 10_000;
/** Name search pages cached: about 8 KB each at the default limit of 20 (measured), 16 MB in all. */
const NAME_SEARCH_CACHE_ENTRIES = 2_000;
/** Another process's writes retire cached pages at most this long after they become visible. */
const GENERATION_MAX_AGE_MS = 500;
// Boosts that sum in a fixed order for the scored query: exact (1000) outranks active (100), which
// outranks starts-with (10) and contains (5).
const EXACT = 1000;
const ACTIVE = 100;
const STARTS = 10;
const CONTAINS = 5;

/** Order of two sort values: missing last either way; strings by code unit, as keywords sort. */
function compareValues(a: unknown, b: unknown, descending: boolean): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  const order =
    (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;
  return descending ? -order : order;
}

function compareBy(field: string, descending: boolean): (a: SearchDocument, b: SearchDocument) => number {
  return (a, b) =>
    compareValues(a[field as keyof SearchDocument] ?? null, b[field as keyof SearchDocument] ?? null, descending) ||
    (a.company_number < b.company_number ? -1 : a.company_number > b.company_number ? 1 : 0);
}

/** A company's estimated document: a second copy of it, never listed by name (DocumentView). */
const ESTIMATED: estypes.QueryDslQueryContainer = { term: { view: 'estimated' } };

/** Names with every word; a company's estimated document (a second copy of it) never listed by name. */
function nameCandidates(words: readonly string[]): estypes.QueryDslQueryContainer {
  return {
    bool: {
      filter: words.map((word) => ({ prefix: { name_words: word.toLowerCase() } })),
      must_not: [ESTIMATED],
    },
  };
}

/** A name search hit with its tier (NameKey's). */
interface RankedHit {
  tier: number;
  hit: NameSearchHit;
}

function tierSearch(
  query: estypes.QueryDslQueryContainer,
  size: number,
  searchAfter?: readonly [nameLength: number, companyNumber: string],
): estypes.SearchSearchRequestBody {
  return {
    size,
    track_total_hits: false,
    query,
    sort: [{ name_length: { order: 'asc' } }, { company_number: { order: 'asc' } }],
    ...(searchAfter ? { search_after: [...searchAfter] } : {}),
    _source: NAME_HIT_FIELDS,
  };
}

/**
 * The score of each tier in the scored query (the sum of the boosts its names match: an exact
 * name also starts with and contains the phrase, a name starting with it also contains it), by
 * NameKey tier.
 */
const TIER_SCORES = [
  EXACT + ACTIVE + STARTS + CONTAINS,
  EXACT + STARTS + CONTAINS,
  ACTIVE + STARTS + CONTAINS,
  ACTIVE + CONTAINS,
  ACTIVE,
  STARTS + CONTAINS,
  CONTAINS,
  0,
];

function tierOfScore(score: number): number {
  const exact = score >= EXACT;
  const active = score % EXACT >= ACTIVE;
  const shape = score % ACTIVE >= STARTS ? 0 : score % STARTS >= CONTAINS ? 1 : 2;
  return exact ? (active ? 0 : 1) : (active ? 2 : 5) + shape;
}

/** A page of name search: the phrase and its words, how many hits, and after which key. */
interface NameQuery {
  phrase: string;
  words: readonly string[];
  limit: number;
  after?: NameKey | undefined;
}

/** The whole ranking in one query: constant scores order the tiers, then length and number. */
function scoredSearch({ phrase, words, limit, after }: NameQuery): estypes.SearchSearchRequestBody {
  const lower = phrase.toLowerCase();
  return {
    size: limit,
    ...(after ? { search_after: [TIER_SCORES[after[0]]!, after[1], after[2]] } : {}),
    track_total_hits: false,
    query: {
      bool: {
        filter: [nameCandidates(words)],
        should: [
          { constant_score: { filter: { term: { name_normalised: phrase } }, boost: EXACT } },
          { constant_score: { filter: { term: { active: true } }, boost: ACTIVE } },
          { constant_score: { filter: { prefix: { name_prefix: lower } }, boost: STARTS } },
          { constant_score: { filter: containsPhrase(phrase, words), boost: CONTAINS } },
        ],
      },
    },
    sort: [{ _score: { order: 'desc' } }, { name_length: { order: 'asc' } }, { company_number: { order: 'asc' } }],
    _source: NAME_HIT_FIELDS,
  };
}

/** The scored query's hits with their tiers: the score is the first sort value (sorted hits carry no _score). */
function scoredHits(hits: estypes.SearchHit<NameSearchHit>[]): RankedHit[] {
  return hits.map((hit) => ({ tier: tierOfScore(Number(hit.sort![0])), hit: hit._source! }));
}

async function scoredNameSearch(client: Client, index: string, nameQuery: NameQuery): Promise<RankedHit[]> {
  const result = await client.search<NameSearchHit>({ index, ...scoredSearch(nameQuery) });
  return scoredHits(result.hits.hits);
}

function totalOf(total: number | estypes.SearchTotalHits | undefined): number {
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

/** Names that are the phrase (either status), matching its words as every tier does. */
function exactName(phrase: string, words: readonly string[]): estypes.QueryDslQueryContainer {
  return {
    bool: {
      filter: [
        ...words.map((word) => ({ prefix: { name_words: word.toLowerCase() } })),
        { term: { name_normalised: phrase } },
      ],
      must_not: [ESTIMATED],
    },
  };
}

/**
 * Names containing the phrase at the start of a word (the Postgres adapter's `LIKE '% phrase%'`).
 * A phrase of one word is contained by every candidate (some word of the name starts with it).
 * Longer phrases are one prefix term on the name's word-start suffixes; as a phrase query on the
 * words (`match_phrase_prefix`) it cost more than the rest of the search on the full-size index
 * (scoring the 330 candidates of "HAWTHORN HOME CARE": 21.9 ms with it, 6.1 ms without).
 */
function containsPhrase(phrase: string, words: readonly string[]): estypes.QueryDslQueryContainer {
  return words.length === 1 ? { match_all: {} } : { prefix: { name_suffixes: phrase.toLowerCase() } };
}

function nameTiers(phrase: string, words: readonly string[]): estypes.QueryDslQueryContainer[] {
  const lower = phrase.toLowerCase();
  const wordPrefixes = words.map((word) => ({ prefix: { name_words: word.toLowerCase() } }));
  const exact = { term: { name_normalised: phrase } };
  const starts = { prefix: { name_prefix: lower } };
  const contains = containsPhrase(phrase, words);
  const active = { term: { active: true } };
  const tier = (filter: estypes.QueryDslQueryContainer[], mustNot: estypes.QueryDslQueryContainer[] = []) => ({
    bool: { filter: [...wordPrefixes, ...filter], must_not: [ESTIMATED, ...mustNot] },
  });
  const byShape = (status: estypes.QueryDslQueryContainer[], notStatus: estypes.QueryDslQueryContainer[]) => [
    tier([...status, starts], [exact, ...notStatus]),
    tier([...status, contains], [exact, starts, ...notStatus]),
    tier(status, [exact, contains, ...notStatus]),
  ];
  return [tier([exact, active]), tier([exact], [active]), ...byShape([active], []), ...byShape([], [active])];
}
/**
 * Names that may be near matches of the words: each word starts a word of the name or, a word
 * allowed edits, is within them of one (`fuzzy`, AUTO: the edits allowedEdits allows, a swap of
 * two letters one edit), the best scored NEAR_CANDIDATES first. nearMatches decides.
 */
async function nearCandidates(client: Client, index: string, words: readonly string[]): Promise<NameSearchHit[]> {
  const result = await client.search<NameSearchHit>({
    index,
    size: NEAR_CANDIDATES,
    track_total_hits: false,
    query: {
      bool: {
        must: words.map((word) => {
          const prefix = { prefix: { name_words: word.toLowerCase() } };
          if (allowedEdits(word) === 0) return prefix;
          const fuzzy = {
            fuzzy: { name_words: { value: word.toLowerCase(), fuzziness: 'AUTO', transpositions: true } },
          };
          return { bool: { should: [prefix, fuzzy], minimum_should_match: 1 } };
        }),
      },
    },
    sort: [{ _score: { order: 'desc' } }, { name_length: { order: 'asc' } }, { company_number: { order: 'asc' } }],
    _source: NAME_HIT_FIELDS,
  });
  return result.hits.hits.map((hit) => hit._source!);
}

/** Groups whose stats are read at once (each a few requests). */
const GROUP_CONCURRENCY = 4;

interface GroupCandidate {
  key: string | null;
  companies: number;
  /** The group's companies among the matches, as a query (groupKeys in query DSL). */
  query: estypes.QueryDslQueryContainer;
}

/** Keyword fields grouped by their values; the rest of GroupBy are grouped by their own aggregations. */
const GROUP_FIELDS: Partial<Record<GroupBy, string>> = {
  status: 'status',
  type: 'type',
  sic_code: 'sic_prefixes',
  post_town: 'post_town_key',
  size: 'size_band',
};

/** The documents whose `field` is `value`, or has no value when `value` is null. */
function tiedAtValue(field: string, value: unknown): estypes.QueryDslQueryContainer {
  return value === null || value === undefined
    ? { bool: { must_not: [{ exists: { field } }] } }
    : { term: { [field]: value as string | number } };
}

/**
 * The documents of `filter` after `value` in the order (missing values last); null when `value`
 * is missing, as nothing comes after the missing values but their ties.
 */
function beyondValue(
  filter: estypes.QueryDslQueryContainer,
  { field, descending }: SortOrder,
  value: unknown,
): estypes.QueryDslQueryContainer | null {
  if (value === null) return null;
  return {
    bool: {
      filter: [
        filter,
        {
          bool: {
            should: [
              { range: { [field]: { [descending ? 'lt' : 'gt']: value } } },
              { bool: { must_not: [{ exists: { field } }] } },
            ],
            minimum_should_match: 1,
          },
        },
      ],
    },
  };
}

/** What groups the companies and counts each group, for one GroupBy. */
interface GroupPlan {
  /** The keyword field grouped by its values, if any. */
  field: string | undefined;
  /** Groups known beforehand (sections, bands), each a filter. */
  named: { key: string; query: estypes.QueryDslQueryContainer }[];
  /** The companies in no group, or null when every company is in one. */
  nullQuery: estypes.QueryDslQueryContainer | null;
  aggs: Record<string, estypes.AggregationsAggregationContainer>;
}

/**
 * Every group among the companies matching `query` (at most GROUP_LIMIT of them for value
 * groupings, which is all that can be listed) with its number of companies, in one search. On a
 * single shard, as the mapping has, terms counts and their order are exact.
 */
async function groupCounts(
  client: Client,
  index: string,
  { query, groupBy, asOf }: { query: estypes.QueryDslQueryContainer; groupBy: GroupBy; asOf: string },
): Promise<GroupCandidate[]> {
  const plan = groupPlan(groupBy, asOf);
  const result = await client.search({ index, size: 0, track_total_hits: false, query, aggs: plan.aggs });
  return groupCandidates(result.aggregations as Record<string, Record<string, unknown>>, plan);
}

/** Groups known beforehand (sections, bands) are filters; values are terms; years a histogram. */
function groupPlan(groupBy: GroupBy, asOf: string): GroupPlan {
  const exists = (field: string): estypes.QueryDslQueryContainer => ({ exists: { field } });
  const none = (...queries: estypes.QueryDslQueryContainer[]): estypes.QueryDslQueryContainer => ({
    bool: { must_not: queries },
  });
  let named: GroupPlan['named'] = [];
  let nullQuery: estypes.QueryDslQueryContainer | null;
  const aggs: GroupPlan['aggs'] = {};
  const field = GROUP_FIELDS[groupBy];
  if (field !== undefined) {
    const fiveDigits = groupBy === 'sic_code';
    aggs.values = {
      terms: {
        field,
        size: GROUP_LIMIT,
        order: [{ _count: 'desc' }, { _key: 'asc' }],
        ...(fiveDigits ? { include: '[0-9]{5}' } : { exclude: [''] }),
      },
    };
    nullQuery = fiveDigits
      ? none({ regexp: { sic_prefixes: '[0-9]{5}' } })
      : { bool: { should: [none(exists(field)), { term: { [field]: '' } }], minimum_should_match: 1 } };
  } else if (groupBy === 'incorporation_year') {
    aggs.years = {
      date_histogram: { field: 'incorporated', calendar_interval: 'year', format: 'yyyy', min_doc_count: 1 },
    };
    nullQuery = none(exists('incorporated'));
  } else if (groupBy === 'sic_section') {
    named = (Object.keys(SIC_SECTIONS) as SicSection[]).map((section) => ({
      key: section,
      query: { terms: { sic_prefixes: sicSectionDivisions(section) } },
    }));
    nullQuery = none(...named.map((group) => group.query));
  } else {
    named = RISK_BANDS.map((band) => ({
      key: band,
      query: filterQuery(documentConditions({ status: 'any', risk_band: band }, asOf)),
    }));
    nullQuery = null;
  }
  if (named.length > 0)
    aggs.named = { filters: { filters: Object.fromEntries(named.map((group) => [group.key, group.query])) } };
  if (nullQuery !== null) aggs.none = { filter: nullQuery };
  return { field, named, nullQuery, aggs };
}

/** The groups the aggregations of `plan` found, those with no company left out. */
function groupCandidates(found: Record<string, Record<string, unknown>>, plan: GroupPlan): GroupCandidate[] {
  const { field, named, nullQuery } = plan;
  const candidates: GroupCandidate[] = [];
  for (const bucket of (found.values?.buckets as Bucket[] | undefined) ?? [])
    candidates.push({
      key: String(bucket.key),
      companies: bucket.doc_count,
      query: { term: { [field!]: bucket.key } },
    });
  for (const bucket of (found.years?.buckets as Bucket[] | undefined) ?? []) {
    const year = bucket.key_as_string!;
    candidates.push({
      key: year,
      companies: bucket.doc_count,
      query: { range: { incorporated: { gte: `${year}-01-01`, lte: `${year}-12-31` } } },
    });
  }
  const namedCounts = (found.named?.buckets ?? {}) as Record<string, { doc_count: number }>;
  for (const group of named) candidates.push({ ...group, companies: namedCounts[group.key]!.doc_count });
  if (nullQuery !== null)
    candidates.push({ key: null, companies: (found.none as { doc_count: number }).doc_count, query: nullQuery });
  return candidates.filter((group) => group.companies > 0);
}

const GROUPED_FIELDS: readonly (keyof GroupedDocument | keyof StatsDocument)[] = [
  'status',
  'type',
  'sic_prefixes',
  'post_town_key',
  'incorporated',
  'size_band',
  'must_file',
  'accounts_next_due',
  'risk_band',
  'risk_band_if_overdue',
  'balance_sheet_date',
  ...RANGE_FIGURES,
];
const READ_PAGE = 10_000;

/** What grouping and stats read of every company matching `query`, page by page in number order. */
async function readStatsDocuments(
  client: Client,
  index: string,
  query: estypes.QueryDslQueryContainer,
): Promise<(GroupedDocument & StatsDocument)[]> {
  const documents: (GroupedDocument & StatsDocument)[] = [];
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await client.search<GroupedDocument & StatsDocument>({
      index,
      size: READ_PAGE,
      track_total_hits: false,
      query,
      sort: [{ company_number: { order: 'asc' } }],
      _source: [...GROUPED_FIELDS],
      ...(after ? { search_after: after } : {}),
    });
    const hits = page.hits.hits;
    for (const hit of hits) documents.push({ ...NO_VALUES, ...hit._source! });
    if (hits.length < READ_PAGE) return documents;
    after = hits.at(-1)!.sort;
  }
}

/** A field the index leaves out of a document's source (null, an empty array) reads as missing. */
const NO_VALUES: GroupedDocument & StatsDocument = {
  status: '',
  type: '',
  sic_prefixes: [],
  post_town_key: null,
  incorporated: null,
  size_band: null,
  must_file: false,
  accounts_next_due: null,
  risk_band: 'unknown',
  risk_band_if_overdue: 'unknown',
  balance_sheet_date: null,
  net_assets: null,
  cash: null,
  turnover: null,
  employees: null,
  profit: null,
};

/** `work` on every item, at most `limit` at a time; the answers in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      answers[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return answers;
}

function statsAggregations(): Record<string, estypes.AggregationsAggregationContainer> {
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {
    with_accounts: { value_count: { field: 'balance_sheet_date' } },
    negative_net_assets: { filter: { range: { net_assets: { lt: 0 } } } },
    by_status: { terms: { field: 'status', size: BUCKETS } },
    by_type: { terms: { field: 'type', size: BUCKETS } },
    by_year: {
      date_histogram: { field: 'incorporated', calendar_interval: 'year', format: 'yyyy', min_doc_count: 1 },
    },
  };
  for (const figure of RANGE_FIGURES) {
    aggs[`${figure}_count`] = { value_count: { field: figure } };
    aggs[`${figure}_mean`] = { avg: { field: figure } };
    // Estimates (t-digest): the answer over a sample, and where exactPercentiles starts looking.
    aggs[`${figure}_percentiles`] = { percentiles: { field: figure, percents: [...PERCENTILES] } };
  }
  return aggs;
}

/** The aggregation response, typed loosely by the client; its shape follows statsAggregations. */
type Aggregations = Record<string, Record<string, unknown>>;
/** Per figure, its percentiles in the order of PERCENTILES; null without values. */
type Percentiles = Record<RangeFigure, (number | null)[]>;

function estimatedPercentiles(aggs: Aggregations): Percentiles {
  return Object.fromEntries(
    RANGE_FIGURES.map((figure) => {
      const count = aggs[`${figure}_count`]!.value as number;
      const values = aggs[`${figure}_percentiles`]!.values as Record<string, number | null>;
      return [figure, PERCENTILES.map((p) => (count === 0 ? null : (values[p.toFixed(1)] ?? null)))];
    }),
  ) as Percentiles;
}

/**
 * Percentiles as Postgres's percentile_cont gives them, read exactly. Elasticsearch's t-digest
 * `percentiles` are estimates past a few thousand values (p90 of net assets £1,342,657 against
 * £1,246,116, over 3,140 companies), so they only say where to look: the p-th percentile lies at
 * position p × (count − 1) of the sorted values, between the values at the ranks either side,
 * linearly interpolated. One search counts the values below each estimate; then each rank's value
 * is read by a sorted search on its side of the estimate, from the nearer end, usually a few
 * places deep (a deep `from` makes the shard return that many hits, several times slower), never
 * more than half the count: ties at the estimate can leave a rank far from it, which is why the
 * mapping's max_result_window is 20,001 (half of 40,000, plus one). All the reads go in one _msearch.
 */
async function exactPercentiles(
  client: Client,
  index: string,
  query: estypes.QueryDslQueryContainer,
  aggs: Aggregations,
): Promise<Percentiles> {
  const estimates = estimatedPercentiles(aggs);
  const lookups = RANGE_FIGURES.flatMap((figure) => {
    const count = aggs[`${figure}_count`]!.value as number;
    return PERCENTILES.flatMap((p, slot) => {
      const pivot = estimates[figure][slot];
      if (count === 0 || pivot === null || pivot === undefined) return [];
      const position = (p / 100) * (count - 1);
      return [{ figure, slot, count, pivot, lower: Math.floor(position), upper: Math.ceil(position), position }];
    });
  });
  // Every estimate is replaced below: only figures without values keep theirs (null).
  const percentiles = estimates;
  if (lookups.length === 0) return percentiles;
  const counted = await client.search({
    index,
    size: 0,
    track_total_hits: false,
    query,
    aggs: Object.fromEntries(
      lookups.map(({ figure, pivot }, i) => [`below_${i}`, { filter: { range: { [figure]: { lt: pivot } } } }]),
    ),
  });
  const below = lookups.map(
    (_, i) => (counted.aggregations as Record<string, { doc_count: number }>)[`below_${i}`]!.doc_count,
  );
  const reads = lookups.flatMap((lookup, i) =>
    [...new Set([lookup.lower, lookup.upper])].map((rank) => ({
      lookup: i,
      rank,
      body: rankSearch(lookup, below[i]!, rank, query),
    })),
  );
  const answers = await msearchHits<never>(
    client,
    index,
    reads.map(({ body }) => body),
  );
  const value = new Map<string, number>();
  reads.forEach(({ lookup, rank }, i) => {
    const hit = answers[i]!.hits.hits[0];
    // No hit only if the index changed between the searches (a load refreshing it): then the
    // estimate stands for that value.
    value.set(`${lookup}:${rank}`, hit ? (hit.sort![0] as number) : lookups[lookup]!.pivot);
  });
  lookups.forEach(({ figure, slot, lower, upper, position }, i) => {
    const low = value.get(`${i}:${lower}`)!;
    const high = value.get(`${i}:${upper}`)!;
    // Postgres's own interpolation (float8_lerp), so that both adapters give the same double.
    percentiles[figure][slot] = low + (high - low) * (position - lower);
  });
  return percentiles;
}

/**
 * The search for the value at `rank` (from 0, ascending) of a figure's values: among those below
 * the estimate or those at or above it, whichever holds the rank, sorted from that side's nearer end.
 */
function rankSearch(
  { figure, pivot, count }: { figure: string; pivot: number; count: number },
  below: number,
  rank: number,
  query: estypes.QueryDslQueryContainer,
): estypes.SearchSearchRequestBody {
  const [side, size, index] =
    rank < below ? [{ lt: pivot }, below, rank] : [{ gte: pivot }, count - below, rank - below];
  const descending = size - 1 - index < index;
  return {
    from: descending ? size - 1 - index : index,
    size: 1,
    track_total_hits: false,
    query: { bool: { filter: [query, { range: { [figure]: side } }] } },
    sort: [{ [figure]: { order: descending ? 'desc' : 'asc' } }],
    _source: false,
  };
}

interface Bucket {
  key: string | number;
  key_as_string?: string;
  doc_count: number;
}

function marketStats(companies: number, aggs: Aggregations, percentiles: Percentiles): MarketStats {
  const buckets = (name: string) =>
    Object.fromEntries(
      (aggs[name]!.buckets as Bucket[]).map((bucket) => [bucket.key_as_string ?? String(bucket.key), bucket.doc_count]),
    );
  const figures = Object.fromEntries(
    RANGE_FIGURES.map((figure): [string, FigureStats] => {
      const count = aggs[`${figure}_count`]!.value as number;
      const [p10 = null, p25 = null, median = null, p75 = null, p90 = null] = percentiles[figure];
      return [
        figure,
        { count, mean: count === 0 ? null : (aggs[`${figure}_mean`]!.value as number), p10, p25, median, p75, p90 },
      ];
    }),
  ) as MarketStats['figures'];
  const negative = (aggs.negative_net_assets as { doc_count: number }).doc_count;
  return {
    companies,
    with_accounts: aggs.with_accounts!.value as number,
    by_status: buckets('by_status'),
    by_type: buckets('by_type'),
    incorporations_by_year: buckets('by_year'),
    figures,
    negative_net_assets_share: figures.net_assets.count === 0 ? null : negative / figures.net_assets.count,
  };
}

export function readMapping(): IndexMapping & { settings: { max_result_window: number } } {
  return readIndexMapping('companies.json');
}

/**
 * requireAlias: updates go through the alias, and if it is missing (an index never built, or
 * deleted by hand) Elasticsearch must refuse them rather than create an index of that name with
 * default settings and no mapping.
 */
export async function bulkIndex(
  client: Client,
  index: string,
  documents: readonly SearchDocument[],
  { requireAlias = false } = {},
): Promise<void> {
  if (documents.length === 0) return;
  const operations = documents.flatMap((d) => {
    const normalised = normaliseCompanyName(d.name);
    const lower = normalised.toLowerCase();
    return [
      { index: { _index: index, _id: documentKey(d) } },
      {
        ...d,
        name_normalised: normalised,
        name_words: lower,
        name_prefix: lower,
        name_suffixes: wordStartSuffixes(lower),
        name_length: d.name.length,
        active: isActiveStatus(d.status),
      },
    ];
  });
  await bulkWrite(client, operations, { requireAlias });
}
