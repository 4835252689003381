/**
 * The MCP server: one tool per operation of the table, listed without a key, called with one.
 * The low-level Server is used rather than McpServer so that a call is checked in the order REST
 * checks it — key, quota (counted), then arguments — and every refusal is a tool result with
 * `isError: true` and the same text REST gives, which an agent can read out to its user. One
 * server serves one HTTP request (route.ts), of either protocol era: it is cheap to build (about
 * 0.04 ms with the tool list derived once, in the catalog).
 */
import { Server } from '@modelcontextprotocol/server';
import type { CallToolRequest, CallToolResult, Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Caller, QuotaState } from '../call/access.ts';
import { quotaExceededText } from '../call/access.ts';
import type { CallDeps } from '../call/deps.ts';
import { failureOf, stackOf } from '../call/errors.ts';
import { inputFromArguments } from '../call/input.ts';
import { callOperation } from '../call/run.ts';
import { AppError, INTERNAL_ERROR } from '../errors.ts';
import { markdownContent, withEnvelope, withEnvelopeSchema } from '../operations/envelope.ts';
import { annotationsOf } from '../operations/operation.ts';
import type { Operation } from '../operations/operation.ts';
import { TOOLSETS } from './toolsets.ts';
import type { ToolSelection } from './toolsets.ts';

const SERVER_INFO = { name: 'ukcd', version: '0.2.0' };

/** What one HTTP request to /mcp knows about its caller. */
export interface McpRequestAccess {
  /** The caller, or why there is none (missing or invalid key). */
  caller: Caller | AppError;
  /** Set when a tool call was counted, or refused for the quota: the quota after it, for the response headers. */
  quota?: QuotaState;
  /** Set when the request calls a known tool: its operation's name, for the log and the metrics. */
  operation?: string;
}

function toolList(operations: readonly Operation[], outputSchemas: boolean): Tool[] {
  return operations.map((operation) => {
    const { $schema: _schema, ...inputSchema } = z.toJSONSchema(operation.input, { io: 'input' }) as Record<
      string,
      unknown
    >;
    return {
      name: operation.name,
      title: operation.title,
      description: operation.description,
      inputSchema: { ...inputSchema, type: 'object' } as Tool['inputSchema'],
      ...(outputSchemas ? { outputSchema: outputSchemaOf(operation) } : {}),
      annotations: annotationsOf(operation),
    };
  });
}

/**
 * The tool's outputSchema: the JSON Schema of its structuredContent, which is the answer REST
 * gives with format=json (envelope included). Draft-07, as the SDK's client validates it with Ajv,
 * and a plain object schema at the top, as the MCP schema demands (no `$ref`: see STYLE.md).
 */
export function outputSchemaOf(operation: Operation): NonNullable<Tool['outputSchema']> {
  const { $schema: _schema, ...schema } = z.toJSONSchema(withEnvelopeSchema(operation.output), {
    io: 'output',
    target: 'draft-07',
  }) as Record<string, unknown>;
  const tidy = portable(schema) as Record<string, unknown>;
  if (tidy.type !== 'object' || '$ref' in tidy)
    throw new Error(`The output schema of ${operation.name} is not a plain object schema`);
  return tidy as NonNullable<Tool['outputSchema']>;
}

/**
 * A JSON Schema as portable as it can be written: a value of several types (zod writes a nullable
 * one as `type: ["number", "null"]`) as anyOf branches of one type each, since some clients map
 * schemas onto single-type dialects (the MCP Inspector's --strict check flags type arrays); and
 * without the safe-integer bounds zod gives every whole number, noise in every count.
 */
function portable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portable);
  if (schema === null || typeof schema !== 'object') return schema;
  const safeBound = ([key, value]: [string, unknown]) =>
    (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
    (key === 'minimum' && value === Number.MIN_SAFE_INTEGER);
  const { type, ...rest } = Object.fromEntries(
    Object.entries(schema)
      .filter((entry) => !safeBound(entry))
      .map(([key, value]) => [key, portable(value)]),
  );
  if (!Array.isArray(type)) return type === undefined ? rest : { type, ...rest };
  return { anyOf: type.map((one: unknown) => ({ type: one })), ...rest };
}

