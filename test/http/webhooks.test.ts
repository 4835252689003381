/**
 * The webhook endpoint operations end to end over REST and MCP, on the embedded default (PGlite):
 * register with the secret shown once, list without secrets, plan limits, the URL policy and
 * input errors naming the parameter. The world allows private addresses (receivers on
 * 127.0.0.1); the refusal without that flag runs the operation on the same store with it off.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AppError } from '../../src/errors.ts';
import { openWebhookStore, WEBHOOK_SECRET_KEY_FILE } from '../../src/open-store.ts';
import { webhookCreate, WEBHOOK_EVENT_TYPES } from '../../src/operations/webhooks.ts';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

describe('webhook endpoints over HTTP', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
  });
  after(() => world.close());

  test('registers an endpoint, shows its secret once, and lists it without', async () => {
    const key = await world.issueKey('pro');
    const created = await call(world, '/v1/webhooks?format=json', {
      key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['alert.status_change'], description: 'ops' },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.match(created.body.secret, /^whsec_/);
    assert.match(created.body.endpoint.id, /^wh_/);
    assert.deepEqual(created.body.endpoint.events, ['alert.status_change']);
    assert.equal(created.body.endpoint.description, 'ops');

    const all = await call(world, '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/all' } });
    assert.equal(all.status, 200);
    assert.match(markdown(all), /Signing secret \(shown once, keep it\):\*\* `whsec_/);

    const listed = await call(world, '/v1/webhooks?format=json', { key });
    assert.equal(listed.status, 200);
    assert.equal(listed.body.plan, 'pro');
    assert.equal(listed.body.limit, 10);
    assert.equal(listed.body.count, 2);
    assert.deepEqual(
      listed.body.endpoints.map((e: { url: string }) => e.url),
      ['http://127.0.0.1:9/hook', 'http://127.0.0.1:9/all'],
    );
    assert.deepEqual(listed.body.endpoints[1].events, WEBHOOK_EVENT_TYPES);
    assert.ok(!JSON.stringify(listed.body).includes('whsec_'), 'the list shows no secret');
  });

  test("lists only the calling key's endpoints", async () => {
    const mine = await world.issueKey('free');
    const theirs = await world.issueKey('free');
    await call(world, '/v1/webhooks', { key: theirs, body: { url: 'http://127.0.0.1:9/theirs' } });
    const listed = await call(world, '/v1/webhooks?format=json', { key: mine });
    assert.equal(listed.body.count, 0);
    assert.deepEqual(listed.body.endpoints, []);
  });

  test('refuses an endpoint over the plan limit with 409', async () => {
    const key = await world.issueKey('free');
    const first = await call(world, '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/one' } });
    assert.equal(first.status, 200);
    const second = await call(world, '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/two' } });
    assert.equal(second.status, 409);
    assert.match(second.body.error, /limit of 1 reached for plan free/);
  });

  const badInputs: { name: string; body: unknown; parameter: RegExp }[] = [
    { name: 'no url', body: {}, parameter: /"url"/ },
    { name: 'a url that is not a URL', body: { url: 'not a url' }, parameter: /"url"/ },
    { name: 'an ftp url', body: { url: 'ftp://127.0.0.1/x' }, parameter: /"url"/ },
    {
      name: 'an unknown event type',
      body: { url: 'http://127.0.0.1:9/x', events: ['alert.nope'] },
      parameter: /"events/,
    },
    { name: 'no event type', body: { url: 'http://127.0.0.1:9/x', events: [] }, parameter: /"events/ },
    {
      name: 'a long description',
      body: { url: 'http://127.0.0.1:9/x', description: 'x'.repeat(201) },
      parameter: /"description"/,
    },
  ];
  for (const { name, body, parameter } of badInputs) {
    test(`answers 400 naming the parameter for ${name}`, async () => {
      const key = await world.issueKey('pro');
      const answer = await call(world, '/v1/webhooks', { key, body });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(answer.body.error, parameter);
    });
  }

  test('refuses a private address unless the operator allows them', async () => {
    const deps = { ...world.deps, webhooks: { store: world.deps.webhooks!.store, allowPrivate: false } };
    // The URL is refused before the store is asked, so the key need not exist.
    const context = { keyId: 1, plan: 'free' as const, today: '2025-06-15', now: NOW };
    for (const url of ['https://127.0.0.1/hook', 'https://10.0.0.1/hook', 'https://169.254.169.254/latest']) {
      await assert.rejects(
        webhookCreate.run(deps, { url }, context),
        (error: unknown) =>
          error instanceof AppError &&
          error.code === 'INVALID_INPUT' &&
          /"url".*not a public address/.test(error.message),
      );
    }
    await assert.rejects(
      webhookCreate.run(deps, { url: 'http://93.184.215.14/hook' }, context),
      (error: unknown) => error instanceof AppError && /must use https/.test(error.message),
    );
  });

  test('are MCP tools', async () => {
    const key = await world.issueKey('pro');
    const client = new Client({ name: 'webhooks-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes('webhook_create') && names.includes('webhook_list'), names.join(', '));
      const created = await client.callTool({ name: 'webhook_create', arguments: { url: 'http://127.0.0.1:9/mcp' } });
      assert.equal(created.isError ?? false, false, JSON.stringify(created));
      assert.match((created.structuredContent as { secret: string }).secret, /^whsec_/);
    } finally {
      await client.close();
    }
  });
});

describe('the key sealing webhook secrets', () => {
  test('is generated once in DATA_DIR, readable by its owner only, and kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-webhook-key-'));
    const world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    try {
      openWebhookStore({ DATA_DIR: dataDir }, world.sql);
      const path = join(dataDir, WEBHOOK_SECRET_KEY_FILE);
      const first = readFileSync(path, 'utf8');
      assert.equal(Buffer.from(first.trim(), 'base64').length, 32);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      openWebhookStore({ DATA_DIR: dataDir }, world.sql);
      assert.equal(readFileSync(path, 'utf8'), first);
    } finally {
      await world.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('comes from WEBHOOK_SECRET_KEY when set, which must be 32 bytes of base64', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-webhook-key-'));
    const world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    try {
      openWebhookStore({ DATA_DIR: dataDir, WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') }, world.sql);
      assert.throws(() => statSync(join(dataDir, WEBHOOK_SECRET_KEY_FILE)), { code: 'ENOENT' });
      assert.throws(
        () => openWebhookStore({ DATA_DIR: dataDir, WEBHOOK_SECRET_KEY: 'c2hvcnQ=' }, world.sql),
        /must be 32 bytes/,
      );
    } finally {
      await world.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
