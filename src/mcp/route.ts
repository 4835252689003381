/**
 * POST /mcp: streamable HTTP, stateless, JSON answers, for clients of both protocol eras from one
 * set of tools (the v2 SDK). A 2026-07-28 request (its `_meta` envelope) goes to the SDK's
 * per-request handler; a 2025-era one (initialize, then plain requests) to a stateless
 * web-standard transport in JSON mode, as before, since the SDK's own fallback answers those with
 * an SSE stream. Either way a server of its own serves the request, knowing its caller. The
 * transports hand Koa a Response, so the CORS and quota headers set here stay on it. Only POST is
 * routed: GET, HEAD and DELETE (an SSE stream, sessions) are 405 with `Allow: POST`.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';
import { AppError } from '../errors.ts';
import { identifyCaller, presentedAuthorization, quotaHeaders } from '../call/access.ts';
import type { CallDeps } from '../call/deps.ts';
import type { Operation } from '../operations/operation.ts';
import type { McpAppView } from './app-views.ts';
import type { McpCatalog, McpRequestAccess } from './server.ts';
import { buildMcpServer, mcpCatalog } from './server.ts';
import { malformedParams } from './params.ts';
import { toolSelection } from './toolsets.ts';
import type { ToolSelection } from './toolsets.ts';

/** POST /mcp for the table's operations, with the MCP App views (app-views.ts) of their results. */
export function addMcpRoute(
  router: Router,
  operations: readonly Operation[],
  deps: CallDeps,
  views: readonly McpAppView[] = [],
): void {
  const onerror = (error: Error) => deps.log(`MCP: ${error.message}`);
  // One catalog and one handler for each selection asked for (a few at most: toolsets.ts).
  const served = new Map<string, { catalog: McpCatalog; modern: McpHttpHandler }>();
  const servedFor = (selection: ToolSelection) => {
    const key = JSON.stringify(selection);
    let found = served.get(key);
    if (!found) {
      const catalog = mcpCatalog(operations, selection, views);
      const modern = createMcpHandler(({ authInfo }) => buildMcpServer(catalog, deps, accessOf(authInfo)), {
        legacy: 'reject',
        responseMode: 'json',
        onerror,
      });
      found = { catalog, modern };
      served.set(key, found);
    }
    return found;
  };
  router.post('mcp', '/mcp', async (ctx: Context) => {
    ctx.state.operation = 'mcp';
    const selection = toolSelection(ctx.query);
    if (typeof selection === 'string') {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', error: { code: -32602, message: selection }, id: null };
      return;
    }
    const { catalog, modern } = servedFor(selection);
    if (ctx.state.malformedBody) {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null };
      return;
    }
    const body = (ctx.request as { body?: unknown }).body;
    const malformed = malformedParams(body);
    if (malformed) {
      ctx.body = malformed;
      return;
    }
    const access: McpRequestAccess = { caller: await callerOf(ctx, deps) };
    const request = webRequest(ctx);
    try {
      ctx.body = (await isLegacyRequest(request, body))
        ? await legacy(buildMcpServer(catalog, deps, access), request, body)
        : await modern.fetch(request, { parsedBody: body, authInfo: requestAuthInfo(access) });
      if (access.quota) ctx.set(quotaHeaders(access.quota));
    } finally {
      if (access.operation) ctx.state.operation = access.operation;
    }
  });
}

/** A 2025-era request: a stateless transport of its own, answering with one JSON body. */
async function legacy(
  server: ReturnType<typeof buildMcpServer>,
  request: Request,
  parsedBody: unknown,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close(); // closes the transport too
  }
}

/**
 * The request's access, as the SDK's handler passes it to the server factory. The key itself is
 * not passed on: the caller is already identified.
 */
function requestAuthInfo(access: McpRequestAccess): AuthInfo {
  const clientId = access.caller instanceof AppError ? 'anonymous' : access.caller.key.prefix;
  return { token: '', clientId, scopes: [], extra: { access } };
}

function accessOf(authInfo: AuthInfo | undefined): McpRequestAccess {
  const access = authInfo?.extra?.access;
  // A programming error, not a caller's: the route passes the access with every request.
  if (access === undefined) throw new Error('an MCP request reached the server factory without its access');
  return access as McpRequestAccess;
}

async function callerOf(ctx: Context, deps: CallDeps): Promise<McpRequestAccess['caller']> {
  try {
    return await identifyCaller(deps.keys, presentedAuthorization(ctx));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** The request as the SDK reads it: its headers; the body travels parsed beside it. */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(ctx.href, { method: ctx.method, headers });
}
