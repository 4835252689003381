/**
 * A loader's writes, one batch behind its reading: a batch is written while the next is read and
 * parsed, and never more than one write is in flight.
 */
export interface WriteBehind {
  /** Waits for the write before (throwing its failure), then starts this one. */
  start(write: () => Promise<void>): Promise<void>;
  /** Waits for the last write, throwing its failure. */
  finish(): Promise<void>;
  /** Waits for the last write, ignoring its failure: for a load that is failing anyway. */
  settle(): Promise<void>;
}

export function writeBehind(): WriteBehind {
  let writing: Promise<void> = Promise.resolve();
  return {
    async start(write) {
      await writing;
      const started = write();
      // Its failure is thrown by the next start or by finish; until then it must not count as
      // "unhandled" (which ends the process) while the loader waits for its reader or workers.
      started.catch(() => undefined);
      writing = started;
    },
    finish: () => writing,
    settle: () => writing.catch(() => undefined),
  };
}
