/**
 * A running load's counts, written to its journal entry every few seconds so that the API (a
 * different process) can show how far it is on /metrics. On a timer rather than per batch: the
 * load's own loop pays nothing for it, and the store sees one small update per interval however
 * fast the load goes.
 */
import type { LoadJournal } from '../../src/ports/load-journal.ts';
import type { LoadCounts } from '../../src/domain/loads.ts';

const PROGRESS_INTERVAL_MS = 5000;

export interface JournalProgress {
  /** Stop reporting and wait for a report under way; call before finishLoad. Idempotent. */
  stop(): Promise<void>;
}

export interface JournalProgressOptions {
  /** The journal entry. */
  id: number;
  /** The load's counts so far, read at each report. */
  counts: () => LoadCounts;
  /** Default 5 s. */
  intervalMs?: number | undefined;
}

/** Report `counts()` for journal entry `id` every `intervalMs`, skipping reports that would repeat the last. */
export function reportProgressToJournal(
  store: Pick<LoadJournal, 'reportLoadProgress'>,
  { id, counts, intervalMs = PROGRESS_INTERVAL_MS }: JournalProgressOptions,
): JournalProgress {
  let reported = '';
  let writing: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (writing) return;
    const now = counts();
    const key = `${now.rows_read} ${now.rows_written} ${now.rows_rejected}`;
    if (key === reported) return;
    reported = key;
    // Progress is for watching only (finishLoad writes the final counts), so a failed report is
    // dropped rather than allowed to fail the load; the next interval tries again.
    writing = store
      .reportLoadProgress(id, { ...now })
      .catch(() => {
        reported = '';
      })
      .finally(() => {
        writing = null;
      });
  }, intervalMs);
  // A load that is done must not be kept alive by its reporter.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await writing;
    },
  };
}
