/**
 * The SearchIndex on Elasticsearch. Reads and writes go through an alias, so a rebuild can write a
 * new index and swap the alias. Ranking uses only core features (no scripts: the distribution the
 * project tests on has no painless): constant-score clauses whose boosts order the tiers, then
 * the name length and the company number.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client, estypes } from '@elastic/elasticsearch';
import { normaliseCompanyName } from '../../domain/company-name.ts';
import { filterConditions, queryConditions } from '../../domain/company-conditions.ts';
import type { FigureStats, MarketStats } from '../../domain/criteria.ts';
import { PERCENTILES, RANGE_FIGURES } from '../../domain/criteria.ts';
import { isActiveStatus, nameQuery } from '../../domain/name-search.ts';
import type { NameSearchHit, SearchDocument, SearchIndex } from '../../ports.ts';
import { filterQuery, sortClauses } from './conditions-query.ts';

const MAPPING_FILE = join(import.meta.dirname, '..', '..', '..', 'index-mappings', 'companies.json');

// Boosts that sum in a fixed order: exact (1000) outranks active (100), which outranks starts-with
// (10) and contains (5); documents matching none still qualify by their word prefixes.
const EXACT = 1000;
const ACTIVE = 100;
const STARTS = 10;
const CONTAINS = 5;

export interface EsSearchOptions {
  client: Client;
  /** The alias searches read; an index named `${alias}_v1` is created behind it when missing. */
  alias: string;
}

/** Create the first index behind the alias if there is none. */
export async function ensureIndex({ client, alias }: EsSearchOptions): Promise<void> {
  if (await client.indices.existsAlias({ name: alias })) return;
  await client.indices.create({ index: `${alias}_v1`, ...readMapping(), aliases: { [alias]: {} } });
}

export function createEsSearchIndex({ client, alias }: EsSearchOptions): SearchIndex {
  return {
    upsertCompanies: (documents) => bulkIndex(client, alias, documents),

    async rebuild(batches) {
      const existing = Object.keys(
        await client.indices.get({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true }),
      );
      const versions = existing.map((name) => Number(/_v(\d+)$/.exec(name)?.[1] ?? 0));
      const next = `${alias}_v${Math.max(0, ...versions) + 1}`;
      const mapping = readMapping();
      // No refreshes and no fsync per bulk request while building: the new index is not searched
      // until the alias moves to it, and a crash mid-build only means building it again.
      await client.indices.create({
        index: next,
        ...mapping,
        settings: { ...mapping.settings, refresh_interval: '-1', 'index.translog.durability': 'async' },
      });
      // A few bulk requests in flight keep Elasticsearch's indexing threads busy while the next
      // batch is read and sent.
      let count = 0;
      const inFlight = new Set<Promise<void>>();
      try {
        for await (const batch of batches) {
          const request: Promise<void> = bulkIndex(client, next, batch).finally(() => inFlight.delete(request));
          inFlight.add(request);
          count += batch.length;
          if (inFlight.size >= BULK_CONCURRENCY) await Promise.race(inFlight);
        }
        await Promise.all(inFlight);
      } catch (error) {
        // Let the other requests end before failing, and leave no half-built index behind.
        await Promise.allSettled(inFlight);
        await client.indices.delete({ index: next, ignore_unavailable: true });
        throw error;
      }
      await client.indices.putSettings({
        index: next,
        settings: { refresh_interval: mapping.settings.refresh_interval, 'index.translog.durability': 'request' },
      });
      await client.indices.refresh({ index: next });
      // One atomic alias update: searches move from the old index to the new one at once.
      await client.indices.updateAliases({
        actions: [...existing.map((index) => ({ remove: { index, alias } })), { add: { index: next, alias } }],
      });
      if (existing.length > 0) await client.indices.delete({ index: existing });
      return count;
    },

    async refresh() {
      await client.indices.refresh({ index: alias });
    },

    async count() {
      const result = await client.count({ index: alias });
      return result.count;
    },

    async findCompanies(query) {
      const result = await client.search<SearchDocument>({
        index: alias,
        size: query.limit,
        track_total_hits: true,
        query: filterQuery(queryConditions(query)),
        sort: sortClauses(query.trigger, query.sort),
        _source: { excludes: ['name_normalised', 'name_words', 'name_length', 'active'] },
      });
      const total = result.hits.total;
      return {
        total: typeof total === 'number' ? total : (total?.value ?? 0),
        documents: result.hits.hits.map((hit) => hit._source!),
      };
    },

    async stats(filters, asOf) {
      const result = await client.search({
        index: alias,
        size: 0,
        track_total_hits: true,
        query: filterQuery(filterConditions(filters, asOf)),
        aggs: statsAggregations(),
      });
      return marketStats(result);
    },

    async searchByName(query, limit) {
      const { phrase, words } = nameQuery(query);
      if (words.length === 0) return [];
      const lower = phrase.toLowerCase();
      const result = await client.search<Record<string, unknown>>({
        index: alias,
        size: limit,
        track_total_hits: false,
        query: {
          bool: {
            must: words.map((word) => ({ prefix: { name_words: word.toLowerCase() } })),
            should: [
              { constant_score: { filter: { term: { name_normalised: phrase } }, boost: EXACT } },
              { constant_score: { filter: { term: { active: true } }, boost: ACTIVE } },
              { constant_score: { filter: { prefix: { name_normalised: phrase } }, boost: STARTS } },
              { constant_score: { filter: { match_phrase_prefix: { name_words: lower } }, boost: CONTAINS } },
            ],
          },
        },
        sort: [{ _score: { order: 'desc' } }, { name_length: { order: 'asc' } }, { company_number: { order: 'asc' } }],
        _source: ['company_number', 'name', 'status', 'type', 'post_town', 'incorporated', 'sic_codes'],
      });
      return result.hits.hits.map((hit) => hit._source as unknown as NameSearchHit);
    },
  };
}

