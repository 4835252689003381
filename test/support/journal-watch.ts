/**
 * Watches the load journal while a load runs, as the API's /metrics does from its own process:
 * every few milliseconds, the running loads of one kind as the store reports them.
 */
import type { LoadJournal } from '../../src/ports/load-journal.ts';
import type { LoadKind, RunningLoad } from '../../src/domain/loads.ts';

export interface JournalWatch {
  /** Stop watching; the running loads seen, in the order seen. */
  stop(): Promise<RunningLoad[]>;
}

export function watchJournal(store: LoadJournal, kind: LoadKind, everyMs = 5): JournalWatch {
  const seen: RunningLoad[] = [];
  let stopped = false;
  const watching = (async () => {
    while (!stopped) {
      const { running } = await store.loadProgress();
      seen.push(...running.filter((load) => load.kind === kind));
      await new Promise((wake) => setTimeout(wake, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await watching;
      return seen;
    },
  };
}
