/**
 * Downloads that survive a dropped connection. The bytes so far are kept in `<file>.part`; the next
 * attempt — in this run or a later one — asks only for the rest (an HTTP Range request guarded by
 * If-Range, so that a file changed on the server is fetched whole again rather than spliced onto
 * the old one). `<file>.part.json` keeps the validator and the expected size for that purpose.
 * The finished file is renamed into place, so a name without `.part` is always a whole download.
 */
import { createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';

export class DownloadError extends Error {
  constructor(
    message: string,
    /** Retrying cannot help (the server says the file is not there, or refuses us). */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface DownloadOptions {
  /** Attempts in all, the first included (default 5). */
  attempts?: number;
  /** Wait before the second attempt, doubled for each one after (default 2 s). */
  retryDelayMs?: number;
  /** Give up on an attempt that receives nothing for this long (default 60 s). */
  idleTimeoutMs?: number;
  log?: (line: string) => void;
  /** Bytes held so far and the expected total, as they arrive. */
  onProgress?: (held: number, total: number | null) => void;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  attempts: number;
  /** Attempts that continued from bytes already held rather than from the start. */
  resumed: number;
}

interface PartState {
  url: string;
  /** A strong ETag or a Last-Modified date: what If-Range needs to resume safely. */
  validator: string | null;
  total: number | null;
}

interface AttemptOutcome {
  held: number;
  total: number | null;
  resumedFrom: number;
}

export async function downloadResumable(
  url: string,
  target: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const attempts = options.attempts ?? 5;
  const delay = options.retryDelayMs ?? 2000;
  let resumed = 0;
  let lastError: Error = new Error('no attempt made');
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await sleep(delay * 2 ** (attempt - 2));
    try {
      const outcome = await downloadOnce(url, target, options);
      if (outcome.resumedFrom > 0) resumed++;
      if (outcome.total === null || outcome.held === outcome.total) {
        await rename(`${target}.part`, target);
        await rm(`${target}.part.json`, { force: true });
        return { path: target, bytes: outcome.held, attempts: attempt, resumed };
      }
      lastError = new Error(`the connection ended after ${outcome.held} of ${outcome.total} bytes`);
    } catch (error) {
      if (error instanceof DownloadError && error.permanent) throw error;
      lastError = error instanceof Error ? error : new Error(String(error));
    }
    options.log?.(
      `${basename(target)}: attempt ${attempt} of ${attempts} failed (${describeFetchError(lastError)})${attempt < attempts ? '; will resume' : ''}`,
    );
  }
  throw new DownloadError(`${url}: gave up after ${attempts} attempts: ${describeFetchError(lastError)}`, false);
}

async function downloadOnce(url: string, target: string, options: DownloadOptions): Promise<AttemptOutcome> {
  const part = `${target}.part`;
  const metaPath = `${part}.json`;
  const saved = await readPartState(metaPath);
  const resumable = saved !== null && saved.url === url && saved.validator !== null;
  let held = resumable ? await sizeOf(part) : 0;
  if (held === 0) await rm(part, { force: true });

  const idleMs = options.idleTimeoutMs ?? 60_000;
  const controller = new AbortController();
  const idle = setTimeout(() => controller.abort(new Error(`nothing received for ${idleMs} ms`)), idleMs);
  try {
    const headers: Record<string, string> = {};
    if (held > 0 && saved?.validator) {
      headers.range = `bytes=${held}-`;
      headers['if-range'] = saved.validator;
    }
    const response = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
    let total: number | null;
    let resumedFrom = 0;
    if (response.status === 206) {
      const range = parseContentRange(response.headers.get('content-range'));
      if (range === null || range.start !== held) {
        await response.body?.cancel();
        await rm(part, { force: true });
        throw new Error(`the server sent bytes from ${range?.start ?? '?'}, not ${held}`);
      }
      total = range.total ?? saved?.total ?? null;
      resumedFrom = held;
    } else if (response.status === 200) {
      held = 0;
      total = contentLength(response);
      const etag = response.headers.get('etag');
      const validator = etag && !etag.startsWith('W/') ? etag : response.headers.get('last-modified');
      await writeFile(metaPath, JSON.stringify({ url, validator, total } satisfies PartState));
    } else if (response.status === 416 && held > 0 && saved?.total === held) {
      // Everything was already here: the previous run stopped between the last byte and the rename.
      await response.body?.cancel();
      return { held, total: held, resumedFrom: held };
    } else {
      await response.body?.cancel();
      if (response.status === 416) await rm(part, { force: true });
      const transient = response.status >= 500 || [408, 416, 429].includes(response.status);
      throw new DownloadError(`${url}: HTTP ${response.status} ${response.statusText}`.trim(), !transient);
    }
    if (!response.body) throw new Error('the answer has no body');
    options.onProgress?.(held, total);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        held += chunk.length;
        idle.refresh();
        options.onProgress?.(held, total);
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream),
        counter,
        createWriteStream(part, { flags: resumedFrom > 0 ? 'a' : 'w' }),
      );
    } finally {
      // What reached the disk is a prefix of the file, whatever broke: the next attempt measures it.
      held = await sizeOf(part);
    }
    if (total !== null && held > total) {
      await rm(part, { force: true });
      throw new Error(`received ${held} bytes, more than the ${total} announced`);
    }
    return { held, total, resumedFrom };
  } finally {
    clearTimeout(idle);
  }
}

export function parseContentRange(header: string | null): { start: number; total: number | null } | null {
  const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(header?.trim() ?? '');
  if (!m) return null;
  return { start: Number(m[1]), total: m[3] === '*' ? null : Number(m[3]) };
}

function contentLength(response: Response): number | null {
  const header = response.headers.get('content-length');
  return header !== null && /^\d+$/.test(header) ? Number(header) : null;
}

async function readPartState(path: string): Promise<PartState | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<PartState>;
    return typeof parsed.url === 'string'
      ? { url: parsed.url, validator: parsed.validator ?? null, total: parsed.total ?? null }
      : null;
  } catch {
    return null;
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** A fetch failure in words: fetch says "fetch failed" or "terminated", and the socket's error is its cause. */
export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
