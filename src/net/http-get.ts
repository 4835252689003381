/**
 * GET over node:http and node:https, for sync's pages and downloads and the Companies House APIs. Not `fetch`: Node's fetch
 * runs on an undici whose HTTP/1 parser throws an uncatchable `AssertionError: assert(!this.paused)`
 * when a server closes the connection while an answer's body waits to be read (nodejs/undici#5360)
 * — which an HTTP/1.0 mirror does at the end of every file. Which undici that is cannot be pinned
 * from package.json: Node 22 and 24 bundle an undici 7, and the npm undici 7 that
 * @elastic/elasticsearch brings in becomes fetch's dispatcher when it is loaded first. The fix is in
 * undici 8 only, which needs Node 22.19; the service supports Node 20.19.
 */
import { get as httpGet } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';

export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /** The URL answered, after redirects. */
  url: string;
  /** The body, to read or to `destroy()`. */
  body: IncomingMessage;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * The answer to a GET of `url`, once its head has arrived; redirects are followed (at most five,
 * http and https only). Aborting `signal` ends the request and its body with the signal's reason.
 */
export async function get(
  url: string,
  options: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<HttpAnswer> {
  let current = new URL(url);
  let sent = options;
  for (let redirects = 0; ; redirects++) {
    const answer = await getOnce(current, sent);
    const location = answer.headers.location;
    if (!REDIRECTS.has(answer.status) || location === undefined) return answer;
    answer.body.destroy();
    if (redirects === MAX_REDIRECTS) throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, current);
    // As browsers do: credentials go only to the origin they were given for. The Document API
    // redirects content to a signed storage URL that refuses a second form of authorisation.
    if (next.origin !== current.origin) sent = { ...sent, headers: withoutAuthorization(sent.headers) };
    current = next;
  }
}

function withoutAuthorization(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

function getOnce(url: URL, options: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<HttpAnswer> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new Error(`${url.href}: only http and https URLs are fetched`));
  }
  const request = url.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const signal = options.signal;
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    // One connection per request, closed after it: nothing is kept for a server that closes anyway.
    const req = request(url, { headers: { ...options.headers, connection: 'close' }, agent: false });
    let body: IncomingMessage | null = null;
    // Ends the body with the reason when it has begun, so that its reader sees why.
    const abort = () => {
      const reason = signal?.reason instanceof Error ? signal.reason : new Error('aborted');
      if (body) body.destroy(reason);
      else req.destroy(reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    // `on`, not `once`: a socket can fail more than once, and an 'error' without a listener would
    // end the process. Once the answer is out, its body carries the failure to its reader.
    req.on('error', (error) => {
      signal?.removeEventListener('abort', abort);
      reject(error);
    });
    req.once('response', (answer) => {
      body = answer;
      answer.once('close', () => signal?.removeEventListener('abort', abort));
      resolve({
        status: answer.statusCode ?? 0,
        statusText: answer.statusMessage ?? '',
        headers: answer.headers,
        url: url.href,
        body: answer,
      });
    });
  });
}
