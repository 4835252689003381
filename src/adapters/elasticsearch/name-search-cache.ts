/**
 * Name search pages kept in memory, in front of Elasticsearch. As-you-type front ends ask the same
 * few thousand prefixes over and over ("the", "tes", "tesc"), and the ones that cost Elasticsearch
 * most — a short prefix matching hundreds of thousands of names — are the ones asked most. A page
 * is kept under the index's generation (index-generation.ts), so a write to the index, from any
 * process, retires every page computed before it; the least recently used pages go first past
 * `entries`. Identical searches in flight at once share one: the second waits for the first's answer.
 */
import { LRUCache } from 'lru-cache';
import type { NameKey, NamePage } from '../../domain/name-search.ts';
import type { IndexGeneration } from './index-generation.ts';

export interface NameSearchCache {
  /** The page of `phrase` (normalised) from `after`, from the cache or from `search`. */
  page(
    request: { phrase: string; limit: number; after: NameKey | undefined },
    search: () => Promise<NamePage>,
  ): Promise<NamePage>;
}

export function createNameSearchCache(generation: IndexGeneration, entries: number): NameSearchCache {
  if (entries <= 0) return { page: (_request, search) => search() };
  const pages = new LRUCache<string, Promise<NamePage>>({ max: entries });
  return {
    async page({ phrase, limit, after }, search) {
      const key = JSON.stringify([await generation.current(), phrase, limit, after ?? null]);
      let found = pages.get(key);
      if (!found) {
        found = search();
        pages.set(key, found);
        // A failed search is not kept: the next caller asks Elasticsearch again.
        found.catch(() => {
          if (pages.peek(key) === found) pages.delete(key);
        });
      }
      const page = await found;
      // Each caller gets its own page and hit list, so none can change another's.
      return { ...page, hits: [...page.hits], near: [...page.near] };
    },
  };
}
