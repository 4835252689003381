/**
 * Progress for long jobs: a live bar with rate and ETA on a terminal (cli-progress), and a plain
 * line every few seconds elsewhere (CI logs, pipes), so a job is never silent for long.
 */
import { SingleBar } from 'cli-progress';

export interface Progress {
  /** More items became known. */
  expect(count: number): void;
  /** The total is an estimate that changed (rows of a CSV, from the bytes read so far). */
  setExpected(total: number): void;
  /** Items finished. */
  advance(count?: number): void;
  stop(): void;
  readonly done: number;
  readonly elapsedSeconds: number;
}

export interface ProgressOptions {
  label: string;
  unit: string;
  stream?: NodeJS.WriteStream;
  /** Seconds between plain lines when not on a terminal. */
  plainEverySeconds?: number;
}

export function startProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const started = Date.now();
  let total = 0;
  let done = 0;
  const elapsed = () => (Date.now() - started) / 1000;
  const rate = () => done / Math.max(elapsed(), 1e-3);

  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      format: `${options.label} [{bar}] {value}/{total} ${options.unit} | {rate}/s | ETA {eta_formatted}`,
      etaBuffer: 50,
      fps: 5,
      hideCursor: true,
    });
    bar.start(0, 0, { rate: '0' });
    return {
      expect(count) {
        total += count;
        bar.setTotal(total);
      },
      setExpected(count) {
        total = count;
        bar.setTotal(total);
      },
      advance(count = 1) {
        done += count;
        bar.update(done, { rate: rate().toFixed(0) });
      },
      stop: () => bar.stop(),
      get done() {
        return done;
      },
      get elapsedSeconds() {
        return elapsed();
      },
    };
  }

  const every = (options.plainEverySeconds ?? 10) * 1000;
  let last = started;
  return {
    expect(count) {
      total += count;
    },
    setExpected(count) {
      total = count;
    },
    advance(count = 1) {
      done += count;
      const now = Date.now();
      if (now - last < every) return;
      last = now;
      const eta = total > done && rate() > 0 ? `, ETA ${formatDuration((total - done) / rate())}` : '';
      stream.write(`${options.label}: ${done}/${total || '?'} ${options.unit}, ${rate().toFixed(0)}/s${eta}\n`);
    },
    stop: () => undefined,
    get done() {
      return done;
    },
    get elapsedSeconds() {
      return elapsed();
    },
  };
}

export function formatDuration(seconds: number): string {
  if (seconds < 59.95) return `${seconds.toFixed(1)}s`;
  // Whole seconds first, so that 839.9 s reads 14m0s, never 13m60s.
  const whole = Math.round(seconds);
  const m = Math.floor(whole / 60);
  if (m < 60) return `${m}m${whole % 60}s`;
  return `${Math.floor(m / 60)}h${m % 60}m`;
}
