/**
 * Bringing the search indexes up to date after stream events: woken by every batch applied, it
 * runs the update at most once every `intervalMs`, never two at once, and never in the way of the
 * batches (they only wake it). The update itself is incremental from the store's watermark, so a
 * run picks up every change applied before it started, whichever batch woke it; a change applied
 * while it runs wakes the next one. A failed run (Elasticsearch down) is said in the log and
 * tried again at the next tick; the follower goes on.
 */

/** Where the ticker stands: when it last finished an update, and since when changes wait for one. */
export interface IndexTickerState {
  /** When the last update that succeeded finished (ms since the epoch), null before the first. */
  updatedAt: number | null;
  /** When the oldest change not yet covered by a successful update was applied, null when none waits. */
  pendingSince: number | null;
}

export interface IndexTickerOptions {
  /** Both indexes brought up to date from the store (companies, then people). */
  update: () => Promise<void>;
  /** At most one run started per this long. */
  intervalMs: number;
  log: (line: string) => void;
  /** Told each time the state changes (the /metrics gauges). */
  onState?: (state: IndexTickerState) => void;
  /** Told each time a run fails. */
  onFailure?: () => void;
}

export interface IndexTicker {
  /** Changes were applied: an update follows within intervalMs. */
  wake(): void;
  /** No more ticks; resolves when the run under way has ended and, if changes wait, a last one. */
  stop(): Promise<void>;
}

export function startIndexTicker(options: IndexTickerOptions): IndexTicker {
  const { intervalMs, log } = options;
  const state: IndexTickerState = { updatedAt: null, pendingSince: null };
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const tell = () => options.onState?.({ ...state });

  const schedule = () => {
    if (stopped || timer || running || state.pendingSince === null) return;
    timer = setTimeout(
      () => {
        timer = null;
        running = run().finally(() => {
          running = null;
          schedule();
        });
      },
      Math.max(0, lastStart + intervalMs - Date.now()),
    );
  };

  const run = async () => {
    lastStart = Date.now();
    // What was applied before now is read by this run; what is applied from now on waits for the next.
    const covered = state.pendingSince;
    state.pendingSince = null;
    try {
      await options.update();
      state.updatedAt = Date.now();
    } catch (error) {
      // The changes this run was to cover still wait: the next tick tries them again.
      if (covered !== null) state.pendingSince = Math.min(covered, state.pendingSince ?? covered);
      options.onFailure?.();
      log(
        `streams: search indexes not brought up to date (${error instanceof Error ? error.message : String(error)}); tried again in ${Math.round(intervalMs / 1000)} s`,
      );
    }
    tell();
  };

  return {
    wake() {
      if (stopped) return;
      if (state.pendingSince === null) {
        state.pendingSince = Date.now();
        tell();
      }
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      // A follower stopped (SIGTERM) leaves the indexes with what it applied, not waiting for
      // whichever process next wakes an update.
      if (state.pendingSince !== null) await run();
    },
  };
}
