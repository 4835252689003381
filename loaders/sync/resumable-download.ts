/**
 * Downloads that survive a dropped, reset or silent connection, over node:http (http-get.ts says
 * why not fetch). Attempts are spaced by a doubling wait with jitter, capped, and never shorter
 * than a Retry-After asks. The bytes so far are kept in `<file>.part`; the next
 * attempt — in this run or a later one — asks only for the rest (an HTTP Range request guarded by
 * If-Range, so that a file changed on the server is fetched whole again rather than spliced onto
 * the old one). `<file>.part.json` keeps the validator and the expected size for that purpose.
 * The finished file is renamed into place, so a name without `.part` is always a whole download.
 */
import { createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { get } from '../../src/net/http-get.ts';

export class DownloadError extends Error {
  constructor(
    message: string,
    /** Retrying cannot help (the server says the file is not there, or refuses us). */
    readonly permanent: boolean,
    /** How long the server asked us to wait (Retry-After), when it did. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export interface DownloadOptions {
  /** Attempts in all, the first included (default 5). */
  attempts?: number;
  /** Wait before the second attempt, doubled for each one after, with jitter (default 2 s). */
  retryDelayMs?: number;
  /** The longest wait between attempts, Retry-After included (default 60 s). */
  maxRetryDelayMs?: number;
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

/**
 * The wait before attempt `attempt` (2 and on): doubling from `base`, at most `cap`, drawn from its
 * upper half so that clients cut off together do not come back together; never less than what the
 * server asked for (Retry-After), within the cap.
 */
export function retryDelay(attempt: number, base: number, cap: number, asked: number | null = null): number {
  const doubled = Math.min(cap, base * 2 ** (attempt - 2));
  return Math.min(cap, Math.max(doubled / 2 + (Math.random() * doubled) / 2, asked ?? 0));
}

export async function downloadResumable(
  url: string,
  target: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const attempts = options.attempts ?? 5;
  const base = options.retryDelayMs ?? 2000;
  const cap = options.maxRetryDelayMs ?? 60_000;
  let resumed = 0;
  let lastError: Error = new Error('no attempt made');
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) {
      const asked = lastError instanceof DownloadError ? lastError.retryAfterMs : null;
      await sleep(retryDelay(attempt, base, cap, asked));
    }
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
  throw new DownloadError(
    `${url}: gave up after ${attempts} attempts: ${describeFetchError(lastError)}; ${await whatNext(target, url)}`,
    false,
  );
}

/**
 * What the operator can do after the last attempt. Bytes that a later run can resume from are
 * kept; bytes it could not resume from (the server gave no validator) are removed, so that no
 * `.part` is left that the next run would have to throw away.
 */
async function whatNext(target: string, url: string): Promise<string> {
  const part = `${target}.part`;
  const saved = await readPartState(`${part}.json`);
  const held = await sizeOf(part);
  if (saved?.url === url && saved.validator !== null && held > 0) {
    return `the ${held} bytes received are kept in ${part}, and running the command again resumes from them`;
  }
  await rm(part, { force: true });
  await rm(`${part}.json`, { force: true });
  return 'check that this URL answers from here (a proxy, a firewall, the server itself) and run the command again';
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
    const response = await get(url, { headers, signal: controller.signal });
    const header = (name: string) => {
      const value = response.headers[name];
      return typeof value === 'string' ? value : null;
    };
    let total: number | null;
    let resumedFrom = 0;
    if (response.status === 206) {
      const range = parseContentRange(header('content-range'));
      if (range === null || range.start !== held) {
        response.body.destroy();
        await rm(part, { force: true });
        throw new Error(`the server sent bytes from ${range?.start ?? '?'}, not ${held}`);
      }
      total = range.total ?? saved?.total ?? null;
      resumedFrom = held;
    } else if (response.status === 200) {
      held = 0;
      total = contentLength(header('content-length'));
      const etag = header('etag');
      const validator = etag && !etag.startsWith('W/') ? etag : header('last-modified');
      await writeFile(metaPath, JSON.stringify({ url, validator, total } satisfies PartState));
    } else {
      response.body.destroy();
      const size = /^bytes \*\/(\d+)$/.exec(header('content-range') ?? '');
      if (response.status === 416 && held > 0 && (saved?.total === held || Number(size?.[1]) === held)) {
        // Everything was already here: the previous run stopped between the last byte and the rename.
        return { held, total: held, resumedFrom: held };
      }
      // A range the server cannot satisfy means the part is not a prefix of its file: start again.
      if (response.status === 416) {
        await rm(part, { force: true });
        await rm(metaPath, { force: true });
      }
      const transient = response.status >= 500 || [408, 416, 429].includes(response.status);
      throw new DownloadError(
        `${url}: HTTP ${response.status} ${response.statusText}`.trim(),
        !transient,
        retryAfterMs(header('retry-after')),
      );
    }
    options.onProgress?.(held, total);
    // The bytes received are written out whatever happens to the connection: a pipeline would
    // destroy the file's stream with the source and lose the writes still queued, so a drop after
    // 100 kB could leave nothing to resume from.
    const file = createWriteStream(part, { flags: resumedFrom > 0 ? 'a' : 'w' });
    let broke: unknown = null;
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        held += chunk.length;
        idle.refresh();
        options.onProgress?.(held, total);
        if (!file.write(chunk)) await once(file, 'drain');
      }
    } catch (error) {
      broke = error;
    }
    file.end();
    await finished(file);
    if (broke !== null) {
      if (controller.signal.aborted) throw broke;
      // What reached the disk is a prefix of the file, whatever broke: the next attempt measures it.
      const kept = await sizeOf(part);
      throw new Error(
        `the connection broke after ${kept} of ${total ?? 'an unknown number of'} bytes (${describeFetchError(broke)})`,
        { cause: broke },
      );
    }
    held = await sizeOf(part);
    if (total !== null && held > total) {
      await rm(part, { force: true });
      throw new Error(`received ${held} bytes, more than the ${total} announced`);
    }
    return { held, total, resumedFrom };
  } catch (error) {
    // An abort for want of bytes says so, rather than as the socket's "aborted".
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    clearTimeout(idle);
  }
}

/** Retry-After in milliseconds: seconds, or an HTTP date; null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

export function parseContentRange(header: string | null): { start: number; total: number | null } | null {
  const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(header?.trim() ?? '');
  if (!m) return null;
  return { start: Number(m[1]), total: m[3] === '*' ? null : Number(m[3]) };
}

function contentLength(header: string | null): number | null {
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

/** A failure in words, with its cause (a socket's error) when it has one. */
export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
