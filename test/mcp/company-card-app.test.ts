/**
 * The company card as an MCP App, through the SDK's own client over real HTTP: lookup_company's
 * tools/list entry names the ui:// document, resources/list and resources/read serve it with the
 * extension's MIME type and a CSP that allows nothing external (every script and style inline,
 * allowed by hash), and a client that knows nothing of MCP Apps gets the tool's result as REST
 * gives it, unchanged.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { lookupCompany } from '../../src/operations/lookup-company.ts';
import { call, markdown } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { restJson } from '../support/rest-json.ts';
import { HISTORY, loadWebFixtures, NOW } from '../web/support/web-fixtures.ts';

const CARD = 'ui://ukcd/company-card.html';

describe('the company card MCP App', () => {
  let world: World;
  const clients: Client[] = [];
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
  });
  after(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  async function connect(query = '', key?: string): Promise<Client> {
    const client = new Client({ name: 'ukcd-test', version: '0.0.0' });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${world.url}/mcp${query}`), {
        requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
      }),
    );
    return client;
  }

  test('the lookups name the card in _meta.ui.resourceUri; no other tool has a view', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const name of ['lookup_company', 'lookup_companies'])
      assert.deepEqual(tools.find((t) => t.name === name)?._meta, { ui: { resourceUri: CARD } });
    assert.deepEqual(
      tools.filter((t) => t._meta !== undefined).map((t) => t.name),
      ['lookup_company', 'lookup_companies'],
    );
    assert.ok(client.getServerCapabilities()?.resources, 'resources capability');
    // A toolset without lookup_company lists no view, and declares no resources.
    const webhooks = await connect('?toolsets=webhooks');
    assert.ok((await webhooks.listTools()).tools.every((t) => t._meta === undefined));
    assert.equal(webhooks.getServerCapabilities()?.resources, undefined);
  });

  test('resources/list and resources/read serve the document: MCP App MIME type, nothing external', async () => {
    const client = await connect(); // no key: the document holds no data
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((r) => [r.uri, r.mimeType]),
      [[CARD, 'text/html;profile=mcp-app']],
    );
    const { contents } = await client.readResource({ uri: CARD });
    assert.equal(contents.length, 1);
    const document = contents[0] as TextResourceContents;
    assert.equal(document.uri, CARD);
    assert.equal(document.mimeType, 'text/html;profile=mcp-app');
    // The extension's declaration: no connect or resource domains, the host's strictest policy.
    assert.deepEqual(document._meta, {
      ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
    });
    const html = document.text;
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    // Nothing loaded from anywhere: no src or href attribute, no <link>, one inline script and style.
    assert.doesNotMatch(html, /<(script|img|iframe|link)\b[^>]*\b(src|href)=/i);
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    assert.equal(scripts.length, 1);
    assert.equal(styles.length, 1);
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    assert.equal(
      policy,
      `default-src 'none'; script-src ${sha(scripts[0]!)}; style-src ${sha(styles[0]!)}; img-src 'none'; ` +
        "connect-src 'none'; base-uri 'none'; form-action 'none'",
    );
    // The App API is in the bundle: it speaks the extension's protocol to its host.
    assert.match(scripts[0]!, /ui\/initialize/);
    // Read again: the same document (built once).
    assert.equal(((await client.readResource({ uri: CARD })).contents[0] as TextResourceContents).text, html);
  });

  test('a 2026-07-28 client gets the same tool _meta and the same document', async () => {
    const legacy = await connect();
    const modern = new ModernClient(
      { name: 'ukcd-test', version: '0.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new ModernTransport(new URL(`${world.url}/mcp`)));
    try {
      const lookup = (await modern.listTools()).tools.find((t) => t.name === 'lookup_company');
      assert.deepEqual(lookup?._meta, { ui: { resourceUri: CARD } });
      const [document] = (await modern.readResource({ uri: CARD })).contents;
      const [before] = (await legacy.readResource({ uri: CARD })).contents;
      assert.deepEqual(document, before);
    } finally {
      await modern.close();
    }
  });

  test('an unknown ui:// resource is refused with its URI named', async () => {
    const client = await connect();
    // (The SDK's ResourceNotFoundError: -32602, invalid params, as the 2025-11-25 spec has it.)
    await assert.rejects(client.readResource({ uri: 'ui://ukcd/nothing.html' }), {
      code: -32602,
      message: /No resource ui:\/\/ukcd\/nothing\.html\. Resources: ui:\/\/ukcd\/company-card\.html\./,
    });
  });

  test('a client without MCP Apps gets the result REST gives, nothing added', async () => {
    const key = await world.issueKey('pro');
    const client = await connect('', key);
    const result = (await client.callTool({
      name: 'lookup_company',
      arguments: { company_number: HISTORY },
    })) as CallToolResult;
    assert.deepEqual(Object.keys(result).sort(), ['content', 'structuredContent']);
    const rest = await call(world, `/v1/company?number=${HISTORY}`, { key });
    assert.equal((result.content[0] as { text: string }).text, markdown(rest));
    assert.deepEqual(result.structuredContent, await restJson(world, key, lookupCompany, { company_number: HISTORY }));
  });
});
