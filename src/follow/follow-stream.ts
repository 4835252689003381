/**
 * Following one stream of the Companies House Streaming API: hold the stream's lease, connect from
 * the last applied timepoint, apply each run of events as one batch in one transaction with the
 * new position (StreamLedger.applyBatch), and hand the companies changed to what runs after a
 * batch (alert detection, which runs beside the next batch's applying). A line that is not an
 * event is recorded and skipped. A drop, a stall (nothing, not even a heartbeat, within
 * `stallMs`), a 429 or any other failure is followed by a reconnection after a backoff with
 * jitter; a 416 (the timepoint is too old) restarts the stream from now and records the gap. The position is only ever the last event applied, so whatever happens between applying
 * and the next connection, the stream resumes after it; an event read twice changes nothing twice
 * (the appliers compare the event's own dates and timepoint with what is stored).
 */
import { createHash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { holdLease } from '../shared-work/hold-lease.ts';
import type { IndexTickerState } from './index-ticker.ts';
import type { Lease } from '../ports/shared-work.ts';
import type { StreamApplier, StreamEvent } from '../ports/stream-appliers.ts';
import type { StreamLedger } from '../ports/stream-ledger.ts';
import { badLineTimepoint, LineSplitter, parseEventLine, StreamLineError } from './stream-lines.ts';

/** A GET that resolves with the answer's head (src/net/http-get.ts). */
export type StreamGet = (
  url: string,
  options: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer | string> & { destroy(error?: Error): void };
}>;

/** What a follower reports as it goes (the service's /metrics). */
export interface FollowObserver {
  applied?(stream: string, batch: { events: number; timepoint: number; publishedAt: string }): void;
  reconnected?(stream: string, reason: string): void;
  gap?(stream: string): void;
  /** A line that is not an event was skipped. */
  badLine?(stream: string): void;
  /** What became of an accounts document of the filings stream. */
  document?(outcome: string): void;
  /** Where bringing the search indexes up to date after the changes stands (index-ticker.ts). */
  indexState?(state: IndexTickerState): void;
  /** A run bringing the search indexes up to date failed (it is tried again at the next tick). */
  indexFailed?(): void;
}

export interface FollowStreamOptions {
  /** The Streaming API's root (CH_STREAM_URL). */
  baseUrl: string;
  /** The stream key (CH_STREAM_KEY): HTTP Basic user, empty password. */
  key: string;
  get: StreamGet;
  /** No byte (event or heartbeat) within this long: the connection is dropped and made again. */
  stallMs: number;
  /** This process's lease on the stream (holder, seconds). */
  lease: Lease;
  signal: AbortSignal;
  log: (line: string) => void;
  /** Run after each batch applied, with the companies it changed (alert detection). */
  afterBatch?: (companies: string[]) => Promise<void>;
  observer?: FollowObserver;
  /** The first reconnection's delay, doubled each failure up to maxBackoffMs; each with jitter. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Events applied in one transaction at most (default 1,000). */
  batchEvents?: number;
}

/** Why a connection was dropped by us (a stall) rather than by the server. */
class StallError extends Error {
  override readonly name = 'StallError';
}

/** The lease of the stream went to another process: this one stops applying it. */
class LeaseGoneError extends Error {
  override readonly name = 'LeaseGoneError';
}

/** Follow the stream of `applier` until `signal` aborts; resolves then, having given up its lease. */
export async function followStream(
  ledger: StreamLedger,
  applier: StreamApplier,
  options: FollowStreamOptions,
): Promise<void> {
  const { stream } = applier;
  const { lease, signal, log } = options;
  const detector = new Detector(options.afterBatch, (error) =>
    log(`stream ${stream}: alert detection after a batch failed: ${(error as Error).message}`),
  );
  let waitingSaid = false;
  while (!signal.aborted) {
    if (!(await ledger.claim(stream, lease))) {
      if (!waitingSaid) log(`stream ${stream}: followed by another process; taking over if its lease runs out`);
      waitingSaid = true;
      await sleep(Math.max(100, (lease.seconds * 1000) / 3), signal);
      continue;
    }
    waitingSaid = false;
    log(`stream ${stream}: following (lease ${lease.holder})`);
    const held = holdLease(() => ledger.renew(stream, lease), lease.seconds);
    try {
      await followHeld(ledger, applier, options, detector, () => held.lost());
    } catch (error) {
      if (!(error instanceof LeaseGoneError)) throw error;
      log(`stream ${stream}: its lease went to another process; no longer applying it here`);
    } finally {
      await held.stop();
    }
  }
  await detector.idle();
  await ledger.release(stream, lease.holder).catch(() => undefined);
}

/** Connect, read and apply, reconnecting after every failure, while the lease is held. */
async function followHeld(
  ledger: StreamLedger,
  applier: StreamApplier,
  options: FollowStreamOptions,
  detector: Detector,
  leaseLost: () => boolean,
): Promise<void> {
  const { stream } = applier;
  const { signal, log } = options;
  let failures = 0;
  while (!signal.aborted) {
    if (leaseLost()) throw new LeaseGoneError(stream);
    const outcome = await connectOnce(ledger, applier, options, detector);
    if (signal.aborted) return;
    if (outcome.kind === 'gap') {
      if (!(await ledger.restartFromNow(stream, options.lease.holder, outcome.reason)))
        throw new LeaseGoneError(stream);
      log(
        `stream ${stream}: ${outcome.reason}; reading it from now. The events after the last one applied are ` +
          `missing until a REST catch-up of the watched companies (with CH_API_KEY) or the next snapshot load fills the gap`,
      );
      options.observer?.gap?.(stream);
      failures = 0;
      continue;
    }
    failures = outcome.applied > 0 ? 0 : failures + 1;
    const delay = outcome.retryAfterMs ?? backoff(failures, options);
    log(`stream ${stream}: ${outcome.reason}; reconnecting in ${Math.round(delay)} ms`);
    options.observer?.reconnected?.(stream, outcome.kind);
    await sleep(delay, signal);
  }
}

type Outcome =
  | { kind: 'gap'; reason: string }
  | {
      kind: 'drop' | 'stall' | 'refused' | 'rate-limited';
      reason: string;
      applied: number;
      retryAfterMs?: number;
    };

/**
 * One connection: from the stored position until it ends, fails or stalls. Reading and applying
 * overlap: the lines read while a batch is being applied wait in `pump` and make the next batch,
 * so under load batches grow (up to batchEvents) instead of being one network chunk each.
 */
async function connectOnce(
  ledger: StreamLedger,
  applier: StreamApplier,
  options: FollowStreamOptions,
  detector: Detector,
): Promise<Outcome> {
  const { stream } = applier;
  const position = await ledger.position(stream);
  const url = new URL(stream, options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  if (position.timepoint !== null) url.searchParams.set('timepoint', String(position.timepoint));
  const connection = new AbortController();
  const stop = () => connection.abort(options.signal.reason);
  options.signal.addEventListener('abort', stop, { once: true });
  const size = options.batchEvents ?? 1_000;
  // A batch that fails ends the connection at once (the reader may be waiting for bytes).
  const pump = new BatchPump(
    (batch) => applyBatch(ledger, applier, batch, options, detector),
    size,
    (error) => connection.abort(error),
  );
  const lines = new LineSplitter();
  let stallTimer: NodeJS.Timeout | undefined;
  const watchStall = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(
      () => connection.abort(new StallError(`nothing received for ${options.stallMs} ms`)),
      options.stallMs,
    );
  };
  try {
    watchStall();
    const answer = await options.get(url.href, {
      headers: { authorization: `Basic ${Buffer.from(`${options.key}:`).toString('base64')}` },
      signal: connection.signal,
    });
    if (answer.status !== 200) {
      answer.body.destroy();
      return refusal(answer.status, answer.headers['retry-after'], position.timepoint);
    }
    // The server replays from the timepoint asked for, that event included: it is applied already.
    let skipResumed = position.timepoint;
    for await (const chunk of answer.body) {
      clearTimeout(stallTimer);
      const events: StreamEvent[] = [];
      for (const line of lines.push(chunk.toString())) {
        if (line.trim() === '') continue;
        let event: StreamEvent;
        try {
          event = parseEventLine(line);
        } catch (error) {
          if (!(error instanceof StreamLineError)) throw error;
          await reportBadLine(ledger, stream, line, error, options);
          continue;
        }
        if (skipResumed !== null && event.event.timepoint === skipResumed) {
          skipResumed = null;
          continue;
        }
        skipResumed = null;
        events.push(event);
      }
      pump.push(events);
      // Reading runs ahead of applying by a few batches at most: memory stays bounded.
      if (pump.backlog >= 4 * size) await pump.idle();
      watchStall();
    }
    await pump.idle();
    if (pump.failure !== null) throw pump.failure;
    return { kind: 'drop', reason: `the server ended the connection${midLine(lines)}`, applied: pump.applied };
  } catch (caught) {
    // What was read whole before a stall or a drop is applied still; a failed batch stops the pump.
    await pump.idle();
    const error = pump.failure ?? caught;
    if (error instanceof LeaseGoneError) throw error;
    const applied = pump.applied;
    if (options.signal.aborted) return { kind: 'drop', reason: 'stopping', applied };
    if (pump.failure !== null)
      return { kind: 'drop', reason: `applying a batch failed: ${(error as Error).message}`, applied };
    if (error instanceof StallError || connection.signal.reason instanceof StallError) {
      return { kind: 'stall', reason: `stalled: ${(connection.signal.reason as Error).message}`, applied };
    }
    return { kind: 'drop', reason: `the connection failed${midLine(lines)}: ${(error as Error).message}`, applied };
  } finally {
    clearTimeout(stallTimer);
    options.signal.removeEventListener('abort', stop);
    connection.abort();
  }
}

/**
 * A line that is not an event: kept in the store (stream_bad_lines), counted, said in the log, and
 * skipped. Reconnecting would not help: the server sends the same line again from the same place.
 */
async function reportBadLine(
  ledger: StreamLedger,
  stream: string,
  line: string,
  error: StreamLineError,
  options: FollowStreamOptions,
): Promise<void> {
  const timepoint = badLineTimepoint(line);
  options.log(
    `stream ${stream}: skipped a line that is not an event${timepoint === null ? '' : ` (timepoint ${timepoint})`}: ` +
      `${error.reason}; kept in stream_bad_lines`,
  );
  options.observer?.badLine?.(stream);
  await ledger.recordBadLine(stream, {
    timepoint,
    hash: createHash('sha256').update(line).digest('hex'),
    excerpt: Buffer.from(line).subarray(0, 500).toString(),
    reason: error.reason,
  });
}

/** Applies the events queued by the reader, all that are waiting (up to `size`) as one batch. */
class BatchPump {
  readonly #queued: StreamEvent[] = [];
  #running: Promise<void> | null = null;
  /** What made a batch fail; nothing more is applied on this connection then. */
  failure: unknown = null;
  applied = 0;

  constructor(
    private readonly apply: (batch: StreamEvent[]) => Promise<void>,
    private readonly size: number,
    private readonly failed: (error: unknown) => void,
  ) {}

  get backlog(): number {
    return this.#queued.length;
  }

  push(events: readonly StreamEvent[]): void {
    if (this.failure !== null || events.length === 0) return;
    for (const event of events) this.#queued.push(event);
    this.#running ??= this.#drain();
  }

  /** Resolves when every event queued is applied, or a batch failed. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queued.length > 0) {
        // Let the socket's waiting bytes be read first: an in-process store (PGlite) answers
        // without ever yielding to I/O, and a batch would otherwise be one network chunk.
        await setImmediate();
        const batch = this.#queued.splice(0, this.size);
        await this.apply(batch);
        this.applied += batch.length;
      }
    } catch (error) {
      this.failure = error;
      this.#queued.length = 0;
      this.failed(error);
    } finally {
      this.#running = null;
    }
  }
}

/** Apply one batch with its position, and hand the companies it changed to detection. */
async function applyBatch(
  ledger: StreamLedger,
  applier: StreamApplier,
  batch: readonly StreamEvent[],
  options: FollowStreamOptions,
  detector: Detector,
): Promise<void> {
  const applied = await ledger.applyBatch(applier.stream, options.lease.holder, batch, applier);
  if (applied === null) throw new LeaseGoneError(applier.stream);
  const last = batch.at(-1)!;
  options.observer?.applied?.(applier.stream, {
    events: batch.length,
    timepoint: last.event.timepoint,
    publishedAt: last.event.published_at,
  });
  detector.add(applied.companies);
}

/**
 * Alert detection beside applying: the companies of batch N are looked at while batch N+1 is
 * applied, and those of the batches applied meanwhile are looked at together in the next round.
 * Every company a batch changed is looked at after that batch committed, so no change is missed;
 * one looked at twice records nothing twice (an alert already detected is not recorded again).
 */
class Detector {
  readonly #waiting = new Set<string>();
  #running: Promise<void> | null = null;

  constructor(
    private readonly detect: ((companies: string[]) => Promise<void>) | undefined,
    private readonly failed: (error: unknown) => void,
  ) {}

  add(companies: readonly string[]): void {
    if (!this.detect) return;
    for (const company of companies) this.#waiting.add(company);
    if (this.#waiting.size > 0) this.#running ??= this.#drain(this.detect);
  }

  /** Resolves when every company handed over has been looked at. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(detect: (companies: string[]) => Promise<void>): Promise<void> {
    try {
      while (this.#waiting.size > 0) {
        const round = [...this.#waiting].slice(0, DETECTION_ROUND);
        for (const company of round) this.#waiting.delete(company);
        // The batch is stored with its position: detection failing now is caught up by the next
        // full run (its companies' updated_at say they changed), never by applying them again.
        await detect(round).catch(this.failed);
      }
    } finally {
      this.#running = null;
    }
  }
}

/** Companies looked at in one detection round at most. */
const DETECTION_ROUND = 5_000;

/** What a connection that ended left of a line begun: dropped, to be read whole from the position. */
function midLine(lines: LineSplitter): string {
  return lines.partial === '' ? '' : ` mid-line (${lines.partial.length} bytes of a line dropped)`;
}

function refusal(status: number, retryAfter: string | string[] | undefined, timepoint: number | null): Outcome {
  if (status === 416) {
    return {
      kind: 'gap',
      reason: `the server cannot resume from timepoint ${timepoint} (416: too old or not valid)`,
    };
  }
  if (status === 429) {
    const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    return {
      kind: 'rate-limited',
      reason: 'rate-limited (429)',
      applied: 0,
      ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {}),
    };
  }
  if (status === 401 || status === 403) {
    return { kind: 'refused', reason: `the stream key was refused (${status}): check CH_STREAM_KEY`, applied: 0 };
  }
  return { kind: 'refused', reason: `the server answered ${status}`, applied: 0 };
}

/** Exponential backoff with jitter: half the delay fixed, half random, so followers spread out. */
function backoff(failures: number, options: FollowStreamOptions): number {
  const base = options.backoffMs ?? 1_000;
  const max = options.maxBackoffMs ?? 60_000;
  const delay = Math.min(max, base * 2 ** Math.max(0, failures - 1));
  return delay / 2 + (Math.random() * delay) / 2;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', wake);
      done();
    }, ms);
    const wake = () => {
      clearTimeout(timer);
      done();
    };
    signal.addEventListener('abort', wake, { once: true });
  });
}
