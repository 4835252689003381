/**
 * Hostile input over REST and MCP, on the embedded default and on PostgreSQL with Elasticsearch:
 * NUL bytes and other control characters, year 0000 and 9999, lone surrogates, long strings, SQL
 * and Elasticsearch query syntax, wrong content types, deep JSON. Every one is answered 200 or a
 * 4xx that names the parameter — never a 5xx, never a database's own message. Also the small
 * protocol rules found alongside: blank and unknown filter values, the contract's own e-mail
 * example, 405 with Allow, and the quota headers on an MCP call refused for the quota.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { usageMonth } from '../../src/domain/api-keys.ts';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { Answer } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

/** What no answer may carry: the words of a database's or search engine's own errors. */
const DRIVER_WORDS =
  /syntax error|invalid byte sequence|out of range|violates|relation "|column "|search_phase|shard|exception|stack|at .+\.ts:/i;

/** A REST call and its MCP twin, and what both must answer. */
interface Case {
  label: string;
  rest: string;
  tool: string;
  args: Record<string, unknown>;
  /** 'ok', or the parameter a 400 must name (REST name, then MCP argument name when it differs). */
  expect: 'ok' | { param: string; argument?: string; says?: RegExp };
}

const NUL = '\u0000';
const LONG_200 = 'A'.repeat(200);
const LONG_10K = 'B'.repeat(10_000);
const QUERY_SYNTAX = [
  "'; DROP TABLE companies; --",
  '" OR 1=1 --',
  'name:* OR status:active',
  '*',
  '?',
  '\\',
  '(((',
  ')',
  '[1 TO *]',
  '{"match_all":{}}',
  'tesco~1',
  '/.*/',
  'AND OR NOT',
  '%_',
  '$1',
  'acme && !widgets || +x -y',
];

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

