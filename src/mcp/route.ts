/**
 * POST /mcp: streamable HTTP, stateless, JSON answers. A new transport per request (a stateless
 * transport cannot be reused) connected to a pooled server; the web-standard transport hands Koa a
 * Response, so the CORS and quota headers set here stay on it. GET and DELETE are 405 (no SSE
 * stream, no sessions).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AppError } from '../errors.ts';
import { identifyCaller, presentedAuthorization, quotaHeaders } from '../call/access.ts';
import type { CallDeps } from '../call/deps.ts';
import type { Operation } from '../operations/operation.ts';
import type { McpRequestAccess } from './server.ts';
import { buildMcpServer, mcpCatalog, requestAuthInfo } from './server.ts';
import { createMcpServerPool } from './server-pool.ts';

export function addMcpRoute(router: Router, operations: readonly Operation[], deps: CallDeps): void {
  const catalog = mcpCatalog(operations);
  const servers = createMcpServerPool(() => buildMcpServer(catalog, deps));
  router.post('mcp', '/mcp', async (ctx: Context) => {
    ctx.state.operation = 'mcp';
    if (ctx.state.malformedBody) {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null };
      return;
    }
    const access: McpRequestAccess = { caller: await callerOf(ctx, deps) };
    const server = servers.acquire();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    // Only a server whose request ended normally goes back: one that threw may be mid-request.
    let answered = false;
    try {
      const response = await transport.handleRequest(webRequest(ctx), {
        parsedBody: (ctx.request as { body?: unknown }).body,
        authInfo: requestAuthInfo(access),
      });
      if (access.quota) ctx.set(quotaHeaders(access.quota));
      ctx.body = response;
      answered = true;
    } finally {
      if (access.operation) ctx.state.operation = access.operation;
      await server.close(); // closes the transport too
      if (answered) servers.release(server);
    }
  });
  const notAllowed = (ctx: Context) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = { error: 'The MCP endpoint is stateless: POST only (no SSE stream, no sessions).' };
  };
  router.get('mcp', '/mcp', notAllowed);
  router.delete('mcp', '/mcp', notAllowed);
}

async function callerOf(ctx: Context, deps: CallDeps): Promise<McpRequestAccess['caller']> {
  try {
    return await identifyCaller(deps.keys, presentedAuthorization(ctx));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(ctx.href, { method: ctx.method, headers });
}
