/**
 * The people indexer: brings the people index (persons with significant control by name) up to
 * date with the store, as the search indexer does the companies index. A full build writes a new
 * index beside the live one and switches to it (no downtime): when the index is empty, built from
 * an older mapping, never built, or asked for. Otherwise an update re-indexes the people whose PSC
 * records (or whose companies' register names) changed since the last run, and removes those no
 * record names any more. The store remembers, per index, the time each run started from; runs on
 * one index take turns (the store's lock).
 */
import { formatDuration, startProgress } from '../src/progress/progress.ts';
import type { PeopleBatch, PeopleIndex, PeopleSource } from '../src/ports/people-index.ts';
import type { PersonDocument } from '../src/domain/people.ts';

import type { IndexCursor } from '../src/ports/index-cursor.ts';
import { readAhead } from './index-search.ts';

export interface IndexPeopleOptions {
  /** Rebuild everything even when an update would do. */
  full?: boolean;
  batchSize?: number;
  log?: (line: string) => void;
}

export interface IndexPeopleSummary {
  mode: 'full' | 'update';
  /** People written to the index. */
  people: number;
  /** People removed from it (an update's: nobody is named by their key any more). */
  removed: number;
  seconds: number;
}

const BATCH_SIZE = 2_000;

/** Where the people index's watermark and lock are kept (as for the companies index), and where the people are read. */
export interface PeopleIndexDeps {
  store: Pick<
    IndexCursor,
    'indexWatermark' | 'searchIndexedThrough' | 'recordSearchIndexedThrough' | 'indexingExclusively'
  >;
  source: PeopleSource;
}

/**
 * `store` keeps the index's watermark and lock (as for the companies index), `source` reads the
 * people; `people.target` names the index in the store's record.
 */
export async function indexPeople(
  { store, source }: PeopleIndexDeps,
  people: { index: PeopleIndex; target: string },
  options: IndexPeopleOptions = {},
): Promise<IndexPeopleSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return store.indexingExclusively(
    people.target,
    async () => {
      const batchSize = options.batchSize ?? BATCH_SIZE;
      const startedAt = await store.indexWatermark();
      const through = await store.searchIndexedThrough(people.target);
      const full =
        options.full === true ||
        through === null ||
        (await people.index.count()) === 0 ||
        (await people.index.outdated());
      const progress = startProgress({ label: full ? 'people (full)' : 'people (update)', unit: 'people' });
      let written = 0;
      let removed = 0;
      try {
        if (full) {
          progress.expect(await source.countPeople());
          written = await people.index.rebuild(peopleOf(readAhead(source.peopleForIndex(batchSize)), progress.advance));
        } else {
          for await (const batch of readAhead(source.peopleForIndex(batchSize, through!))) {
            await people.index.upsertPeople(batch.people);
            await people.index.removePeople(batch.gone);
            progress.advance(batch.people.length + batch.gone.length);
            written += batch.people.length;
            removed += batch.gone.length;
          }
          await people.index.refresh();
        }
      } finally {
        progress.stop();
      }
      await store.recordSearchIndexedThrough(people.target, startedAt);
      const summary: IndexPeopleSummary = {
        mode: full ? 'full' : 'update',
        people: written,
        removed,
        seconds: progress.elapsedSeconds,
      };
      log(describePeopleSummary(summary));
      return summary;
    },
    () => log(`people index ${people.target}: another run is indexing it; waiting for it to finish`),
  );
}

function describePeopleSummary(summary: IndexPeopleSummary): string {
  const rate = summary.seconds > 0 ? `, ${Math.round(summary.people / summary.seconds).toLocaleString('en-GB')}/s` : '';
  const removed = summary.removed > 0 ? `, ${summary.removed.toLocaleString('en-GB')} removed` : '';
  return `people index ${summary.mode === 'full' ? 'rebuilt' : 'updated'}: ${summary.people.toLocaleString('en-GB')} people${removed} in ${formatDuration(summary.seconds)}${rate}`;
}

/** The people of each batch, counting every key read (a key that names nobody is read too). */
async function* peopleOf(
  batches: AsyncIterable<PeopleBatch>,
  advance: (count: number) => void,
): AsyncGenerator<PersonDocument[]> {
  for await (const batch of batches) {
    yield batch.people;
    advance(batch.people.length + batch.gone.length);
  }
}
