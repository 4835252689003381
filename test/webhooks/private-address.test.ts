/**
 * An https URL whose name resolves to a private address is refused without WEBHOOK_ALLOW_PRIVATE
 * (issue 15), at registration (POST /v1/webhooks, over real HTTP) and at send time (the sender,
 * which checks again before every attempt: a name's addresses can change after registration).
 * Names are resolved by a lookup passed in, answering as a hostile DNS server could; the store is
 * PGlite and the transport the real one, wrapped to record what reached it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { createPgPeopleIndex } from '../../src/adapters/pg-search/pg-people-index.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../../src/domain/api-keys.ts';
import { buildApp } from '../../src/app/app.ts';
import type { Lookup } from '../../src/webhooks/address-policy.ts';
import type { WebhookStore, WebhookTransport } from '../../src/ports/webhooks.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { testStores, useStore } from '../support/databases.ts';
import { queueDeliveries, startReceiver } from './receivers.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';

/** Answers each name with one address, as DNS would; `address` can be changed to rebind it. */
function dnsAnswering(table: Record<string, string>): { lookup: Lookup; table: Record<string, string> } {
  return {
    table,
    async lookup(hostname) {
      const address = table[hostname];
      if (address === undefined)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    },
  };
}

/** Names of hooks, each resolving to an address that is not public, and the range it is in. */
const PRIVATE_NAMES = [
  { host: 'office.example.com', address: '10.0.0.1', range: 'private' },
  { host: 'metadata.example.com', address: '169.254.169.254', range: 'linkLocal' },
  { host: 'self.example.com', address: '::1', range: 'loopback' },
];

describe('pglite: a name resolving to a private address', () => {
  const db = useStore(testStores[0]!);
  const dns = dnsAnswering({
    'hooks.example.com': '93.184.215.14',
    ...Object.fromEntries(PRIVATE_NAMES.map(({ host, address }) => [host, address])),
  });
  let store: WebhookStore;
  let server: Server;
  let url: string;
  let key: string;
  before(async () => {
    store = createWebhookStore(db.sql, createSecretSealer(randomBytes(32)));
    const keys = createKeyStore(db.sql);
    key = generateApiKey();
    await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan: 'pro', email: null, clientIp: null });
    const app = buildApp({
      store: createCompanyStore(db.sql),
      search: createPgSearchIndex(db.sql),
      keys,
      watchlists: createWatchlistStore(db.sql),
      ownership: createOwnershipReader(db.sql),
      officers: createOfficerStore(db.sql),
      pdfEstimates: createPdfEstimateStore(db.sql),
      people: createPgPeopleIndex(db.sql),
      streams: createStreamLedger(db.sql),
      // As a public service is configured: WEBHOOK_ALLOW_PRIVATE unset.
      webhooks: { store, allowPrivate: false, lookup: dns.lookup },
      log: () => {},
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((ready) => server.once('listening', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  const register = async (hook: string) => {
    const response = await fetch(`${url}/v1/webhooks?format=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hook }),
    });
    return { status: response.status, body: (await response.json()) as { error?: string; endpoint?: { id: string } } };
  };

  for (const { host, address, range } of PRIVATE_NAMES) {
    test(`registration: https://${host}/ (${address}) is a 400 naming url, and nothing is registered`, async () => {
      const before = await endpointCount();
      const answer = await register(`https://${host}/hook`);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(answer.body.error ?? '', /"url"/);
      assert.ok(
        answer.body.error!.includes(`resolves to ${address}, which is not a public address (${range})`),
        answer.body.error,
      );
      assert.equal(await endpointCount(), before);
    });
  }

  test('registration: a name resolving to a public address is accepted (the lookup is the one asked)', async () => {
    const answer = await register('https://hooks.example.com/hook');
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.match(answer.body.endpoint!.id, /^wh_/);
  });

  describe('send time', () => {
    /** The real transport, recording every request that reaches it. */
    const sent: string[] = [];
    const real = createHttpWebhookTransport();
    const transport: WebhookTransport = {
      send(request) {
        sent.push(request.addresses.map((a) => a.address).join(' '));
        return real.send(request);
      },
    };

    for (const { host, address, range } of PRIVATE_NAMES) {
      test(`a name that resolved publicly at registration and now answers ${address}: not sent, retried later`, async () => {
        const secret = newWebhookSecret();
        // Registered while the name was public: put straight into the store, as registration accepted it.
        const { endpointId } = await queueDeliveries(store, db.sql, { url: `https://${host}/hook`, secret, count: 1 });
        dns.table[host] = address;
        sent.length = 0;
        await createWebhookSender({ store, transport, allowPrivate: false, lookup: dns.lookup }).runOnce();
        assert.deepEqual(sent, [], 'nothing reached the transport');
        const [record] = await store.recentDeliveries(await keyOf(endpointId), endpointId, 1);
        assert.equal(record!.status, 'pending');
        assert.equal(record!.last_response_code, null);
        assert.ok(
          (record!.last_error ?? '').startsWith(
            `Not sent: The host ${host} resolves to ${address}, which is not a public address (${range})`,
          ),
          record!.last_error ?? '',
        );
        await store.deleteEndpoint(await keyOf(endpointId), endpointId);
      });
    }

    test('with allowPrivate the same lookup is used to connect: a name answering 127.0.0.1 reaches the receiver', async () => {
      const secret = newWebhookSecret();
      const receiver = await startReceiver({ secret, delayMs: 0 });
      try {
        const port = new URL(receiver.url).port;
        dns.table['lab.example.com'] = '127.0.0.1';
        const { endpointId, ids } = await queueDeliveries(store, db.sql, {
          url: `http://lab.example.com:${port}/hook`,
          secret,
          count: 1,
        });
        sent.length = 0;
        await createWebhookSender({ store, transport, allowPrivate: true, lookup: dns.lookup }).runOnce();
        assert.deepEqual(sent, ['127.0.0.1']);
        assert.deepEqual(receiver.received, [{ id: ids[0], verified: true }]);
        const [record] = await store.recentDeliveries(await keyOf(endpointId), endpointId, 1);
        assert.equal(record!.status, 'delivered');
      } finally {
        await receiver.close();
      }
    });
  });

  async function endpointCount(): Promise<number> {
    return (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints')).rows[0]!.n;
  }

  async function keyOf(endpointId: string): Promise<number> {
    const result = await db.sql.query<{ key_id: number }>('SELECT key_id FROM webhook_endpoints WHERE id = $1', [
      endpointId,
    ]);
    return Number(result.rows[0]!.key_id);
  }
});
