/**
 * Security headers of every web page and asset (src/page-security/): the strict policy, with no
 * inline script or style attribute.
 */
import type { Context, Next } from 'koa';
import { securityHeadersFor } from '../page-security/security-headers.ts';

const SECURITY_HEADERS = securityHeadersFor();

export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set(SECURITY_HEADERS);
  // Pages are built for one reader at one moment (a signed-in key's watchlist); never cached by proxies.
  ctx.set('Cache-Control', 'no-store');
  await next();
}
