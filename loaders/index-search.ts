/**
 * The search indexer: brings a search index up to date with the store. A full build writes a new
 * index beside the live one and switches to it (no downtime); an update re-indexes only the
 * companies a register or accounts load touched since the last run, which the store finds by
 * their update times. The store remembers, per index, the time each run started from.
 *
 * A run may overlap writers (loads, the stream follower): what they commit after it read is left
 * for the next run, which reads from before the oldest transaction still open when this one began
 * (`indexWatermark`). Runs on one index take turns (the store's lock): one that waited finds the
 * index built and only updates it.
 */
import { formatDuration, startProgress } from '../src/progress/progress.ts';
import { searchDocuments } from '../src/domain/search-document.ts';
import type { IndexSource, SearchDocument } from '../src/domain/search-document.ts';
import type { CompanyReader } from '../src/ports/companies.ts';
import type { IndexCursor } from '../src/ports/index-cursor.ts';
import type { SearchIndex } from '../src/ports/search-index.ts';

export interface IndexSearchOptions {
  /** Rebuild everything even when an update would do. */
  full?: boolean;
  batchSize?: number;
  log?: (line: string) => void;
}

export interface IndexSearchSummary {
  mode: 'full' | 'update';
  /** Companies indexed: a company's estimated document (searchDocuments) is not counted again. */
  documents: number;
  seconds: number;
}

const BATCH_SIZE = 2_000;

export async function indexSearch(
  store: IndexCursor & Pick<CompanyReader, 'counts'>,
  search: { index: SearchIndex; target: string },
  options: IndexSearchOptions = {},
): Promise<IndexSearchSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return store.indexingExclusively(
    search.target,
    () => indexWhileHoldingLock(store, search, { ...options, log }),
    () => log(`search index ${search.target}: another run is indexing it; waiting for it to finish`),
  );
}

async function indexWhileHoldingLock(
  store: IndexCursor & Pick<CompanyReader, 'counts'>,
  search: { index: SearchIndex; target: string },
  options: IndexSearchOptions & { log: (line: string) => void },
): Promise<IndexSearchSummary> {
  const { log } = options;
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const startedAt = await store.indexWatermark();
  const through = await store.searchIndexedThrough(search.target);
  const full =
    options.full === true || through === null || (await search.index.count()) === 0 || (await search.index.outdated());
  const progress = startProgress({ label: full ? 'index (full)' : 'index (update)', unit: 'companies' });
  let documents = 0;
  try {
    if (full) {
      progress.expect((await store.counts()).companies);
      await search.index.rebuild(
        counted(readAhead(toDocuments(store.companiesForIndex(batchSize))), (count) => {
          progress.advance(count);
          documents += count;
        }),
      );
    } else {
      for await (const batch of readAhead(toDocuments(store.companiesForIndex(batchSize, through!)))) {
        await search.index.upsertCompanies(batch);
        progress.advance(companiesIn(batch));
        documents += companiesIn(batch);
      }
      await search.index.refresh();
    }
  } finally {
    progress.stop();
  }
  await store.recordSearchIndexedThrough(search.target, startedAt);
  const summary: IndexSearchSummary = { mode: full ? 'full' : 'update', documents, seconds: progress.elapsedSeconds };
  log(describeIndexSummary(summary));
  return summary;
}

function describeIndexSummary(summary: IndexSearchSummary): string {
  const rate =
    summary.seconds > 0 ? `, ${Math.round(summary.documents / summary.seconds).toLocaleString('en-GB')}/s` : '';
  return `search index ${summary.mode === 'full' ? 'rebuilt' : 'updated'}: ${summary.documents.toLocaleString('en-GB')} companies in ${formatDuration(summary.seconds)}${rate}`;
}

export async function* toDocuments(batches: AsyncIterable<IndexSource[]>): AsyncGenerator<SearchDocument[]> {
  for await (const batch of batches) yield batch.flatMap(searchDocuments);
}

/** The companies a batch of documents is of: a company's estimated document is a second one of it. */
function companiesIn(batch: readonly SearchDocument[]): number {
  return batch.filter((document) => document.view !== 'estimated').length;
}

async function* counted(
  batches: AsyncIterable<SearchDocument[]>,
  advance: (companies: number) => void,
): AsyncGenerator<SearchDocument[]> {
  for await (const batch of batches) {
    yield batch;
    advance(companiesIn(batch));
  }
}

/** Reads the next batch from the store while the current one is being indexed. */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = iterator.next();
      // An error in the batch read ahead surfaces when it is awaited, not as an unhandled rejection.
      next.catch(() => {});
      yield current.value;
    }
  } finally {
    await iterator.return?.();
  }
}
