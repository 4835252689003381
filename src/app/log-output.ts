/**
 * The service's log lines on stdout and stderr, written so that a reader who goes away or falls
 * behind never stops the service. A pipe whose reader has gone (`npm start | tee run.log` after
 * Ctrl-C, a log driver restarting) fails its writes with EPIPE: from then on, lines are dropped.
 * A reader that stops reading leaves writes waiting: past a bound, lines are dropped rather than
 * held. Closing waits for what is written to go out, for a bounded time only. pino's own
 * asynchronous destination is not used for this: at exit it writes what it holds synchronously,
 * retrying for as long as the write fails, so a broken or full pipe held the process forever.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LogOutput {
  /** Writes `text` (whole lines), or drops it when the reader is gone or too far behind. */
  write(text: string): void;
  /** Sends what is held and waits, at most `withinMs`, for the reader to take it; later lines are dropped. */
  close(withinMs: number): Promise<void>;
  /** Lines dropped so far. */
  readonly dropped: number;
}

/**
 * `stream` as a log output: lines gathered up to `batchBytes` (0: each written at once) and
 * written on the next turn of the event loop; at most `maxWaitingBytes` waiting for the reader.
 */
export function logOutput(
  stream: NodeJS.WritableStream & { writableLength: number },
  { batchBytes = 0, maxWaitingBytes = 1 << 20 }: { batchBytes?: number; maxWaitingBytes?: number } = {},
): LogOutput {
  let held = '';
  let scheduled = false;
  let broken = false;
  let closed = false;
  let dropped = 0;
  stream.on('error', () => {
    broken = true;
    held = '';
  });
  const flush = () => {
    scheduled = false;
    if (broken || held === '') return;
    const chunk = held;
    held = '';
    try {
      stream.write(chunk);
    } catch {
      broken = true;
    }
  };
  return {
    write(text) {
      if (broken || closed || stream.writableLength + held.length > maxWaitingBytes) {
        dropped++;
        return;
      }
      held += text;
      if (held.length >= batchBytes) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    async close(withinMs) {
      flush();
      closed = true;
      if (broken || stream.writableLength === 0) return;
      const timeout = new AbortController();
      await Promise.race([
        once(stream, 'drain', { signal: timeout.signal }),
        once(stream, 'error', { signal: timeout.signal }),
        sleep(withinMs, undefined, { signal: timeout.signal }),
      ]).catch(() => {});
      timeout.abort();
    },
    get dropped() {
      return dropped;
    },
  };
}
