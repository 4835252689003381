/**
 * The webhook part of a test app's dependencies: a real webhook store on the test's database,
 * sealing secrets under a key made for the test, and private addresses allowed (the tests'
 * receivers listen on 127.0.0.1).
 */
import { randomBytes } from 'node:crypto';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import type { WebhookDeps } from '../../src/operations/operation.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';

export function testWebhookDeps(sql: Sql): WebhookDeps {
  return { store: createWebhookStore(sql, createSecretSealer(randomBytes(32))), allowPrivate: true };
}