const BUCKETS = 1000;
const BULK_CONCURRENCY = 3;

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
    aggs[`${figure}_stats`] = { stats: { field: figure } };
    aggs[`${figure}_percentiles`] = { percentiles: { field: figure, percents: [...PERCENTILES] } };
  }
  return aggs;
}

interface Bucket {
  key: string | number;
  key_as_string?: string;
  doc_count: number;
}

function marketStats(result: estypes.SearchResponse): MarketStats {
  // The aggregation response is typed loosely by the client; its shape follows statsAggregations.
  const aggs = result.aggregations as unknown as Record<string, Record<string, unknown>>;
  const buckets = (name: string) =>
    Object.fromEntries(
      (aggs[name]!.buckets as Bucket[]).map((bucket) => [bucket.key_as_string ?? String(bucket.key), bucket.doc_count]),
    );
  const figures = Object.fromEntries(
    RANGE_FIGURES.map((figure): [string, FigureStats] => {
      const stats = aggs[`${figure}_stats`] as { count: number; avg: number | null };
      const values = aggs[`${figure}_percentiles`]!.values as Record<string, number | null>;
      const pct = (p: number) => (stats.count === 0 ? null : (values[p.toFixed(1)] ?? null));
      return [
        figure,
        {
          count: stats.count,
          mean: stats.avg,
          p10: pct(10),
          p25: pct(25),
          median: pct(50),
          p75: pct(75),
          p90: pct(90),
        },
      ];
    }),
  ) as MarketStats['figures'];
  const total = result.hits.total;
  const negative = (aggs.negative_net_assets as { doc_count: number }).doc_count;
  return {
    companies: typeof total === 'number' ? total : (total?.value ?? 0),
    with_accounts: aggs.with_accounts!.value as number,
    by_status: buckets('by_status'),
    by_type: buckets('by_type'),
    incorporations_by_year: buckets('by_year'),
    figures,
    negative_net_assets_share: figures.net_assets.count === 0 ? null : negative / figures.net_assets.count,
  };
}

function readMapping(): {
  settings: Record<string, unknown> & { refresh_interval: string };
  mappings: Record<string, unknown>;
} {
  return JSON.parse(readFileSync(MAPPING_FILE, 'utf8'));
}

async function bulkIndex(client: Client, index: string, documents: readonly SearchDocument[]): Promise<void> {
  if (documents.length === 0) return;
  const operations = documents.flatMap((d) => {
    const normalised = normaliseCompanyName(d.name);
    return [
      { index: { _index: index, _id: d.company_number } },
      {
        ...d,
        name_normalised: normalised,
        name_words: normalised.toLowerCase(),
        name_length: d.name.length,
        active: isActiveStatus(d.status),
      },
    ];
  });
  const result = await client.bulk({ operations });
  if (result.errors) {
    const first = result.items.find((item) => item.index?.error)?.index?.error;
    throw new Error(`Elasticsearch refused documents: ${first?.reason ?? 'unknown reason'}`);
  }
}
