/**
 * CORS for browsers calling the API from any origin with a bearer key: every answer allows any
 * origin, and preflight requests are answered here.
 */
import type { Context, Next } from 'koa';

/**
 * What a preflight allows when it does not list the headers it wants: the API's, and those MCP
 * clients send (2026-07-28 adds Mcp-Method and Mcp-Name; /mcp keeps no sessions, so neither
 * Mcp-Session-Id nor DELETE is needed).
 */
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

export async function cors(ctx: Context, next: Next): Promise<void> {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
    ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    ctx.set('Access-Control-Allow-Headers', ctx.get('access-control-request-headers') || ALLOWED_HEADERS);
    ctx.set('Access-Control-Max-Age', '86400');
    ctx.status = 204;
    return;
  }
  await next();
}
