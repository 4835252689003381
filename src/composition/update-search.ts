/**
 * Bringing the search indexes (companies, then people) up to date from the store, with the ports
 * the composition root opened: what `ukcd start`, `ukcd load`, `ukcd sync` and `ukcd index` do
 * after their work. The indexers themselves (loaders/index-search.ts, loaders/index-people.ts)
 * are handed these ports.
 */
import { indexPeople } from '../../loaders/index-people.ts';
import type { IndexPeopleOptions, IndexPeopleSummary } from '../../loaders/index-people.ts';
import { indexSearch } from '../../loaders/index-search.ts';
import { openSearch } from './open-search.ts';
import type { OpenedSearch } from './open-search.ts';
import type { OpenedStore } from './open-store.ts';

/** The ports an index update reads from: the store (watermarks, locks, companies) and the people. */
export type IndexedStore = Pick<OpenedStore, 'store' | 'peopleSource'>;

/** The people index of an opened search brought up to date from the store. */
export function indexPeopleOf(
  opened: IndexedStore,
  search: Pick<OpenedSearch, 'people' | 'peopleTarget'>,
  options: IndexPeopleOptions = {},
): Promise<IndexPeopleSummary> {
  return indexPeople(
    { store: opened.store, source: opened.peopleSource },
    { index: search.people, target: search.peopleTarget },
    options,
  );
}

/** Both indexes of an opened search brought up to date (or rebuilt, `full`), companies first. */
export async function updateIndexes(
  opened: IndexedStore,
  search: OpenedSearch,
  options: { full?: boolean; log: (line: string) => void },
): Promise<void> {
  await indexSearch(opened.store, search, options);
  await indexPeopleOf(opened, search, options);
}

/**
 * What a load changed, into the search index the configuration names (opened for it, then closed):
 * what `ukcd load` and `ukcd sync` do unless given --no-index.
 */
export async function updateSearchAfterLoad(
  config: Parameters<typeof openSearch>[0],
  opened: IndexedStore & Pick<OpenedStore, 'sql'>,
  log: (line: string) => void,
): Promise<void> {
  const search = await openSearch(config, opened.sql);
  try {
    await updateIndexes(opened, search, { log });
  } finally {
    await search.close();
  }
}
