/**
 * The webhook endpoint operations end to end over REST and MCP, on the embedded default (PGlite):
 * register with the secret shown once (201), list without secrets, plan limits, the URL policy and
 * input errors naming the parameter; then the operations on one endpoint by its id in the path
 * (delete, test, rotate-secret, deliveries, retry), their 404s for ids the key does not own, and
 * deliveries made by the real sender to a real receiver on 127.0.0.1, checked with the
 * `standardwebhooks` verifier. The world allows private addresses (receivers on 127.0.0.1); the
 * refusal without that flag runs the operation on the same store with it off.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { AppError } from '../../src/errors.ts';
import { openWebhookStore, WEBHOOK_SECRET_KEY_FILE } from '../../src/composition/open-store.ts';
import { webhookCreate, WEBHOOK_EVENT_TYPES } from '../../src/operations/webhooks.ts';
import { literal } from '../../src/operations/markdown.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import type { WebhookSender } from '../../src/webhooks/sender.ts';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';

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
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.secret, /^whsec_/);
    assert.match(created.body.endpoint.id, /^wh_/);
    assert.deepEqual(created.body.endpoint.events, ['alert.status_change']);
    assert.equal(created.body.endpoint.description, 'ops');

    const all = await call(world, '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/all' } });
    assert.equal(all.status, 201);
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
    assert.equal(first.status, 201);
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
    const deps = { ...world.deps, webhooks: { store: world.deps.webhooks.store, allowPrivate: false } };
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
    const client = await connectMcp(world.url, key);
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

/** A receiver on 127.0.0.1 answering the statuses given in turn (then 200), keeping each request whole. */
async function startRecordingReceiver(statuses: number[] = []): Promise<{
  url: string;
  requests: { headers: Record<string, string>; body: string }[];
  close(): Promise<void>;
}> {
  const requests: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      requests.push({
        headers: Object.fromEntries(
          ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, header(name)]),
        ),
        body,
      });
      response.writeHead(statuses.shift() ?? 200);
      response.end('ok');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Whether the `standardwebhooks` verifier accepts the request with `secret`. */
function verifies(request: { headers: Record<string, string>; body: string }, secret: string): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
}

