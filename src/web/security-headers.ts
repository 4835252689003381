/**
 * Security headers of every web page and asset: a strict Content-Security-Policy (scripts and
 * styles only from this service's own files, no inline script or style attribute, no framing),
 * no MIME sniffing, no referrer sent to other sites.
 */
import type { Context, Next } from 'koa';

/**
 * The policy, one directive a line. `connect-src 'self'` lets the as-you-type script call the
 * service; `img-src data:` is for nothing today and costs nothing; `form-action 'self'` keeps
 * forms from posting elsewhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set(SECURITY_HEADERS);
  // Pages are built for one reader at one moment (a signed-in key's watchlist); never cached by proxies.
  ctx.set('Cache-Control', 'no-store');
  await next();
}
