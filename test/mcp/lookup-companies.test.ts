/**
 * The batch lookup as the MCP tool lookup_companies, with the SDK's own client over real HTTP, on
 * the embedded default and on PostgreSQL with Elasticsearch: 100 numbers in one call, the same
 * Markdown as REST, each distinct number counted, all or none (a refused batch counts nothing,
 * and its HTTP answer carries the quota left), and bad arguments refused naming company_numbers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { call, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { moreCompanies } from '../support/batch-fixtures.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const MONTH = usageMonth(NOW);

function textOf(result: CallToolResult): string {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  return (result.content[0] as { text: string }).text;
}

for (const setup of setups) {
  describe(`MCP lookup_companies on ${setup.name}`, () => {
    let world: World;
    const clients: Client[] = [];
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.loadRegister(moreCompanies, '2025-01-01');
    });
    after(async () => {
      for (const client of clients) await client.close();
      await world.close();
    });

    async function connectWith(key: string): Promise<Client> {
      const client = new Client({ name: 'ukcd-test', version: '0.0.0' });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      return client;
    }
    const lookup = async (client: Client, args: Record<string, unknown>) =>
      (await client.callTool({ name: 'lookup_companies', arguments: args })) as CallToolResult;
    const usage = async (key: string) =>
      (await world.keys.listKeys(MONTH, keyPrefix(key))).find((k) => k.prefix === keyPrefix(key))!.used;

    test('the tool is listed, read-only, with 1–100 company numbers', async () => {
      const client = await connectWith(await world.issueKey('free'));
      const tool = (await client.listTools()).tools.find((t) => t.name === 'lookup_companies');
      assert.ok(tool);
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.deepEqual(tool.inputSchema.required, ['company_numbers']);
      const numbers = (tool.inputSchema.properties as Record<string, Record<string, unknown>>).company_numbers!;
      assert.deepEqual([numbers.type, numbers.minItems, numbers.maxItems], ['array', 1, 100]);
      assert.match(tool.description ?? '', /counts one request/);
    });

    test('100 numbers in one call: the same Markdown as REST, 100 counted', async () => {
      const key = await world.issueKey('pro');
      const client = await connectWith(key);
      const numbers = [...moreCompanies.slice(0, 98).map((c) => c.number), '1', '77777777'];
      const result = await lookup(client, { company_numbers: numbers });
      assert.ok(!result.isError, JSON.stringify(result).slice(0, 300));
      const text = textOf(result);
      assert.match(text, /^# 99 of 100 companies found/);
      assert.match(text, /\| 00100097 \| BATCH COMPANY 97 LIMITED \| Active \|/);
      assert.match(text, /\*\*Not on the register \(1\):\*\* 77777777/);
      assert.equal(await usage(key), 100);
      const rest = await call(world, '/v1/companies', { key, body: { company_numbers: numbers } });
      assert.equal(rest.status, 200);
      assert.equal(markdown(rest), text);
    });

    test('quota: a batch needing more than is left is refused with the REST text and counts nothing', async () => {
      const key = await world.issueKey('free');
      const id = (await world.keys.listKeys(MONTH, keyPrefix(key)))[0]!.id;
      await world.keys.consumeRequests(id, MONTH, 50, 45);
      const client = await connectWith(key);
      const refused = await lookup(client, { company_numbers: moreCompanies.slice(0, 10).map((c) => c.number) });
      assert.equal(refused.isError, true);
      assert.equal(
        textOf(refused),
        'Monthly quota exceeded: this call needs 10 requests and 5 are left. It resets at 2025-07-01T00:00:00Z.',
      );
      assert.equal(await usage(key), 45);
      // The raw HTTP answer of a refused batch says how many are left.
      const raw = await call(world, '/mcp', {
        key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'lookup_companies',
            arguments: { company_numbers: moreCompanies.slice(0, 6).map((c) => c.number) },
          },
        },
      });
      assert.equal(raw.body.result.isError, true);
      assert.equal(raw.headers.get('x-ratelimit-remaining'), '5');
      const fits = await lookup(client, { company_numbers: moreCompanies.slice(0, 5).map((c) => c.number) });
      assert.match(textOf(fits), /^# 5 of 5 companies found/);
      assert.equal(await usage(key), 50);
    });

    test('concurrent batches never pass the quota', async () => {
      const key = await world.issueKey('free');
      const client = await connectWith(key);
      const batch = moreCompanies.slice(0, 20).map((c) => c.number);
      const results = await Promise.all(Array.from({ length: 6 }, () => lookup(client, { company_numbers: batch })));
      // 50 a month, 20 a batch: exactly two answer.
      assert.equal(results.filter((r) => !r.isError).length, 2);
      for (const r of results.filter((r) => r.isError))
        assert.match(textOf(r), /^Monthly quota exceeded: this call needs 20 requests and 10 are left/);
      assert.equal(await usage(key), 40);
    });

    test('bad arguments are tool errors naming company_numbers, each counted one', async () => {
      const key = await world.issueKey('pro');
      const client = await connectWith(key);
      const cases: [args: Record<string, unknown>, error: RegExp][] = [
        [{}, /^Missing required parameter "company_numbers"/],
        [{ company_numbers: [] }, /^Invalid "company_numbers": must list at least 1 company number\.$/],
        [
          { company_numbers: Array.from({ length: 101 }, (_, i) => String(i + 1)) },
          /^Invalid "company_numbers": must list at most 100 company numbers\.$/,
        ],
        [{ company_numbers: ['1', '2', 'SC-1'] }, /^Invalid "company_numbers\[2\]": must be a company number/],
        [
          { company_numbers: ['1'], company_number: '2' },
          /^Unknown argument "company_number"\. Accepted: company_numbers\.$/,
        ],
      ];
      for (const [args, error] of cases) {
        const result = await lookup(client, args);
        assert.equal(result.isError, true, JSON.stringify(args).slice(0, 80));
        assert.match(textOf(result), error, JSON.stringify(args).slice(0, 80));
      }
      assert.equal(await usage(key), cases.length);
    });
  });
}