describe('a webhook endpoint by its id over HTTP', () => {
  let world: World;
  let sender: WebhookSender;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    // The real sender on the world's store, run a round at a time; a retry waits an hour, so only
    // webhook_retry_delivery makes a failed attempt due again within a test.
    sender = createWebhookSender({
      store: world.deps.webhooks.store,
      transport: createHttpWebhookTransport(),
      allowPrivate: true,
      concurrency: 50,
      timeoutMs: 5_000,
      retryDelayMs: () => 3_600_000,
    });
  });
  after(() => world.close());

  /** A new key of `plan` with one endpoint at `url`: the key, the endpoint's id and its secret. */
  async function registered(url = 'http://127.0.0.1:9/hook', plan: 'free' | 'pro' = 'pro') {
    const key = await world.issueKey(plan);
    const created = await call(world, '/v1/webhooks?format=json', { key, body: { url } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return { key, id: created.body.endpoint.id as string, secret: created.body.secret as string };
  }

  const ids = (answer: { body: { endpoints: { id: string }[] } }) => answer.body.endpoints.map((e) => e.id);

  /** The deliveries an endpoint has in the outbox, whatever their status. */
  async function deliveriesOf(endpointId: string): Promise<number> {
    const result = await world.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpointId],
    );
    return result.rows[0]!.n;
  }

  test('DELETE /v1/webhooks/{id}: gone from the list with its deliveries; a second delete is 404', async () => {
    const { key, id } = await registered();
    assert.equal((await call(world, `/v1/webhooks/${id}/test`, { key, method: 'POST' })).status, 200);
    const deleted = await call(world, `/v1/webhooks/${id}?format=json`, { key, method: 'DELETE' });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.id, id);
    assert.equal(deleted.body.deleted, true);
    assert.deepEqual(ids(await call(world, '/v1/webhooks?format=json', { key })), []);
    assert.equal(await deliveriesOf(id), 0, 'its deliveries went with it');
    const again = await call(world, `/v1/webhooks/${id}`, { key, method: 'DELETE' });
    assert.equal(again.status, 404);
    assert.equal(again.body.error, `No webhook endpoint ${id} on this API key.`);
  });

  test("every operation on another key's endpoint is 404, as an unknown one, changes nothing and counts one request", async () => {
    const owner = await registered();
    const [queued] = await world.deps.webhooks.store.enqueue([
      { endpointId: owner.id, eventKey: null, eventType: 'webhook.test', payload: { n: 1 } },
    ]);
    const stranger = await world.issueKey('pro');
    const unknown = `wh_${'A'.repeat(22)}`;
    for (const id of [owner.id, unknown]) {
      for (const [method, path] of [
        ['DELETE', `/v1/webhooks/${id}`],
        ['POST', `/v1/webhooks/${id}/test`],
        ['POST', `/v1/webhooks/${id}/rotate-secret`],
        ['GET', `/v1/webhooks/${id}/deliveries`],
        ['POST', `/v1/webhooks/${id}/deliveries/${queued}/retry`],
      ] as const) {
        const before = await call(world, '/v1/webhooks', { key: stranger });
        const answer = await call(world, path, { key: stranger, method });
        assert.equal(answer.status, 404, `${method} ${path}: ${JSON.stringify(answer.body)}`);
        assert.match(
          answer.body.error,
          method === 'POST' && path.endsWith('/retry') ? /No delivery msg_/ : /No webhook endpoint wh_/,
        );
        assert.ok(!JSON.stringify(answer.body).includes(owner.secret.slice(6)), 'nothing of the endpoint is shown');
        assert.equal(
          Number(answer.headers.get('x-ratelimit-remaining')),
          Number(before.headers.get('x-ratelimit-remaining')) - 1,
          `${method} ${path} counts one request`,
        );
      }
    }
    // The owner's endpoint is as it was: listed, its secret not rotated, its test delivery pending.
    const listed = await call(world, '/v1/webhooks?format=json', { key: owner.key });
    assert.deepEqual(ids(listed), [owner.id]);
    assert.equal(listed.body.endpoints[0].previous_secret_expires_at, null);
    const log = await call(world, `/v1/webhooks/${owner.id}/deliveries?format=json`, { key: owner.key });
    assert.deepEqual(
      log.body.deliveries.map((d: { id: string; attempts: number }) => [d.id, d.attempts]),
      [[queued, 0]],
    );
  });

  const badRequests: {
    name: string;
    method: string;
    path: (id: string) => string;
    body?: unknown;
    parameter: RegExp;
  }[] = [
    {
      name: 'an id that is not an endpoint id',
      method: 'DELETE',
      path: () => '/v1/webhooks/nope',
      parameter: /^Invalid "id": must be a webhook endpoint id/,
    },
    {
      name: 'an id with a NUL byte',
      method: 'POST',
      path: () => '/v1/webhooks/wh_%00/test',
      parameter: /^Invalid "id": must not contain control characters/,
    },
    {
      name: 'a delivery id that is not one',
      method: 'POST',
      path: (id) => `/v1/webhooks/${id}/deliveries/msg_x/retry`,
      parameter: /^Invalid "delivery": must be a delivery id/,
    },
    {
      name: 'a limit of 0',
      method: 'GET',
      path: (id) => `/v1/webhooks/${id}/deliveries?limit=0`,
      parameter: /^Invalid "limit": must be between 1 and 100/,
    },
    {
      name: 'a limit that is not a number',
      method: 'GET',
      path: (id) => `/v1/webhooks/${id}/deliveries?limit=ten`,
      parameter: /^Invalid "limit": must be a number/,
    },
    {
      name: 'the id in the query too',
      method: 'GET',
      path: (id) => `/v1/webhooks/${id}/deliveries?id=${id}`,
      parameter: /^Unknown parameter "id"\. Accepted: limit/,
    },
    {
      name: 'a body field for an operation without one',
      method: 'POST',
      path: (id) => `/v1/webhooks/${id}/rotate-secret`,
      body: { secret: 'whsec_mine' },
      parameter: /^Unknown field "secret"\. Accepted: none/,
    },
    {
      name: 'a body that is not JSON',
      method: 'POST',
      path: (id) => `/v1/webhooks/${id}/test`,
      body: '{',
      parameter: /^The request body is not valid JSON/,
    },
  ];
  for (const { name, method, path, body, parameter } of badRequests) {
    test(`answers 400 naming the parameter for ${name}`, async () => {
      const { key, id } = await registered();
      const answer = await call(world, path(id), { key, method, ...(body === undefined ? {} : { body }) });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(answer.body.error, parameter);
      // Nothing happened to the endpoint: there, not rotated, nothing queued.
      const listed = await call(world, '/v1/webhooks?format=json', { key });
      assert.deepEqual(ids(listed), [id]);
      assert.equal(listed.body.endpoints[0].previous_secret_expires_at, null);
      assert.equal(await deliveriesOf(id), 0);
    });
  }

  test('POST /v1/webhooks/{id}/test: a signed webhook.test reaches the receiver through the sender, and the log shows it', async () => {
    const receiver = await startRecordingReceiver();
    try {
      const { key, id, secret } = await registered(receiver.url);
      const queued = await call(world, `/v1/webhooks/${id}/test?format=json`, { key, method: 'POST' });
      assert.equal(queued.status, 200, JSON.stringify(queued.body));
      assert.equal(queued.body.endpoint_id, id);
      assert.equal(queued.body.event_type, 'webhook.test');
      const delivery = queued.body.delivery_id as string;
      assert.match(delivery, /^msg_/);

      await sender.runOnce();
      const got = receiver.requests.filter((r) => r.headers['webhook-id'] === delivery);
      assert.equal(got.length, 1, 'received once');
      assert.ok(verifies(got[0]!, secret), 'verified with the endpoint secret by standardwebhooks');
      const event = JSON.parse(got[0]!.body);
      assert.equal(event.type, 'webhook.test');
      assert.equal(event.data.endpoint_id, id);

      const log = await call(world, `/v1/webhooks/${id}/deliveries?format=json`, { key });
      assert.equal(log.status, 200);
      assert.equal(log.body.count, 1);
      const [record] = log.body.deliveries;
      assert.equal(record.id, delivery);
      assert.equal(record.event_type, 'webhook.test');
      assert.equal(record.status, 'delivered');
      assert.equal(record.attempts, 1);
      assert.equal(record.last_response_code, 200);
      assert.ok(Number.isInteger(record.last_latency_ms) && record.last_latency_ms >= 0);
      assert.equal(record.next_attempt_at, null);
      assert.match(
        markdown(await call(world, `/v1/webhooks/${id}/deliveries`, { key })),
        // The id as the Markdown writes it: a random id may hold `__`, escaped like any data value.
        new RegExp(`\\| ${regexText(literal(delivery))} \\| webhook\\.test \\| delivered \\| 1 \\| 200 \\|`),
      );
    } finally {
      await receiver.close();
    }
  });

  test('a disabled endpoint is sent no test (409)', async () => {
    const { key, id } = await registered();
    await world.sql.query(
      `UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'The endpoint answered 410 Gone.' WHERE id = $1`,
      [id],
    );
    const answer = await call(world, `/v1/webhooks/${id}/test`, { key, method: 'POST' });
    assert.equal(answer.status, 409);
    assert.match(answer.body.error, /is disabled \(The endpoint answered 410 Gone\.\)/);
    assert.equal(await deliveriesOf(id), 0);
  });

  test('rotate-secret: a new secret shown once; both sign for 24 hours, then only the new one', async () => {
    const receiver = await startRecordingReceiver();
    try {
      const { key, id, secret: old } = await registered(receiver.url);
      const rotated = await call(world, `/v1/webhooks/${id}/rotate-secret?format=json`, { key, method: 'POST' });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const fresh = rotated.body.secret as string;
      assert.match(fresh, /^whsec_/);
      assert.notEqual(fresh, old);
      const expires = Date.parse(rotated.body.endpoint.previous_secret_expires_at);
      assert.ok(Math.abs(expires - (Date.now() + 24 * 3_600_000)) < 60_000, 'the old one signs for 24 hours');
      const listed = await call(world, '/v1/webhooks?format=json', { key });
      assert.ok(!JSON.stringify(listed.body).includes('whsec_'), 'the list shows neither secret');

      const send = async () => {
        const queued = await call(world, `/v1/webhooks/${id}/test?format=json`, { key, method: 'POST' });
        await sender.runOnce();
        const got = receiver.requests.find((r) => r.headers['webhook-id'] === queued.body.delivery_id);
        assert.ok(got, 'received');
        return got;
      };
      const during = await send();
      assert.ok(verifies(during, fresh), 'verifies with the new secret');
      assert.ok(verifies(during, old), 'and with the old one during the overlap');
      assert.ok(!verifies(during, `whsec_${randomBytes(32).toString('base64')}`), 'not with any secret');

      // The overlap over (the day passed, on the database's clock as the store keeps it).
      await world.sql.query(
        `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
        [id],
      );
      const after = await send();
      assert.ok(verifies(after, fresh), 'the new secret signs');
      assert.ok(!verifies(after, old), 'the old one no longer');
    } finally {
      await receiver.close();
    }
  });

  test('retry: a failed attempt made due now is sent again with the same webhook-id; a delivered one is 409', async () => {
    const receiver = await startRecordingReceiver([500]);
    try {
      const { key, id, secret } = await registered(receiver.url);
      const queued = await call(world, `/v1/webhooks/${id}/test?format=json`, { key, method: 'POST' });
      const delivery = queued.body.delivery_id as string;
      await sender.runOnce();
      const waiting = (await call(world, `/v1/webhooks/${id}/deliveries?format=json`, { key })).body.deliveries[0];
      assert.equal(waiting.status, 'pending');
      assert.equal(waiting.last_response_code, 500);
      assert.equal(waiting.last_error, 'HTTP 500');
      assert.ok(Date.parse(waiting.next_attempt_at) > Date.now() + 3_000_000, 'the next retry is an hour away');
      await sender.runOnce();
      assert.equal(receiver.requests.length, 1, 'not due before the retry');

      const retried = await call(world, `/v1/webhooks/${id}/deliveries/${delivery}/retry?format=json`, {
        key,
        method: 'POST',
      });
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.delivery.id, delivery);
      assert.equal(retried.body.delivery.status, 'pending');
      assert.ok(Date.parse(retried.body.delivery.next_attempt_at) <= Date.now() + 1_000, 'due now');
      await sender.runOnce();
      assert.deepEqual(
        receiver.requests.map((r) => r.headers['webhook-id']),
        [delivery, delivery],
      );
      assert.ok(receiver.requests.every((r) => verifies(r, secret)));
      const done = (await call(world, `/v1/webhooks/${id}/deliveries?format=json`, { key })).body.deliveries[0];
      assert.deepEqual([done.status, done.attempts, done.last_response_code], ['delivered', 2, 200]);

      const again = await call(world, `/v1/webhooks/${id}/deliveries/${delivery}/retry`, { key, method: 'POST' });
      assert.equal(again.status, 409);
      assert.match(again.body.error, /was delivered already/);
      const unknown = await call(world, `/v1/webhooks/${id}/deliveries/msg_${'B'.repeat(22)}/retry`, {
        key,
        method: 'POST',
      });
      assert.equal(unknown.status, 404);
    } finally {
      await receiver.close();
    }
  });

  test('the endpoint tools over MCP: the same answers, and 404s as tool errors', async () => {
    const { key, id } = await registered();
    const client = await connectMcp(world.url, key);
    try {
      const tested = await client.callTool({ name: 'webhook_test', arguments: { id } });
      assert.equal(tested.isError ?? false, false, JSON.stringify(tested));
      const delivery = (tested.structuredContent as { delivery_id: string }).delivery_id;
      const log = await client.callTool({ name: 'webhook_deliveries', arguments: { id, limit: 5 } });
      assert.deepEqual(
        (log.structuredContent as { deliveries: { id: string }[] }).deliveries.map((d) => d.id),
        [delivery],
      );
      const other = await registered();
      const refused = await client.callTool({ name: 'webhook_delete', arguments: { id: other.id } });
      assert.equal(refused.isError, true);
      assert.deepEqual(refused.content, [{ type: 'text', text: `No webhook endpoint ${other.id} on this API key.` }]);
      const bad = await client.callTool({ name: 'webhook_retry_delivery', arguments: { id, delivery: 'x' } });
      assert.equal(bad.isError, true);
      assert.match((bad.content as { text: string }[])[0]!.text, /^Invalid "delivery"/);
      const deleted = await client.callTool({ name: 'webhook_delete', arguments: { id } });
      assert.equal((deleted.structuredContent as { deleted: boolean }).deleted, true);
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

/** `text` matched as it is inside a regular expression. */
function regexText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
