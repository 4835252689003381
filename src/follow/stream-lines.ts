/**
 * The Streaming API's framing: one JSON event a line, blank lines as heartbeats. A connection that
 * ends mid-line leaves a partial line, which is dropped: the stream is read again from the last
 * event applied, so the event it began is read whole then.
 */
import type { StreamEvent } from '../ports/stream-appliers.ts';

/** Splits chunks into whole lines; what follows the last newline waits for the next chunk. */
export class LineSplitter {
  #partial = '';

  /** The whole lines completed by `chunk` (blank ones included: they are heartbeats). */
  push(chunk: string): string[] {
    const text = this.#partial + chunk;
    const lines = text.split('\n');
    this.#partial = lines.pop()!;
    return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  }

  /** The bytes of a line begun and not ended (dropped when the connection ends). */
  get partial(): string {
    return this.#partial;
  }
}

/** A line that is not an event of the Streaming API's shape; `reason` says why, without the line. */
export class StreamLineError extends Error {
  override readonly name = 'StreamLineError';
  constructor(
    readonly reason: string,
    line: string,
  ) {
    super(`${reason}: ${excerpt(line)}`);
  }
}

/** The event a non-blank line carries; throws StreamLineError saying what is wrong with it. */
export function parseEventLine(line: string): StreamEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new StreamLineError(`not JSON (${(error as Error).message})`, line);
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  const event = record && typeof record.event === 'object' && record.event !== null ? record.event : null;
  const meta = event as Record<string, unknown> | null;
  if (!record || !meta) throw new StreamLineError(`no "event" object`, line);
  if (typeof meta.timepoint !== 'number' || !Number.isSafeInteger(meta.timepoint)) {
    throw new StreamLineError(`event.timepoint is not an integer`, line);
  }
  if (typeof meta.published_at !== 'string' || Number.isNaN(Date.parse(meta.published_at))) {
    throw new StreamLineError(`event.published_at is not a date-time`, line);
  }
  if (typeof record.data !== 'object' || record.data === null || Array.isArray(record.data)) {
    throw new StreamLineError(`no "data" object`, line);
  }
  return {
    resource_kind: typeof record.resource_kind === 'string' ? record.resource_kind : '',
    resource_uri: typeof record.resource_uri === 'string' ? record.resource_uri : '',
    resource_id: typeof record.resource_id === 'string' ? record.resource_id : '',
    data: record.data as Record<string, unknown>,
    event: {
      timepoint: meta.timepoint,
      published_at: meta.published_at,
      type: typeof meta.type === 'string' ? meta.type : 'changed',
      ...(Array.isArray(meta.fields_changed)
        ? { fields_changed: meta.fields_changed.filter((f): f is string => typeof f === 'string') }
        : {}),
    },
  };
}

/** The timepoint a line that is not an event shows, when it shows one (for the operator's record). */
export function badLineTimepoint(line: string): number | null {
  const match = /"timepoint"\s*:\s*(\d{1,15})\b/.exec(line);
  return match ? Number(match[1]) : null;
}

function excerpt(line: string): string {
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
