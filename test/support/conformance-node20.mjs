// Lets the MCP conformance CLI (@modelcontextprotocol/conformance) load on Node 20: it imports
// fs.globSync (Node 22) at the top of its one bundle, for its `tier-check` command only, so on
// Node 20 the whole CLI fails to link. This loader hook hands that bundle a node:fs with a
// globSync that says so; the server scenarios the tests run never call it.
// Used as `node --import ./test/support/conformance-node20.mjs <cli>`.
import { register } from 'node:module';

const SHIM =
  'data:text/javascript,' +
  encodeURIComponent(
    "import fs from 'node:fs'; export * from 'node:fs'; export default fs;" +
      " export function globSync() { throw new Error('fs.globSync needs Node 22 (conformance tier-check)'); }",
  );

export async function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    context.parentURL?.includes('/@modelcontextprotocol/conformance/')
  )
    return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}

if (!('globSync' in (await import('node:fs')))) register(import.meta.url);
