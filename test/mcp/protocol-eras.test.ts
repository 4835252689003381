/**
 * Both protocol eras from one set of tools, over real HTTP on the embedded store: a 2026-07-28
 * client (the v2 SDK's own Client, pinned, and negotiating with `server/discover`) lists the same
 * tools as a 2025-11-25 client, with cache hints on tools/list, and calls them with the same
 * refusals and counting; raw requests of each era get JSON answers. Also what /mcp says of the
 * methods it does not serve, malformed tools/call params, and the CORS preflight.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { keepConnectionsAlive } from '../../src/app/app.ts';
import { keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const MODERN = '2026-07-28';
const ACCEPT = 'application/json, text/event-stream';

describe('MCP protocol eras on the embedded store', () => {
  let world: World;
  const closers: (() => Promise<void>)[] = [];
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
  });
  after(async () => {
    for (const close of closers) await close();
    await world.close();
  });

  async function modern(key?: string, mode: 'pin' | 'auto' = 'pin'): Promise<Client> {
    const client = new Client(
      { name: 'ukcd-test', version: '0.0.0' },
      { versionNegotiation: { mode: mode === 'pin' ? { pin: MODERN } : 'auto' } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), {
        requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
      }),
    );
    closers.push(() => client.close());
    return client;
  }
  const usage = async (key: string) =>
    (await world.keys.listKeys(usageMonth(NOW), keyPrefix(key))).find((k) => k.prefix === keyPrefix(key))!.used;

  test('a 2026-07-28 client lists the same tools as a 2025-11-25 one, pinned or negotiated', async () => {
    const legacy = new LegacyClient({ name: 'ukcd-test', version: '0.0.0' });
    await legacy.connect(new LegacyTransport(new URL(`${world.url}/mcp`)));
    closers.push(() => legacy.close());
    const old = (await legacy.listTools()).tools;
    for (const mode of ['pin', 'auto'] as const) {
      const client = await modern(undefined, mode);
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        OPERATIONS.map((o) => o.name),
        mode,
      );
      assert.deepEqual(JSON.parse(JSON.stringify(tools)), JSON.parse(JSON.stringify(old)), mode);
    }
  });

  test('calls over 2026-07-28: Markdown and structuredContent, the REST refusals, one request each', async () => {
    const key = await world.issueKey('free');
    const client = await modern(key);
    const answer = (await client.callTool({
      name: 'lookup_company',
      arguments: { company_number: '1' },
    })) as CallToolResult;
    assert.ok(!answer.isError, JSON.stringify(answer));
    assert.match((answer.content[0] as { text: string }).text, /^# ACME WIDGETS LIMITED \(00000001\)/);
    assert.equal(
      (answer.structuredContent as { company: { company_number: string } }).company.company_number,
      '00000001',
    );
    const refused = (await client.callTool({
      name: 'lookup_company',
      arguments: { company_number: '99' },
    })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.equal((refused.content[0] as { text: string }).text, 'Company 00000099 not found.');
    assert.equal(await usage(key), 2);
    const anonymous = (await (await modern()).callTool({ name: 'watch_list', arguments: {} })) as CallToolResult;
    assert.equal(
      (anonymous.content[0] as { text: string }).text,
      'Missing API key. Send Authorization: Bearer <API_KEY>.',
    );
  });

  test('raw 2026-07-28 tools/list: a JSON answer with its cache hint; server/discover names the era', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = { accept: ACCEPT, 'mcp-protocol-version': MODERN };
    const list = await call(world, '/mcp', {
      headers: { ...headers, 'mcp-method': 'tools/list' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } },
    });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.match(list.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(list.body.result.tools.length, OPERATIONS.length);
    assert.equal(list.body.result.ttlMs, 3_600_000);
    assert.equal(list.body.result.cacheScope, 'public');
    const discover = await call(world, '/mcp', {
      headers: { ...headers, 'mcp-method': 'server/discover' },
      body: { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } },
    });
    assert.equal(discover.status, 200, JSON.stringify(discover.body));
    assert.ok(discover.body.result.supportedVersions.includes(MODERN), JSON.stringify(discover.body));
    assert.ok(discover.body.result.capabilities.tools);
  });

  test('tools/call with malformed params: -32602 saying what is wrong in words, for either era, not counted', async () => {
    const key = await world.issueKey('free');
    for (const [params, pattern] of [
      [{ name: 'lookup_company', arguments: 'x' }, /"arguments" must be an object of the tool's arguments by name/],
      [{ name: 'lookup_company', arguments: [1] }, /"arguments" must be an object .*not an array/],
      [{ name: 7 }, /"name" must be the tool's name as a string, not a number/],
      ['x', /params must be an object with "name" and "arguments", not a string/],
    ] as const) {
      const answer = await call(world, '/mcp', {
        key,
        headers: { accept: ACCEPT },
        body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.id, 9);
      assert.equal(answer.body.error.code, -32602, JSON.stringify(answer.body));
      assert.match(answer.body.error.message, /^Invalid params for tools\/call: /);
      assert.match(answer.body.error.message, pattern);
      assert.doesNotMatch(answer.body.error.message, /invalid_type|"path"|"code"/);
    }
    assert.equal(await usage(key), 0);
  });

  test('/mcp takes POST only, and says so: 405 with Allow: POST for every other method', async () => {
    for (const method of ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH']) {
      const answer = await call(world, '/mcp', { method, headers: { accept: 'text/event-stream' } });
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.get('allow'), 'POST', method);
    }
  });

  test('CORS preflight for /mcp allows what a browser client sends: POST, its headers', async () => {
    const answer = await call(world, '/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    assert.equal(answer.status, 204);
    assert.match(answer.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
    assert.doesNotMatch(answer.headers.get('access-control-allow-methods') ?? '', /DELETE/);
    assert.match(answer.headers.get('access-control-allow-headers') ?? '', /mcp-protocol-version/i);
    // Without a list of headers asked for, the ones the transports of both eras send.
    const bare = await call(world, '/mcp', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    for (const header of ['Authorization', 'Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name'])
      assert.ok((bare.headers.get('access-control-allow-headers') ?? '').split(', ').includes(header), header);
    assert.match(answer.headers.get('access-control-expose-headers') ?? '', /X-RateLimit-Remaining/);
  });
});

test('connections stay open 65 s between requests, longer than clients keep theirs', () => {
  const server = keepConnectionsAlive(createServer());
  assert.ok(server.keepAliveTimeout >= 65_000, String(server.keepAliveTimeout));
  assert.ok(server.headersTimeout > server.keepAliveTimeout, String(server.headersTimeout));
});