function cases(): Case[] {
  const list: Case[] = [];
  // Year 0000 (no such year for PostgreSQL) and 9999 (the last one there is) in every date filter.
  for (const [rest, tool] of [
    ['/v1/stats', 'market_stats'],
    ['/v1/search', 'search_companies'],
    ['/v1/triggers?trigger=cash_rich', 'find_triggers'],
  ] as const) {
    const base = tool === 'find_triggers' ? { trigger: 'cash_rich' } : {};
    const join = rest.includes('?') ? '&' : '?';
    for (const param of ['incorporated_from', 'incorporated_to']) {
      list.push({
        label: `${tool} ${param}=0000-10-06`,
        rest: `${rest}${join}${param}=0000-10-06`,
        tool,
        args: { ...base, [param]: '0000-10-06' },
        expect: { param },
      });
      list.push({
        label: `${tool} ${param}=9999-12-31`,
        rest: `${rest}${join}${param}=9999-12-31`,
        tool,
        args: { ...base, [param]: '9999-12-31' },
        expect: 'ok',
      });
    }
  }
  // A NUL byte (and another control character) in every kind of string parameter.
  for (const bad of [`LE${NUL}EDS`, NUL, 'x\u0007y']) {
    const shown = JSON.stringify(bad);
    list.push(
      {
        label: `stats post_town=${shown}`,
        rest: `/v1/stats?${q({ post_town: bad })}`,
        tool: 'market_stats',
        args: { post_town: bad },
        expect: { param: 'post_town', says: /control characters/ },
      },
      {
        label: `search type=${shown}`,
        rest: `/v1/search?${q({ type: bad })}`,
        tool: 'search_companies',
        args: { type: bad },
        expect: { param: 'type', says: /control characters/ },
      },
      {
        label: `search-by-name name=${shown}`,
        rest: `/v1/search-by-name?${q({ name: bad })}`,
        tool: 'search_by_name',
        args: { name: bad },
        expect: { param: 'name', says: /control characters/ },
      },
      {
        label: `company number=${shown}`,
        rest: `/v1/company?${q({ number: bad })}`,
        tool: 'lookup_company',
        args: { company_number: bad },
        expect: { param: 'number', argument: 'company_number', says: /control characters/ },
      },
      {
        label: `compare a=${shown}`,
        rest: `/v1/compare?${q({ a: '1', b: bad })}`,
        tool: 'compare_companies',
        args: { company_a: '1', company_b: bad },
        expect: { param: 'b', argument: 'company_b', says: /control characters/ },
      },
      {
        label: `triggers trigger=${shown}`,
        rest: `/v1/triggers?${q({ trigger: bad })}`,
        tool: 'find_triggers',
        args: { trigger: bad },
        expect: { param: 'trigger' },
      },
    );
  }
  // Long strings: at the limit they are answered, far over it they are refused by name.
  list.push(
    {
      label: 'name of 200 characters',
      rest: `/v1/search-by-name?name=${LONG_200}`,
      tool: 'search_by_name',
      args: { name: LONG_200 },
      expect: 'ok',
    },
    {
      label: 'name of 10,000 characters',
      rest: `/v1/search-by-name?name=${LONG_10K}`,
      tool: 'search_by_name',
      args: { name: LONG_10K },
      expect: { param: 'name' },
    },
    {
      label: 'post_town of 200 characters',
      rest: `/v1/search?post_town=${LONG_200}`,
      tool: 'search_companies',
      args: { post_town: LONG_200 },
      expect: { param: 'post_town' },
    },
    {
      label: 'type of 10,000 characters',
      rest: `/v1/stats?type=${LONG_10K}`,
      tool: 'market_stats',
      args: { type: LONG_10K },
      expect: { param: 'type' },
    },
    {
      label: 'company number of 10,000 characters',
      rest: `/v1/company?number=${LONG_10K}`,
      tool: 'lookup_company',
      args: { company_number: LONG_10K },
      expect: { param: 'number', argument: 'company_number' },
    },
    {
      label: 'sic of 200 characters',
      rest: `/v1/search?sic=${'6'.repeat(200)}`,
      tool: 'search_companies',
      args: { sic: '6'.repeat(200) },
      expect: { param: 'sic' },
    },
  );
  // Query syntax of SQL and of Elasticsearch is only text: a name search for it answers.
  for (const text of QUERY_SYNTAX) {
    list.push(
      {
        label: `name=${JSON.stringify(text)}`,
        rest: `/v1/search-by-name?${q({ name: text })}`,
        tool: 'search_by_name',
        args: { name: text },
        expect: 'ok',
      },
      {
        label: `post_town=${JSON.stringify(text)}`,
        rest: `/v1/search?${q({ post_town: text })}`,
        tool: 'search_companies',
        args: { post_town: text },
        expect: 'ok',
      },
    );
  }
  return list;
}

/** A request with any method (fetch refuses TRACE), answered with its status, Allow and body. */
function rawRequest(
  base: string,
  method: string,
  path: string,
): Promise<{ status: number; allow: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, base), { method }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

