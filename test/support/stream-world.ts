/**
 * What the follower's tests share: company profiles as the companies stream carries them, a
 * watched company with a webhook endpoint and a receiver that checks signatures, and a wait on
 * observable state (never a fixed sleep).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import type { PostgresCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { watchSnapshot } from '../../src/domain/watch-snapshot.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type { WebhookStore } from '../../src/ports/webhooks.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';
import { eventLine } from './stream-server.ts';

/** A company profile of the Public Data API (the companies stream's `data`). */
export function profile(number: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    company_number: number,
    company_name: `COMPANY ${number} LIMITED`,
    company_status: 'active',
    type: 'ltd',
    jurisdiction: 'england-wales',
    date_of_creation: '2015-01-01',
    registered_office_address: { address_line_1: '1 HIGH STREET', locality: 'LEEDS', postal_code: 'LS1 1AA' },
    accounts: {
      accounting_reference_date: { day: '31', month: '12' },
      last_accounts: { made_up_to: '2024-12-31', type: 'micro-entity' },
      next_due: '2099-09-30',
    },
    confirmation_statement: { last_made_up_to: '2025-01-01', next_due: '2099-01-15' },
    sic_codes: ['62020'],
    ...overrides,
  };
}

/** A companies stream event line for `number`'s profile. */
export function companyEvent(
  timepoint: number,
  publishedAt: string,
  number: string,
  overrides: Record<string, unknown> = {},
): string {
  return eventLine(timepoint, publishedAt, `/company/${number}`, profile(number, overrides));
}

/** Resolves once `check` gives a value other than undefined/false; fails naming `what` after 30 s. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((tick) => setTimeout(tick, 10));
  }
}

interface Received {
  type: string;
  data: { alert: { company_number: string; kind: string; from: unknown; to: unknown }; company: { status: string } };
}

export interface WatchingKey {
  keyId: number;
  webhooks: WebhookStore;
  /** The verified bodies received (a body whose signature does not verify throws in the receiver). */
  received: Received[];
  /** Requests whose signature did not verify. */
  unverified: number;
  close(): Promise<void>;
}

/** A key watching `numbers` (snapshotted as watch_add does), with one endpoint for every event. */
export async function watchWithEndpoint(
  sql: Sql,
  store: PostgresCompanyStore,
  numbers: readonly string[],
): Promise<WatchingKey> {
  const secret = newWebhookSecret();
  const verifier = new Webhook(secret);
  const received: Received[] = [];
  let unverified = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      try {
        received.push(
          verifier.verify(body, {
            'webhook-id': String(request.headers['webhook-id']),
            'webhook-timestamp': String(request.headers['webhook-timestamp']),
            'webhook-signature': String(request.headers['webhook-signature']),
          }) as Received,
        );
      } catch {
        unverified += 1;
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const keyId = (
    await sql.query<{ id: number }>(
      `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'pro') RETURNING id`,
      [`stream-${randomBytes(8).toString('hex')}`, `ukcd_s${randomBytes(4).toString('hex').slice(0, 7)}`],
    )
  ).rows[0]!.id;
  const companies = await store.getCompanies(numbers);
  const pscs = await createOwnershipReader(sql).currentPscsOf(numbers);
  await createWatchlistStore(sql).add(
    keyId,
    companies.map((c) => ({
      company_number: c.company.company_number,
      snapshot: watchSnapshot(
        c,
        pscs.filter((p) => p.company_number === c.company.company_number),
      ),
    })),
    100,
  );
  const webhooks = createWebhookStore(sql, createSecretSealer(randomBytes(32)));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  await webhooks.createEndpoint({ keyId, url, events: null, description: null, secret }, 10);
  return {
    keyId,
    webhooks,
    received,
    get unverified() {
      return unverified;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
