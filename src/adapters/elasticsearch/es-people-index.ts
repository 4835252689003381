/**
 * The people index on Elasticsearch: the alias (ELASTICSEARCH_PEOPLE_INDEX, default `people`) in
 * front of `people_vN`, built from index-mappings/people.json. Ranked as the Postgres adapter ranks
 * (people.ts PersonKey) with core features only (no scripts): one filter per tier, each read in the
 * index's own sort order (more current companies, shorter name, person_key), so that each stops
 * after the page however many people match; then the page's documents by id.
 */
import { createHash } from 'node:crypto';
import type { Client, estypes } from '@elastic/elasticsearch';
import { dependencyUnavailable } from '../../errors.ts';
import type { PeopleIndex } from '../../ports/people-index.ts';
import type { PersonDocument, PersonKey } from '../../domain/people.ts';
import { personSearchName } from '../../ownership/people.ts';
import { PEOPLE_TOTAL_COUNTED_UP_TO, PERSON_TIERS } from '../../domain/people.ts';
import { personNameQuery } from '../../ownership/person-name.ts';
import { translateRejections } from '../translate-rejections.ts';
import { isEsUnavailable } from './es-unavailable.ts';
import {
  bulkWrite,
  ensureAliasedIndex,
  mappingOutdated,
  msearchHits,
  readIndexMapping,
  rebuildBehindAlias,
} from './es-versioned-index.ts';

const MAPPING_FILE = 'people.json';

export interface EsPeopleOptions {
  client: Client;
  /** The alias searches read; an index named `${alias}_v1` is created behind it when missing. */
  alias: string;
}

/** Create the first people index behind the alias if there is none (see ensureAliasedIndex). */
export async function ensurePeopleIndex({ client, alias }: EsPeopleOptions): Promise<void> {
  await ensureAliasedIndex(client, alias, readIndexMapping(MAPPING_FILE));
}

/** One tier of the ranking as a query: what its names match, and the better tiers they do not. */
interface TierQuery {
  tier: number;
  must: estypes.QueryDslQueryContainer[];
  not: estypes.QueryDslQueryContainer[];
}

/** The index's sort, which every tier's search uses so that it can stop early. */
const SORT: estypes.Sort = [
  { active_companies: { order: 'desc' } },
  { name_length: { order: 'asc' } },
  { person_key: { order: 'asc' } },
];

