/**
 * How fresh the data is, for the `as_of` every answer carries: read from the load journal and the
 * stream ledger, and kept for a few seconds, so that a busy API does not query them for each
 * request. A load or a stream batch that lands shows within that time.
 */
import type { AsOf } from '../operations/envelope.ts';
import type { LoadJournal } from '../ports/load-journal.ts';
import type { StreamLedger } from '../ports/stream-ledger.ts';

/** How long a reading is kept. */
export const AS_OF_TTL_MS = 5_000;

export interface AsOfSources {
  journal: Pick<LoadJournal, 'loadedThrough'>;
  streams: Pick<StreamLedger, 'newest'>;
}

/**
 * A reader of `as_of` that reads the sources at most once per `ttlMs` of `clock`; callers that ask
 * while a reading is under way share it. A failed reading is not kept: the next call tries again.
 */
export function cachedAsOf(sources: AsOfSources, clock: () => Date, ttlMs = AS_OF_TTL_MS): () => Promise<AsOf> {
  let kept: { at: number; reading: Promise<AsOf> } | null = null;
  return () => {
    const now = clock().getTime();
    // A clock set back (a test's, or the system's after a correction) reads afresh too.
    if (kept && now >= kept.at && now - kept.at < ttlMs) return kept.reading;
    const reading = readAsOf(sources);
    const entry = { at: now, reading };
    kept = entry;
    reading.catch(() => {
      if (kept === entry) kept = null;
    });
    return reading;
  };
}

async function readAsOf({ journal, streams }: AsOfSources): Promise<AsOf> {
  const [register, accounts, psc, stream] = await Promise.all([
    journal.loadedThrough('register'),
    journal.loadedThrough('accounts'),
    journal.loadedThrough('psc'),
    streams.newest(),
  ]);
  return {
    register,
    accounts,
    psc,
    stream: stream ? { name: stream.stream, published_at: stream.publishedAt } : null,
  };
}