function assertSafe(answer: Answer, label: string): void {
  assert.ok(answer.status < 500, `${label}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  assert.doesNotMatch(JSON.stringify(answer.body), DRIVER_WORDS, label);
}

for (const setup of setups) {
  describe(`hostile input on ${setup.name}`, () => {
    let world: World;
    let key: string;
    let rpcId = 0;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    const mcp = (body: unknown, headers: Record<string, string> = {}, k: string = key) =>
      call(world, '/mcp', { key: k, body, headers: { accept: 'application/json, text/event-stream', ...headers } });
    const toolCall = (tool: string, args: Record<string, unknown>) =>
      mcp({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: tool, arguments: args } });

    test('every hostile value gets 200 or a 400 naming its parameter, over REST and over MCP alike', async () => {
      for (const c of cases()) {
        const rest = await call(world, c.rest, { key });
        assertSafe(rest, `REST ${c.label}`);
        const tool = await toolCall(c.tool, c.args);
        assertSafe(tool, `MCP ${c.label}`);
        assert.equal(tool.status, 200, `MCP ${c.label}: a JSON-RPC answer`);
        assert.equal(tool.body.error, undefined, `MCP ${c.label}: a tool result, not a protocol error`);
        const result = tool.body.result as { isError?: boolean; content: { text: string }[] };
        if (c.expect === 'ok') {
          assert.equal(rest.status, 200, `REST ${c.label}: ${JSON.stringify(rest.body).slice(0, 300)}`);
          assert.ok(!result.isError, `MCP ${c.label}: ${result.content[0]!.text}`);
          continue;
        }
        const { param, argument = param, says } = c.expect;
        assert.equal(rest.status, 400, `REST ${c.label}: ${JSON.stringify(rest.body).slice(0, 300)}`);
        assert.ok(rest.body.error.includes(`"${param}"`), `REST ${c.label} names ${param}: ${rest.body.error}`);
        if (says) assert.match(rest.body.error, says, `REST ${c.label}`);
        assert.equal(result.isError, true, `MCP ${c.label}`);
        const text = result.content[0]!.text;
        assert.ok(text.includes(`"${argument}"`), `MCP ${c.label} names ${argument}: ${text}`);
        if (says) assert.match(text, says, `MCP ${c.label}`);
      }
    });

    test('a lone surrogate in a JSON body or MCP argument is refused by name', async () => {
      // In a URL one cannot travel: its UTF-8 bytes are invalid and decode to U+FFFD, plain text.
      assert.equal((await call(world, '/v1/search-by-name?name=%ED%A0%80abc', { key })).status, 200);
      const added = await call(world, '/v1/watchlist/add', { key, body: '{"company_numbers":["0000000\\ud800"]}' });
      assert.equal(added.status, 400);
      assert.match(added.body.error, /"company_numbers\[0\]": must be valid Unicode text/);
      const tool = await toolCall('watch_add', { company_numbers: ['\uD800'] });
      assert.match(tool.body.result.content[0].text, /"company_numbers\[0\]": must be valid Unicode text/);
      const named = await toolCall('search_by_name', { name: 'x\uDC00' });
      assert.equal(named.body.result.isError, true);
      assert.match(named.body.result.content[0].text, /"name": must be valid Unicode text/);
      const freeKey = await call(world, '/v1/keys/free', { body: '{"email":"a\\u0000@b.c"}' });
      assert.equal(freeKey.status, 400);
      assert.match(freeKey.body.error, /"email"/);
    });

    test('wrong content types and deep JSON are 4xx, never 5xx', async () => {
      const deep = `{"company_numbers":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
      const deepObject = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
      const attempts: [string, Parameters<typeof call>[2]][] = [
        ['/v1/watchlist/add', { key, body: 'company_numbers=00000001', headers: { 'content-type': 'text/plain' } }],
        [
          '/v1/watchlist/add',
          {
            key,
            body: 'company_numbers=00000001',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          },
        ],
        [
          '/v1/watchlist/add',
          {
            key,
            body: '--x\r\nContent-Disposition: form-data; name="company_numbers"\r\n\r\n1\r\n--x--\r\n',
            headers: { 'content-type': 'multipart/form-data; boundary=x' },
          },
        ],
        ['/v1/watchlist/add', { key, body: '{"company_numbers":["1"]', headers: {} }],
        ['/v1/watchlist/add', { key, body: '["00000001"]' }],
        ['/v1/watchlist/add', { key, body: 'null' }],
        ['/v1/watchlist/add', { key, body: deep }],
        ['/v1/watchlist/add', { key, body: deepObject }],
        ['/v1/keys/free', { body: deep }],
        ['/v1/keys/free', { body: deepObject }],
        ['/v1/keys/free', { body: 'email=a@b.c', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
        ['/mcp', { key, body: deep, headers: { accept: 'application/json, text/event-stream' } }],
        ['/mcp', { key, body: deepObject, headers: { accept: 'application/json, text/event-stream' } }],
        [
          '/mcp',
          {
            key,
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }),
            headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
          },
        ],
      ];
      for (const [path, options] of attempts) {
        const label = `${path} ${JSON.stringify(options!.headers ?? {})} ${String(options!.body).slice(0, 40)}`;
        const answer = await call(world, path, options);
        assertSafe(answer, label);
        assert.ok(answer.status >= 400, `${label}: refused, got ${answer.status}`);
      }
      const deepArgs = JSON.parse(`${'['.repeat(1_000)}${']'.repeat(1_000)}`) as unknown;
      const tool = await toolCall('watch_add', { company_numbers: deepArgs });
      assertSafe(tool, 'MCP deep arguments');
      assert.equal(tool.body.result.isError, true);
    });

    test('blank strings and unknown enumerated values are 400s listing what is accepted', async () => {
      const blank = await call(world, '/v1/search?post_town=%20', { key });
      assert.equal(blank.status, 400);
      assert.match(blank.body.error, /"post_town": must not be blank/);
      const blankName = await call(world, '/v1/search-by-name?name=%20%20', { key });
      assert.equal(blankName.status, 400);
      assert.match(blankName.body.error, /"name": must not be blank/);
      const widget = await call(world, '/v1/search?type=widget', { key });
      assert.equal(widget.status, 400);
      assert.match(widget.body.error, /"type": must be one of ltd, .*plc.*Private Limited Company/);
      const tool = await toolCall('market_stats', { type: 'widget' });
      assert.match(tool.body.result.content[0].text, /"type": must be one of ltd/);
      // The short names and the register's categories, in any case, still filter.
      for (const type of ['ltd', 'PLC', 'private limited company', 'Limited Liability Partnership'])
        assert.equal((await call(world, `/v1/search?${q({ type })}`, { key })).status, 200, type);
      const status = await call(world, '/v1/search?status=widget', { key });
      assert.equal(status.status, 400);
      assert.match(status.body.error, /"status": must be one of active/);
    });

    test("the contract's own free-key example is accepted; a thing that is no address is not", async () => {
      for (const email of ['a@b.c', 'first.last+tag@example.co.uk', 'x@localhost']) {
        const created = await call(world, '/v1/keys/free', { body: { email } });
        assert.equal(created.status, 201, `${email}: ${JSON.stringify(created.body)}`);
      }
      for (const email of ['a@b@c', '@b.c', 'a@', 'a b@c.d', `${'a'.repeat(250)}@b.cd`, '']) {
        const refused = await call(world, '/v1/keys/free', { body: { email } });
        assert.equal(refused.status, 400, email);
        assert.match(refused.body.error, /"email"/);
      }
    });

    test('a method a path does not take is 405 with Allow; an unknown path is 404', async () => {
      for (const method of ['TRACE', 'PUT', 'DELETE', 'PATCH', 'PROPFIND']) {
        const answer = await rawRequest(world.url, method, '/v1/company?number=1');
        assert.equal(answer.status, 405, method);
        assert.match(answer.allow ?? '', /\bGET\b/, method);
        assert.match(answer.body, new RegExp(`${method} is not allowed on /v1/company`));
      }
      const post = await rawRequest(world.url, 'GET', '/v1/watchlist/add');
      assert.equal(post.status, 405);
      assert.equal(post.allow, 'POST');
      const unknown = await rawRequest(world.url, 'TRACE', '/v1/nothing');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.allow, undefined);
      assert.match(unknown.body, /No such endpoint/);
    });

    test('an MCP call refused for the quota carries the X-RateLimit headers, as REST does', async () => {
      const free = await world.issueKey('free');
      const [record] = await world.keys.listKeys(usageMonth(NOW), free.slice(0, 13));
      for (let i = 0; i < 50; i++) await world.keys.consumeRequest(record!.id, usageMonth(NOW), 50);
      const rest = await call(world, '/v1/company?number=1', { key: free });
      assert.equal(rest.status, 429);
      const refused = await mcp(
        { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: 'lookup_company', arguments: {} } },
        {},
        free,
      );
      assert.match(refused.body.result.content[0].text, /^Monthly quota exceeded/);
      for (const header of ['limit', 'remaining', 'reset'])
        assert.equal(
          refused.headers.get(`x-ratelimit-${header}`),
          rest.headers.get(`x-ratelimit-${header}`),
          `x-ratelimit-${header}`,
        );
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    });
  });
}