/**
 * What every MCP server of the table serves, derived once when the route is set up: the stateless
 * endpoint builds a server per request, and the tool list (a JSON Schema per operation) took
 * about 2.5 ms to derive each time.
 */
export interface McpCatalog {
  operations: readonly Operation[];
  tools: Tool[];
  byName: ReadonlyMap<string, Operation>;
}

/** The catalog of the tools a request chose (toolsets.ts): all of them by default. */
export function mcpCatalog(all: readonly Operation[], selection: ToolSelection = { outputSchemas: true }): McpCatalog {
  const chosen = selection.toolsets?.flatMap((name) => TOOLSETS[name] ?? []);
  const operations = chosen ? all.filter((operation) => chosen.includes(operation.name)) : all;
  return {
    operations,
    tools: toolList(operations, selection.outputSchemas),
    byName: new Map(operations.map((operation) => [operation.name, operation])),
  };
}

/**
 * How long a client may keep the tool list (2026-07-28 cache hints on tools/list): it changes
 * only with a new version of the service, and it is the same for every caller.
 */
const TOOL_LIST_CACHE = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

/** A server for one request, whose caller is `access`. */
export function buildMcpServer(catalog: McpCatalog, deps: CallDeps, access: McpRequestAccess): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    cacheHints: { 'tools/list': TOOL_LIST_CACHE },
    instructions:
      'UK company data: every company on the Companies House register and the figures of its machine-readable ' +
      'accounts since 2008. Find a company with search_by_name, then lookup_company. Figures are as filed, in GBP; ' +
      'null means not filed. Not a credit rating.',
  });
  server.setRequestHandler('tools/list', () => ({ tools: catalog.tools }));
  server.setRequestHandler('tools/call', (request) => callTool(catalog, deps, { params: request.params, access }));
  return server;
}

/**
 * One tool call through the call pipeline (src/call): the tool known, the caller identified, then
 * counted, its arguments read, the operation run; every refusal a tool result with REST's text.
 */
async function callTool(
  { operations, byName }: McpCatalog,
  deps: CallDeps,
  { params, access }: { params: CallToolRequest['params']; access: McpRequestAccess },
): Promise<CallToolResult> {
  const operation = byName.get(params.name);
  if (!operation) return refusal(`Unknown tool "${params.name}". Tools: ${operations.map((o) => o.name).join(', ')}.`);
  access.operation = operation.name;
  if (access.caller instanceof AppError) return refusal(access.caller.message);
  try {
    return await callOperation(deps, {
      operation,
      who: access.caller,
      channel: 'mcp',
      counted: (quota) => (access.quota = quota),
      read: () => inputFromArguments(operation, params.arguments ?? {}),
      // The Markdown for the model to read, and beside it the JSON REST gives with format=json.
      answer: (result, asOf): CallToolResult => ({
        ...markdownContent(operation.toMarkdown(result), asOf),
        structuredContent: withEnvelope(result, asOf),
      }),
    });
  } catch (error) {
    return failedCall(error, access, (line) => deps.log(`error in MCP tool ${operation.name}: ${line}`));
  }
}

/** A failed tool call as the tool result the caller reads, with the status REST gives it. */
function failedCall(error: unknown, access: McpRequestAccess, logStack: (stack: string) => void): CallToolResult {
  const failure = failureOf(error);
  switch (failure.kind) {
    case 'refused':
      if (failure.error.code === 'QUOTA_EXCEEDED') {
        access.quota = quotaOf(failure.error);
        return refusal(quotaExceededText(failure.error));
      }
      return refusal(failure.error.message);
    // A dependency down is news an agent can act on (try later, or use another tool).
    case 'unavailable':
      return refusal(failure.error.message);
    default:
      // A failure of ours: logged with its stack, and never shown (a driver's message names
      // tables, hosts and values); REST answers 500 with the same text.
      logStack(stackOf(error));
      return refusal(INTERNAL_ERROR);
  }
}

/** The quota a refusal reports in its headers, for the MCP response's own. */
function quotaOf(error: AppError): QuotaState {
  return {
    limit: Number(error.headers['X-RateLimit-Limit']),
    remaining: Number(error.headers['X-RateLimit-Remaining']),
    reset: Number(error.headers['X-RateLimit-Reset']),
  };
}

function refusal(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