export function createEsPeopleIndex({ client, alias }: EsPeopleOptions): PeopleIndex {
  const index: PeopleIndex = {
    upsertPeople: (documents) => writePeople(client, alias, documents, { requireAlias: true }),

    async removePeople(personKeys) {
      // Deleting a person the index never had is no error (the bulk item says not_found).
      await bulkWrite(
        client,
        personKeys.map((key) => ({ delete: { _index: alias, _id: documentId(key) } })),
        { requireAlias: true },
      );
    },

    rebuild: (batches) =>
      rebuildBehindAlias({ client, alias, mapping: readIndexMapping(MAPPING_FILE) }, batches, (target, batch) =>
        writePeople(client, target, batch),
      ),

    async refresh() {
      await client.indices.refresh({ index: alias });
    },

    outdated: () => mappingOutdated(client, alias, readIndexMapping(MAPPING_FILE)),

    async count() {
      return (await client.count({ index: alias })).count;
    },

    async searchPeople(query) {
      const { phrase, words } = personNameQuery(query.name);
      if (words.length === 0) return { total: 0, total_is_lower_bound: false, people: [], next: null };
      const lower = phrase.toLowerCase();
      const filter: estypes.QueryDslQueryContainer[] = words.map((word) => ({
        prefix: { name_words: word.toLowerCase() },
      }));
      if (query.birth_year !== undefined) filter.push({ term: { birth_year: query.birth_year } });
      if (query.birth_month !== undefined) filter.push({ term: { birth_month: query.birth_month } });
      if (query.role === 'psc') filter.push({ term: { roles: 'psc' } });
      if (query.role === 'officer') filter.push({ range: { appointment_count: { gt: 0 } } });
      const exact = { term: { name_normalised: phrase } };
      const starts = { prefix: { name_prefix: lower } };
      const contains = { match_phrase_prefix: { name_words: lower } };
      // A one-word query has no "words" tier: a name whose word starts with it contains it.
      const tierQueries: TierQuery[] = [
        { tier: PERSON_TIERS.exact, must: [exact], not: [] },
        { tier: PERSON_TIERS.starts, must: [starts], not: [exact] },
        { tier: PERSON_TIERS.contains, must: [contains], not: [exact, starts] },
        ...(words.length > 1 ? [{ tier: PERSON_TIERS.words, must: [], not: [contains, exact, starts] }] : []),
      ];
      // One more than asked, to know whether another page follows; from just after the key (its
      // tier, then search_after within it: never an offset).
      const want = query.limit + 1;
      const after = query.after;
      const tiers = tierQueries.filter(({ tier }) => after === undefined || tier >= after[0]);
      const tierSearch = ({ tier, must, not }: TierQuery, size: number): estypes.SearchSearchRequestBody => ({
        size,
        track_total_hits: false,
        query: { bool: { filter: [...filter, ...must], must_not: not } },
        sort: SORT,
        // The page is read by key from the sort values: no stored field (not even _id) is loaded,
        // which would decompress each hit's stored block, _source and all.
        _source: false,
        stored_fields: '_none_',
        ...(after && tier === after[0] ? { search_after: [after[1], after[2], after[3]] } : {}),
      });
      const keysOf = (tier: number, hits: estypes.SearchHit<never>[]) =>
        hits.map((hit): PersonKey => {
          const [current, length, key] = hit.sort as [number, number, string];
          return [tier, Number(current), Number(length), key];
        });
      // The count (up to a bound: an exact count of a common name costs more than the page) and the
      // exact and starts tiers in one request. Each later tier is asked only when those before it
      // leave the page short: "contains" runs match_phrase_prefix on every candidate it rejects, and
      // "words" cannot stop early when few of many candidates are in it. Returning _source with the
      // tier hits instead of the mget below was measured slower: up to three tiers of limit + 1
      // documents fetched for one page (51 searches/s against 81 at 16 connections).
      const countUpTo = query.count_up_to ?? PEOPLE_TOTAL_COUNTED_UP_TO;
      const first = tiers.filter(({ tier }) => tier < PERSON_TIERS.contains);
      const [count, ...pages] = await msearchHits<never>(client, alias, [
        { size: 0, track_total_hits: countUpTo + 1, query: { bool: { filter } } },
        ...first.map((tier) => tierSearch(tier, want)),
      ]);
      const ranked = first.flatMap(({ tier }, i) => keysOf(tier, pages[i]!.hits.hits)).slice(0, want);
      for (const later of tiers.filter(({ tier }) => tier >= PERSON_TIERS.contains)) {
        if (ranked.length >= want) break;
        const [rest] = await msearchHits<never>(client, alias, [tierSearch(later, want - ranked.length)]);
        ranked.push(...keysOf(later.tier, rest!.hits.hits));
      }
      const shown = ranked.slice(0, query.limit);
      const people = await documentsOf(
        client,
        alias,
        shown.map((key) => key[3]),
      );
      const total = count!.hits.total;
      const counted = typeof total === 'number' ? total : (total?.value ?? 0);
      // Counted to one past the bound, as the Postgres adapter does: past it is "at least the bound".
      return {
        total: Math.min(counted, countUpTo),
        total_is_lower_bound: counted > countUpTo,
        people,
        next: ranked.length > query.limit ? shown.at(-1)! : null,
      };
    },
  };
  // Elasticsearch down or too slow is the port's "search unavailable" (a 503), whichever method met it.
  return translateRejections(index, (error) =>
    isEsUnavailable(error) ? dependencyUnavailable('search', error) : error,
  );
}

/** The documents of these people, in this order (one that went meanwhile is left out). */
async function documentsOf(client: Client, alias: string, personKeys: readonly string[]): Promise<PersonDocument[]> {
  if (personKeys.length === 0) return [];
  const result = await client.mget<PersonDocument & Record<string, unknown>>({
    index: alias,
    ids: personKeys.map(documentId),
    _source_excludes: INTERNAL_FIELDS,
  });
  return result.docs.flatMap((doc) => ('found' in doc && doc.found && doc._source ? [doc._source] : []));
}

/** Fields the index keeps for search only; not part of a PersonDocument. */
const INTERNAL_FIELDS = ['name_normalised', 'name_words', 'name_prefix', 'name_length'];

/** The longest _id Elasticsearch takes is 512 bytes: a longer person_key is hashed. */
function documentId(personKey: string): string {
  return Buffer.byteLength(personKey) <= 512 ? personKey : createHash('sha256').update(personKey).digest('hex');
}

async function writePeople(
  client: Client,
  index: string,
  documents: readonly PersonDocument[],
  options: { requireAlias?: boolean } = {},
): Promise<void> {
  await bulkWrite(
    client,
    documents.flatMap((d) => {
      const name = personSearchName(d);
      return [
        { index: { _index: index, _id: documentId(d.person_key) } },
        {
          ...d,
          name_normalised: name.normalised,
          name_words: name.normalised.toLowerCase(),
          name_prefix: name.normalised.toLowerCase(),
          name_length: name.length,
        },
      ];
    }),
    options,
  );
}
