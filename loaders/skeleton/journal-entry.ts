/**
 * The load journal around one load (or one file of it): started with what it reads, its counts
 * reported every few seconds while it runs (journal-progress.ts), and finished done, failed or
 * interrupted with its final counts and what it found.
 */
import type { LoadJournal } from '../../src/ports/load-journal.ts';
import type { LoadCounts, LoadKind } from '../../src/domain/loads.ts';
import { reportProgressToJournal } from './journal-progress.ts';

/** The journal's part of the store. */
export type JournalWrites = Pick<LoadJournal, 'startLoad' | 'finishLoad' | 'reportLoadProgress'>;

export interface JournalEntry {
  readonly id: number;
  /** Stops the progress reports (waiting for one under way). Idempotent; finish calls it. */
  stopReporting(): Promise<void>;
  /** Records the load's end with its counts as they are now. */
  finish(status: 'done' | 'failed' | 'interrupted', detail: Record<string, unknown>): Promise<void>;
}

export interface JournalEntryOptions {
  kind: LoadKind;
  /** What the load reads, as the journal names it. */
  source: string;
  detail: Record<string, unknown>;
  /** The load's counts so far, read at each report and at the end. */
  counts: () => LoadCounts;
  /** How often the counts are reported (default 5 s). */
  progressIntervalMs?: number | undefined;
}

export async function startJournalEntry(journal: JournalWrites, options: JournalEntryOptions): Promise<JournalEntry> {
  const id = await journal.startLoad(options.kind, options.source, options.detail);
  const progress = reportProgressToJournal(journal, {
    id,
    counts: options.counts,
    intervalMs: options.progressIntervalMs,
  });
  return {
    id,
    stopReporting: () => progress.stop(),
    async finish(status, detail) {
      await progress.stop();
      await journal.finishLoad(id, status, options.counts(), detail);
    },
  };
}

/** The journal's detail of a load that failed: what it had, and the error. */
export function failureDetail(error: unknown, detail: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...detail, error: error instanceof Error ? error.message : String(error) };
}
