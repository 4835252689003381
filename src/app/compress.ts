/**
 * Compression of the answers that gain from it: HTML, JSON, JavaScript, CSS and plain text, with
 * gzip when the client accepts it (every browser and HTTP library does), through node:zlib's
 * streaming gzip. No compression package is installed, and this is all the service needs of one.
 *
 * Left as they are: small answers (under COMPRESS_FROM bytes, where gzip's header outweighs the
 * gain), CSV downloads (streamed page by page, and a failure part way must break the download
 * rather than be hidden behind a compressor), answers a handler wrote itself, HEAD, 204 and 304,
 * and bodies already encoded.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGzip, constants } from 'node:zlib';
import type { Context, Next } from 'koa';

/** Below this many bytes an answer is sent as it is. */
const COMPRESS_FROM = 1024;

const COMPRESSIBLE = /^(text\/(html|css|javascript|plain|markdown)|application\/(json|javascript|[\w.+-]+\+json))\b/i;

export async function compress(ctx: Context, next: Next): Promise<void> {
  await next();
  if (!COMPRESSIBLE.test(ctx.response.type)) return;
  ctx.vary('Accept-Encoding');
  if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304 || ctx.respond === false) return;
  if (ctx.response.get('Content-Encoding')) return;
  const body = bytesOrStream(ctx.body);
  if (body === null) return;
  if (ctx.acceptsEncodings('gzip', 'identity') !== 'gzip') return;
  const gzip = createGzip({ level: 6, flush: constants.Z_NO_FLUSH });
  ctx.set('Content-Encoding', 'gzip');
  ctx.remove('Content-Length');
  if (body instanceof Readable) {
    // A failing source fails the compressed stream too, so the answer breaks rather than ends short.
    pipeline(body, gzip, () => {});
  } else gzip.end(body);
  ctx.body = gzip;
}

/** The body as bytes or a Node stream, when it is worth compressing; null to leave it alone. */
function bytesOrStream(body: unknown): Buffer | Readable | null {
  if (body === null || body === undefined) return null;
  if (body instanceof Readable) return body;
  if (typeof body === 'string') return Buffer.byteLength(body) < COMPRESS_FROM ? null : Buffer.from(body);
  if (Buffer.isBuffer(body)) return body.length < COMPRESS_FROM ? null : body;
  // A plain JSON value (Koa would stringify it); never a web Response, Blob or ReadableStream.
  if (typeof body === 'object' && (Object.getPrototypeOf(body) === Object.prototype || Array.isArray(body))) {
    const text = JSON.stringify(body);
    return Buffer.byteLength(text) < COMPRESS_FROM ? null : Buffer.from(text);
  }
  return null;
}
