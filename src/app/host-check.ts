/**
 * DNS rebinding protection for what a browser page elsewhere could make the service do: the MCP
 * endpoint (every method) and the web pages' form posts. A page on evil.com whose name has been
 * rebound to 127.0.0.1 reaches a service on this machine with `Host: evil.com` and, from a
 * browser, `Origin: http://evil.com`; the CSRF check of the forms compares the Origin with the
 * request's own Host, which the attacker chose too. So the Host must be a name the service is
 * known by, and an Origin, when sent, must name one of them: otherwise 403, before anything runs.
 * The REST API is not checked here: it answers any origin by design (CORS `*`) and every call
 * carries its key.
 */
import type { Context, Next } from 'koa';

/** The names a service bound to loopback answers to (RFC 6761 localhost, IPv4 and IPv6 loopback). */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The host names the service accepts in Host and Origin, lower-case, without ports; `any` turns
 * the check off (a service on a public address with no ALLOWED_HOSTS: see docs/api.md).
 */
export type AllowedHosts = readonly string[] | 'any';

const REFUSED =
  'Refused: this request names a host this service does not serve (Host or Origin header). ' +
  'A service on this machine answers to localhost only; a public one to the names in its ALLOWED_HOSTS setting.';

/** Middleware refusing guarded requests whose Host or Origin is not an allowed host name. */
export function hostCheck(allowed: AllowedHosts) {
  const names = allowed === 'any' ? undefined : new Set(allowed.map(normalName));
  return async (ctx: Context, next: Next): Promise<void> => {
    if (names === undefined || !guarded(ctx) || (hostAllowed(ctx, names) && originAllowed(ctx, names))) return next();
    ctx.status = 403;
    if (ctx.path === '/mcp') {
      // The JSON-RPC error shape an MCP client reads; there is no request id to answer.
      ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: REFUSED }, id: null };
    } else {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = refusedPage();
    }
  };
}

/** /mcp whatever the method; a form post to a web page (any POST outside the REST API). */
function guarded(ctx: Context): boolean {
  return ctx.path === '/mcp' || (ctx.method === 'POST' && !ctx.path.startsWith('/v1/'));
}

/** The request's host name as Koa reads it (X-Forwarded-Host behind a trusted proxy). */
function hostAllowed(ctx: Context, names: ReadonlySet<string>): boolean {
  return names.has(normalName(ctx.hostname));
}

/** No Origin (not a browser, or a same-origin GET) passes; one that is sent must name an allowed host. */
function originAllowed(ctx: Context, names: ReadonlySet<string>): boolean {
  const origin = ctx.get('origin');
  if (origin === '') return true;
  try {
    return names.has(normalName(new URL(origin).hostname));
  } catch {
    // `null` (a sandboxed page, a file) or garbage: no host to trust.
    return false;
  }
}

function normalName(name: string): string {
  const lower = name.trim().toLowerCase();
  // An IPv6 address is written in brackets in Host and URLs; ALLOWED_HOSTS may give it bare.
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

function refusedPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Request refused</title></head>
<body><h1>Request refused</h1><p role="alert">${REFUSED}</p><p><a href="/">Search for a company</a></p></body></html>
`;
}

/**
 * What the service accepts, from where it listens and ALLOWED_HOSTS: on a loopback address the
 * localhost names and any configured; elsewhere the configured names, or `any` when none are (a
 * public service's names are not known to it: the start-up log says the check is off).
 */
export function allowedHostsFor(bindHost: string, configured: readonly string[] | undefined): AllowedHosts {
  if (configured?.length === 1 && configured[0] === '*') return 'any';
  if (isLoopback(bindHost)) return [...LOOPBACK_NAMES, ...(configured ?? [])];
  return configured ?? 'any';
}

function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
