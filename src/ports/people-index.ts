/**
 * The people index: persons with significant control by name, one document per person (the
 * records sharing a person_key), with the companies they control; built and updated by the indexer
 * from the store (PeopleSource), like the companies index. Adapters:
 * src/adapters/elasticsearch/es-people-index.ts and src/adapters/pg-search/pg-people-index.ts;
 * src/adapters/postgres/people-source.ts.
 */
import type { PeoplePage, PeopleQuery, PersonDocument } from '../domain/people.ts';

export interface PeopleIndex {
  /** Insert or replace these people (by person_key). */
  upsertPeople(documents: readonly PersonDocument[]): Promise<void>;
  /** Remove people no record names any more. */
  removePeople(personKeys: readonly string[]): Promise<void>;
  refresh(): Promise<void>;
  count(): Promise<number>;
  /** Replace the whole index without downtime; returns how many were indexed. */
  rebuild(batches: AsyncIterable<readonly PersonDocument[]>): Promise<number>;
  /** Built from an older mapping than this code's: the indexer rebuilds it in full. */
  outdated(): Promise<boolean>;
  searchPeople(query: PeopleQuery): Promise<PeoplePage>;
}

/** A batch of the people indexer's reading: the people to (re)index, and those nobody names now. */
export interface PeopleBatch {
  people: PersonDocument[];
  /** person_keys read whose records no longer name a person: to remove from the index. */
  gone: string[];
}

/** Where the people indexer reads people from: the PSC records grouped by person_key. */
export interface PeopleSource {
  /**
   * Every person (or, with `changedSince`, those whose records, or the register names of whose
   * companies, changed after that time: a `now()` of the store), about `batchSize` people a batch,
   * in person_key order.
   */
  peopleForIndex(batchSize: number, changedSince?: string): AsyncGenerator<PeopleBatch>;
  /** How many person_keys the records name (the size of a full build, for its progress). */
  countPeople(): Promise<number>;
}
