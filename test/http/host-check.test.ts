/**
 * DNS rebinding protection over real HTTP, on the embedded store: /mcp and the web pages' form
 * posts refuse a Host or an Origin that is not a name the service answers to (403, a JSON-RPC
 * error on /mcp and an HTML page on the forms) and run nothing; localhost names pass on a service
 * bound to loopback, ALLOWED_HOSTS names on one that is not; the REST API is not checked. Also
 * the setting itself: what allowedHostsFor makes of HOST and ALLOWED_HOSTS, and its refusals.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { allowedHostsFor } from '../../src/app/host-check.ts';
import { loadConfig } from '../../src/config.ts';
import { keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

interface Raw {
  status: number;
  type: string;
  text: string;
}

/** A request with exactly these headers, Host included (fetch will not send a Host of our choosing). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

describe('Host and Origin checks on a service bound to loopback (the default)', () => {
  let world: World;
  let port: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
    port = new URL(world.url).port;
  });
  after(() => world.close());

  const mcp = (headers: Record<string, string>, body = TOOLS_LIST) =>
    raw(`${world.url}/mcp`, 'POST', { ...MCP_HEADERS, ...headers }, body);

  test('/mcp answers the localhost names, with or without a port, and a matching Origin', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST', '127.0.0.1']) {
      const answer = await mcp({ host });
      assert.equal(answer.status, 200, `${host}: ${answer.text}`);
      assert.ok(JSON.parse(answer.text).result.tools.length > 0, host);
    }
    for (const origin of [`http://localhost:${port}`, 'http://127.0.0.1:6274', 'https://[::1]'])
      assert.equal((await mcp({ host: `localhost:${port}`, origin })).status, 200, origin);
  });

  test('/mcp refuses another Host or Origin with 403 and a JSON-RPC error in words, and runs nothing', async () => {
    const key = await world.issueKey('free');
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'watch_add', arguments: { company_numbers: ['1'] } },
    });
    for (const headers of [
      { host: 'evil.com' } as Record<string, string>,
      { host: `evil.com:${port}` },
      { host: `localhost.evil.com:${port}` },
      { host: `localhost:${port}`, origin: 'http://evil.com' },
      { host: `localhost:${port}`, origin: `http://evil.com:${port}` },
      { host: `localhost:${port}`, origin: 'null' },
      { host: 'evil.com', origin: 'http://evil.com' },
    ]) {
      const answer = await mcp({ ...headers, authorization: `Bearer ${key}` }, call);
      assert.equal(answer.status, 403, JSON.stringify(headers));
      assert.match(answer.type, /application\/json/);
      const body = JSON.parse(answer.text);
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.id, null);
      assert.equal(body.error.code, -32000);
      assert.match(body.error.message, /^Refused: this request names a host this service does not serve/);
    }
    // Nothing counted, nothing written.
    const [record] = await world.keys.listKeys(usageMonth(NOW), keyPrefix(key));
    assert.equal(record!.used, 0);
    const watched = await world.sql.query('SELECT 1 FROM watchlist_entries WHERE key_id = $1', [record!.id]);
    assert.equal(watched.rowCount, 0);
    // GET and DELETE are refused the same way before anything else answers them.
    assert.equal((await raw(`${world.url}/mcp`, 'GET', { host: 'evil.com', accept: 'text/event-stream' })).status, 403);
  });

  test('a web form post from a rebound name is refused with a 403 page; from localhost it reaches the form', async () => {
    const form = 'key=ukcd_nope&csrf=x';
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };
    const refused = await raw(
      `${world.url}/sign-in`,
      'POST',
      {
        ...headers,
        host: `evil.com:${port}`,
        origin: `http://evil.com:${port}`,
      },
      form,
    );
    assert.equal(refused.status, 403);
    assert.match(refused.type, /text\/html/);
    assert.match(refused.text, /<h1>Request refused<\/h1>/);
    const badOrigin = await raw(
      `${world.url}/watchlist/add`,
      'POST',
      {
        ...headers,
        host: `127.0.0.1:${port}`,
        origin: 'http://evil.com',
      },
      'company_number=1',
    );
    assert.equal(badOrigin.status, 403);
    // From this machine's own name the post gets to the form's own checks (a stale CSRF token: 400).
    const local = await raw(
      `${world.url}/sign-in`,
      'POST',
      {
        ...headers,
        host: `localhost:${port}`,
        origin: `http://localhost:${port}`,
      },
      form,
    );
    assert.equal(local.status, 400, local.text);
  });

  test('pages and the REST API are not checked: they answer any Host', async () => {
    assert.equal((await raw(`${world.url}/`, 'GET', { host: 'evil.com' })).status, 200);
    const key = await world.issueKey('pro');
    const rest = await raw(`${world.url}/v1/company?number=1`, 'GET', {
      host: 'evil.com',
      origin: 'http://evil.com',
      authorization: `Bearer ${key}`,
    });
    assert.equal(rest.status, 200);
  });
});

describe('Host and Origin checks on a service on a public address', () => {
  let world: World;
  before(async () => {
    world = await startWorld({
      store: testStores[0]!,
      search: 'postgres',
      now: NOW,
      allowedHosts: allowedHostsFor('0.0.0.0', ['api.example.com']),
    });
  });
  after(() => world.close());

  test('only the ALLOWED_HOSTS names pass; localhost is not one of them', async () => {
    const mcp = (headers: Record<string, string>) =>
      raw(`${world.url}/mcp`, 'POST', { ...MCP_HEADERS, ...headers }, TOOLS_LIST);
    assert.equal((await mcp({ host: 'api.example.com' })).status, 200);
    assert.equal((await mcp({ host: 'API.example.com:443', origin: 'https://api.example.com' })).status, 200);
    assert.equal((await mcp({ host: 'localhost' })).status, 403);
    assert.equal((await mcp({ host: 'api.example.com', origin: 'https://evil.com' })).status, 403);
  });
});

test('allowedHostsFor: localhost names on loopback, ALLOWED_HOSTS elsewhere, * or nothing means any', () => {
  const cases: { name: string; host: string; configured?: string[]; want: unknown }[] = [
    { name: 'default bind', host: '127.0.0.1', want: ['localhost', '127.0.0.1', '[::1]'] },
    { name: 'IPv6 loopback', host: '::1', want: ['localhost', '127.0.0.1', '[::1]'] },
    { name: 'localhost by name', host: 'localhost', want: ['localhost', '127.0.0.1', '[::1]'] },
    {
      name: 'loopback plus names',
      host: '127.0.0.1',
      configured: ['ukcd.test'],
      want: ['localhost', '127.0.0.1', '[::1]', 'ukcd.test'],
    },
    { name: 'public with names', host: '0.0.0.0', configured: ['api.example.com'], want: ['api.example.com'] },
    { name: 'public without names', host: '0.0.0.0', want: 'any' },
    { name: 'star', host: '127.0.0.1', configured: ['*'], want: 'any' },
  ];
  for (const { name, host, configured, want } of cases) assert.deepEqual(allowedHostsFor(host, configured), want, name);
});

test('ALLOWED_HOSTS: comma-separated names, lower-cased; a URL or a port is refused naming it', () => {
  assert.deepEqual(loadConfig({ ALLOWED_HOSTS: 'API.example.com, 10.0.0.5,::1' }).ALLOWED_HOSTS, [
    'api.example.com',
    '10.0.0.5',
    '::1',
  ]);
  assert.equal(loadConfig({}).ALLOWED_HOSTS, undefined);
  for (const bad of ['https://api.example.com', 'api.example.com:443', 'a.com,*'])
    assert.throws(
      () => loadConfig({ ALLOWED_HOSTS: bad }),
      (error: Error) => {
        assert.match(error.message, /ALLOWED_HOSTS/);
        assert.match(error.message, /is not a host name or an IP address/);
        return true;
      },
    );
});
