/**
 * server.json, the entry for the official MCP registry (docs/mcp-registry.md): the fields and
 * limits the registry checks on publishing (one slash in a reverse-DNS name, a description of at
 * most 100 characters, an exact version) and what the service really serves: the package's
 * version, streamable HTTP at /mcp, and the key as an optional secret Authorization header.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;

interface Remote {
  type: string;
  url: string;
  variables?: Record<string, { isRequired?: boolean }>;
  headers?: { name: string; isRequired?: boolean; isSecret?: boolean }[];
}

test('server.json describes the service as the registry wants it', () => {
  const server = read('server.json');
  assert.match(
    String(server.$schema),
    /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/,
  );
  assert.match(String(server.name), /^[a-z0-9]+(\.[a-z0-9-]+)+\/[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$/);
  assert.ok(String(server.description).length <= 100, `description: ${String(server.description).length} characters`);
  assert.equal(server.version, read('package.json').version);
  const remotes = server.remotes as Remote[];
  assert.equal(remotes.length, 1);
  const [remote] = remotes;
  assert.equal(remote!.type, 'streamable-http');
  assert.match(remote!.url, /^https:\/\/\{host\}\/mcp$/);
  assert.equal(remote!.variables?.host?.isRequired, true);
  assert.deepEqual(
    remote!.headers?.map(({ name, isRequired, isSecret }) => ({ name, isRequired, isSecret })),
    [{ name: 'Authorization', isRequired: false, isSecret: true }],
  );
});
