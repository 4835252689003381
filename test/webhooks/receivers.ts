/**
 * What the webhook tests that run whole services share: a real receiver on 127.0.0.1 that records
 * every request and checks its signature with the `standardwebhooks` package, endpoints with
 * deliveries queued straight into the outbox, and `ukcd start` configured to send webhooks to it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { Sql } from '../../src/ports/sql.ts';
import type { WebhookStore } from '../../src/ports/webhooks.ts';
import { startService } from '../support/ukcd-start.ts';
import type { Service } from '../support/ukcd-start.ts';

interface ReceivedRequest {
  /** The webhook-id header. */
  id: string;
  /** Whether the signature verified with the endpoint's secret (standardwebhooks). */
  verified: boolean;
}

export interface Receiver {
  url: string;
  /** Every request whose body arrived whole, in order of arrival. */
  received: ReceivedRequest[];
  /** How many requests each webhook-id arrived in. */
  timesReceived(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * A receiver answering `status` after `delayMs`, checking signatures with `secret`. A request is
 * recorded when its body has arrived, before the answer, so a sender killed while waiting for
 * the answer leaves a request recorded and unanswered: an attempt in flight.
 */
export async function startReceiver(options: { secret: string; delayMs: number; status?: number }): Promise<Receiver> {
  const verifier = new Webhook(options.secret);
  const received: ReceivedRequest[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      let verified = true;
      try {
        verifier.verify(body, {
          'webhook-id': header('webhook-id'),
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        });
      } catch {
        verified = false;
      }
      received.push({ id: header('webhook-id'), verified });
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(options.status ?? 200);
        response.end('ok');
      }, options.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    timesReceived() {
      const times = new Map<string, number>();
      for (const { id } of received) times.set(id, (times.get(id) ?? 0) + 1);
      return times;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A pro key with one endpoint at `url` (secret `secret`), and `count` alert deliveries queued to it. */
export async function queueDeliveries(
  store: WebhookStore,
  sql: Sql,
  options: { url: string; secret: string; count: number },
): Promise<{ endpointId: string; ids: string[] }> {
  const key = await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'pro') RETURNING id`,
    [`webhook-test-${randomBytes(8).toString('hex')}`, `ukcd_${randomBytes(4).toString('hex')}`],
  );
  const created = await store.createEndpoint(
    { keyId: key.rows[0]!.id, url: options.url, events: null, description: null, secret: options.secret },
    10,
  );
  assert.ok(created.endpoint, 'endpoint created');
  const endpointId = created.endpoint.id;
  const ids = await store.enqueue(
    Array.from({ length: options.count }, (_, i) => {
      const number = String(i + 1).padStart(8, '0');
      return {
        endpointId,
        eventKey: `${number}:status_change:Dissolved`,
        eventType: 'alert.status_change',
        payload: {
          alert: { company_number: number, kind: 'status_change' },
          company: { name: `COMPANY ${i + 1} LTD` },
        },
      };
    }),
  );
  assert.equal(ids.length, options.count, 'every delivery queued');
  return { endpointId, ids };
}

/** A sealing key for the service and the test's own store, so both open the same secrets. */
export function newSealerKey(): string {
  return randomBytes(32).toString('base64');
}

/**
 * `ukcd start` on `databaseUrl` with the sender on, private addresses allowed (the receivers are
 * on 127.0.0.1), no request log, the search on the store, and `env` on top.
 */
export function startSender(
  databaseUrl: string,
  sealerKey: string,
  env: Record<string, string> = {},
): Promise<Service> {
  return startService({
    DATABASE_URL: databaseUrl,
    DATABASE_READ_URL: '',
    ELASTICSEARCH_URL: '',
    PORT: '0',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ukcd-webhooks-')),
    LOG_REQUESTS: 'false',
    DELIVER_WEBHOOKS: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_SECRET_KEY: sealerKey,
    ...env,
  });
}

/** Stops a service with SIGKILL (unless it has exited) and waits for its exit. */
export async function kill(service: Service): Promise<void> {
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  await service.exited;
}

/** Polls `done` every 25 ms until it holds; fails with `what` after `timeoutMs`. */
export async function waitUntil(
  done: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
