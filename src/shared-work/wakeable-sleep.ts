/**
 * The sleep of a worker loop that a wake cuts short. A wake while the loop is busy makes its next
 * sleep return at once, so no wake is lost between a look for work and the sleep after it; an
 * abort of the loop's signal ends a sleep too.
 */
export interface WakeableSleep {
  /** Sleep `ms`, or less: until a wake, or the abort of the signal. */
  sleep(ms: number): Promise<void>;
  wake(): void;
  /** Forget the wakes so far: called as a look for work begins. */
  settle(): void;
}

export function wakeableSleep(signal: AbortSignal, woken = false): WakeableSleep {
  let wakeUp: (() => void) | null = null;
  signal.addEventListener('abort', () => wakeUp?.(), { once: true });
  return {
    sleep: (ms) =>
      new Promise<void>((done) => {
        if (woken || signal.aborted) return done();
        const timer = setTimeout(finish, ms);
        function finish() {
          clearTimeout(timer);
          wakeUp = null;
          done();
        }
        wakeUp = finish;
      }),
    wake() {
      woken = true;
      wakeUp?.();
    },
    settle() {
      woken = false;
    },
  };
}
