/**
 * The shape of a tools/call's params, checked before the SDK sees them: the SDK answers
 * `"arguments": "x"` with a dump of its schema's issues, and a caller (often a model) should read
 * what is wrong in words, with the code the spec gives bad params (-32602 Invalid params).
 */

/** JSON-RPC's code for invalid method parameters. */
const INVALID_PARAMS = -32602;

interface JsonRpcError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** The error answer to the first tools/call in `body` whose params are malformed; undefined when none is. */
export function malformedParams(body: unknown): JsonRpcError | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isObject(message) || message.method !== 'tools/call') continue;
    const problem = paramsProblem(message.params);
    if (problem === undefined) continue;
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
    return {
      jsonrpc: '2.0',
      id,
      error: { code: INVALID_PARAMS, message: `Invalid params for tools/call: ${problem}` },
    };
  }
  return undefined;
}

function paramsProblem(params: unknown): string | undefined {
  if (!isObject(params)) return `params must be an object with "name" and "arguments", not ${kind(params)}.`;
  if (typeof params.name !== 'string') return `"name" must be the tool's name as a string, not ${kind(params.name)}.`;
  if (params.arguments !== undefined && !isObject(params.arguments))
    return `"arguments" must be an object of the tool's arguments by name (e.g. {"company_number": "00445790"}), not ${kind(params.arguments)}.`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
