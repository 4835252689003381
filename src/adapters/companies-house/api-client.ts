/**
 * The Companies House Public Data and Document APIs over HTTP, with the API key as the Basic
 * user name. One limiter per client (RateLimiterQueue over a 600-per-5-minutes window, as
 * Companies House publishes) queues every call, so the follower, the backfills and the PDF reader
 * share one budget. A 429 waits for Retry-After (or the X-Ratelimit-Reset time); a reset, a stall
 * or a 5xx is tried again with growing, jittered waits; a refused key is said at once.
 */
import { RateLimiterMemory, RateLimiterQueue } from 'rate-limiter-flexible';
import { get } from '../../net/http-get.ts';
import type { HttpAnswer } from '../../net/http-get.ts';
import type { CompaniesHouseApi, DocumentMetadata } from '../../ports/companies-house-api.ts';

export interface CompaniesHouseApiOptions {
  /** The Public Data API's root (`https://api.company-information.service.gov.uk`). */
  apiUrl: string;
  /** The Document API's root (`https://document-api.company-information.service.gov.uk`). */
  documentApiUrl: string;
  key: string;
  /** Requests allowed in each window; 600 a 5 minutes unless a test says otherwise. */
  requestsPerWindow?: number;
  windowSeconds?: number;
  /** Tries of one call before it fails (429s included). */
  attempts?: number;
  /** The first wait after a failed try, doubled each time; a quarter of random either way. */
  backoffMs?: number;
  /** A call whose answer has not finished in this long is tried again. */
  timeoutMs?: number;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A failure worth another try: the network, a stall, a 429 or a 5xx. */
class TryAgain extends Error {
  constructor(
    message: string,
    readonly waitMs: number | null,
  ) {
    super(message);
  }
}

export function createCompaniesHouseApi(options: CompaniesHouseApiOptions): CompaniesHouseApi {
  const queue = new RateLimiterQueue(
    new RateLimiterMemory({ points: options.requestsPerWindow ?? 600, duration: options.windowSeconds ?? 300 }),
  );
  const authorization = `Basic ${Buffer.from(`${options.key}:`).toString('base64')}`;
  const settings = {
    attempts: options.attempts ?? 5,
    backoffMs: options.backoffMs ?? 1000,
    timeoutMs: options.timeoutMs ?? 60_000,
  };

  async function call(url: string, accept: string, signal?: AbortSignal): Promise<Buffer | null> {
    for (let attempt = 1; ; attempt++) {
      await queue.removeTokens(1);
      try {
        return await callOnce(url, accept, signal);
      } catch (error) {
        if (!(error instanceof TryAgain) || attempt >= settings.attempts || signal?.aborted) {
          throw new Error(`${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        await wait(error.waitMs ?? jittered(settings.backoffMs * 2 ** (attempt - 1)), signal);
      }
    }
  }

  async function callOnce(url: string, accept: string, signal?: AbortSignal): Promise<Buffer | null> {
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let answer: HttpAnswer;
    try {
      answer = await get(url, { headers: { authorization, accept }, signal: combined });
    } catch (error) {
      throw new TryAgain(networkFailure(error, timeout), null);
    }
    const status = answer.status;
    if (status === 404 || status === 406) {
      answer.body.destroy();
      return null;
    }
    if (status === 401 || status === 403) {
      answer.body.destroy();
      throw new Error(`Companies House refused the API key (${status}): check CH_API_KEY`);
    }
    if (status === 429) {
      answer.body.destroy();
      throw new TryAgain('rate limited (429)', retryAfterMs(answer));
    }
    if (status >= 500) {
      answer.body.destroy();
      throw new TryAgain(`answered ${status} ${answer.statusText}`, null);
    }
    if (status !== 200) {
      answer.body.destroy();
      throw new Error(`answered ${status} ${answer.statusText}`);
    }
    try {
      return await readBody(answer);
    } catch (error) {
      throw new TryAgain(networkFailure(error, timeout), null);
    }
  }

  const documentBase = options.documentApiUrl.replace(/\/+$/, '');
  return {
    async getJson(path, signal) {
      const body = await call(`${options.apiUrl.replace(/\/+$/, '')}${path}`, 'application/json', signal);
      return body === null ? null : parseJson(body, path);
    },
    async documentMetadata(idOrLink, signal) {
      const id = documentId(idOrLink);
      const body = await call(`${documentBase}/document/${encodeURIComponent(id)}`, 'application/json', signal);
      return body === null ? null : metadataOf(id, parseJson(body, `document ${id}`));
    },
    documentContent(id, contentType, signal) {
      return call(`${documentBase}/document/${encodeURIComponent(id)}/content`, contentType, signal);
    },
  };
}

/** The id in `https://…/document/<id>` (or `/document/<id>/content`), or the id itself. */
function documentId(idOrLink: string): string {
  const match = /\/document\/([^/?#]+)/.exec(idOrLink);
  return match ? decodeURIComponent(match[1]!) : idOrLink;
}

function metadataOf(id: string, json: unknown): DocumentMetadata {
  const raw = (json !== null && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const resources = raw.resources !== null && typeof raw.resources === 'object' ? raw.resources : {};
  return {
    id,
    companyNumber: typeof raw.company_number === 'string' ? raw.company_number : null,
    contentTypes: Object.keys(resources as object),
    raw,
  };
}

function parseJson(body: Buffer, what: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new Error(`${what}: the answer is not JSON`);
  }
}

async function readBody(answer: HttpAnswer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      answer.body.destroy();
      throw new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function retryAfterMs(answer: HttpAnswer): number | null {
  const retryAfter = Number(answer.headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  const reset = Number(answer.headers['x-ratelimit-reset']);
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - Date.now());
  return null;
}

function networkFailure(error: unknown, timeout: AbortSignal): string {
  if (timeout.aborted) return 'no answer in time';
  return error instanceof Error ? error.message : String(error);
}

function jittered(ms: number): number {
  return Math.round(ms * (0.75 + Math.random() * 0.5));
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      },
      { once: true },
    );
  });
}
