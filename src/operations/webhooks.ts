/**
 * The webhook endpoints of the calling key: register one (its signing secret shown
 * once), list them, delete one, send it a test event, rotate its secret, read its delivery log
 * and retry a delivery. The sender that delivers to them is a separate part (src/webhooks). An id
 * the key does not own is answered as unknown (404), whoever owns it.
 */
import * as z from 'zod';
import { ALERT_KINDS } from '../domain/alerts.ts';
import { PLANS } from '../domain/api-keys.ts';
import { AppError, invalidInput } from '../errors.ts';
import { checkWebhookUrl, MAX_URL_LENGTH } from '../webhooks/address-policy.ts';
import type { WebhookEndpoint } from '../ports/webhooks.ts';
import { newWebhookSecret } from '../webhooks/signing.ts';
import { literal, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import type { OperationDeps } from './operation.ts';

/** The event types an endpoint can subscribe to: one per alert kind. */
export const WEBHOOK_EVENT_TYPES = ALERT_KINDS.map((kind) => `alert.${kind}` as const);

/** How long the secret rotated out keeps signing beside the new one: the 24 hours. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

// The stores' ids: a prefix and 128 random bits in base64url. Checked here so that a malformed one
// is a 400 naming the parameter, and only a well-formed one the key does not own is a 404.
const endpointId = z
  .string({ error: 'must be a webhook endpoint id' })
  .regex(/^wh_[A-Za-z0-9_-]{22}$/, { error: 'must be a webhook endpoint id: wh_ and 22 characters' })
  .describe('Endpoint id (wh_…)');
const deliveryId = z
  .string({ error: 'must be a delivery id' })
  .regex(/^msg_[A-Za-z0-9_-]{22}$/, { error: 'must be a delivery id: msg_ and 22 characters' })
  .describe('Delivery id (msg_…)');

function unknownEndpoint(id: string): AppError {
  return new AppError('NOT_FOUND', `No webhook endpoint ${id} on this API key.`);
}

/** One of the key's endpoints, or a 404. */
async function endpointOf(deps: OperationDeps, keyId: number, id: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.webhooks.store.getEndpoint(keyId, id);
  if (endpoint === null) throw unknownEndpoint(id);
  return endpoint;
}

const endpointOutput = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()).describe('The event types it receives; all of them when subscribed to all'),
  description: z.string().nullable(),
  created_at: z.string(),
  previous_secret_expires_at: z.string().nullable(),
  failing_since: z.string().nullable(),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
});

function endpointView(endpoint: WebhookEndpoint): z.output<typeof endpointOutput> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events ?? [...WEBHOOK_EVENT_TYPES],
    description: endpoint.description,
    created_at: endpoint.created_at,
    previous_secret_expires_at: endpoint.previous_secret_expires_at,
    failing_since: endpoint.failing_since,
    disabled_at: endpoint.disabled_at,
    disabled_reason: endpoint.disabled_reason,
  };
}

const webhookCreateOutput = z.object({
  endpoint: endpointOutput,
  secret: z.string().describe('The signing secret, whsec_…: shown this once, keep it'),
});

const webhookListOutput = z.object({
  plan: z.enum(['free', 'pro']),
  limit: z.number().int(),
  count: z.number().int(),
  endpoints: z.array(endpointOutput),
});

export const webhookCreate = defineOperation({
  name: 'webhook_create',
  // Registers a URL on the internet that alerts will be sent to.
  openWorld: true,
  idempotent: false,
  title: 'Register a webhook endpoint',
  description:
    'Register an HTTPS endpoint to receive signed alerts (Standard Webhooks 1.0) for the companies on this API ' +
    "key's watchlist: url (https, on a public address), events (optional: event types among " +
    `${WEBHOOK_EVENT_TYPES.join(', ')}; default all) and description (optional). Returns the endpoint and its ` +
    'signing secret (whsec_…), shown this once. Plan limit: free 1 endpoint, pro 10. Costs one request of your monthly quota.',
  http: { method: 'POST', path: '/v1/webhooks', successStatus: 201 },
  input: z.object({
    url: z
      .string({ error: 'must be a URL' })
      .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
      .describe('Where the events are POSTed: https, on a public address'),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be among ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
      .min(1, { error: 'must name at least one event type, or be left out for all' })
      .optional()
      .describe('The event types to receive (default: all)'),
    description: z
      .string({ error: 'must be a string' })
      .max(200, { error: 'must be at most 200 characters' })
      .optional()
      .describe('A note for you, up to 200 characters'),
  }),
  output: webhookCreateOutput,
  json: true,
  async run(deps, input, context) {
    const { store, allowPrivate, lookup } = deps.webhooks;
    const verdict = await checkWebhookUrl(input.url, { allowPrivate, ...(lookup ? { lookup } : {}) });
    if (!verdict.ok) throw invalidInput(`Invalid "url": ${verdict.reason}`);
    const secret = newWebhookSecret();
    const limit = PLANS[context.plan].webhook_limit;
    const created = await store.createEndpoint(
      {
        keyId: context.keyId,
        url: verdict.url.href,
        events: input.events ? [...new Set(input.events)] : null,
        description: input.description ?? null,
        secret,
      },
      limit,
    );
    if (created.limitReached)
      throw new AppError('CONFLICT', `Webhook endpoint limit of ${limit} reached for plan ${context.plan}.`);
    return { endpoint: endpointView(created.endpoint), secret };
  },
  toMarkdown(result) {
    return [
      `# Webhook endpoint ${result.endpoint.id} registered`,
      `- **URL:** ${literal(result.endpoint.url)}`,
      `- **Events:** ${result.endpoint.events.join(', ')}`,
      `- **Signing secret (shown once, keep it):** \`${result.secret}\``,
    ].join('\n');
  },
});

export const webhookList = defineOperation({
  name: 'webhook_list',
  title: 'List webhook endpoints',
  description:
    'The webhook endpoints registered by this API key (no arguments), oldest first, without their secrets: id, url, ' +
    'events, description, when created, since when failing, and when and why disabled; also the plan, its limit ' +
    '(free 1, pro 10) and the count. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/webhooks' },
  input: z.object({}),
  output: webhookListOutput,
  json: true,
  async run(deps, _input, context) {
    const endpoints = await deps.webhooks.store.listEndpoints(context.keyId);
    return {
      plan: context.plan,
      limit: PLANS[context.plan].webhook_limit,
      count: endpoints.length,
      endpoints: endpoints.map(endpointView),
    };
  },
  toMarkdown(result) {
    return [
      `# Webhook endpoints: ${result.count} of ${result.limit} (${result.plan} plan)`,
      table(
        ['Id', 'URL', 'Events', 'Created', 'Disabled'],
        result.endpoints.map((e) => [
          e.id,
          e.url,
          e.events.join(', '),
          e.created_at.slice(0, 10),
          e.disabled_at ? `${e.disabled_at.slice(0, 10)}: ${e.disabled_reason ?? ''}` : null,
        ]),
      ),
    ].join('\n\n');
  },
});

const deliveryOutput = z.object({
  id: z.string().describe('The webhook-id, the same on every attempt'),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  last_response_code: z.number().int().nullable(),
  last_latency_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe('When it is tried next; null unless pending'),
});

const webhookDeleteOutput = z.object({ id: z.string(), deleted: z.literal(true) });

export const webhookDelete = defineOperation({
  name: 'webhook_delete',
  destructive: true,
  title: 'Delete a webhook endpoint',
  description:
    'Delete one of your webhook endpoints (id) and its deliveries: nothing more is sent to it. Costs one request of ' +
    'your monthly quota.',
  http: { method: 'DELETE', path: '/v1/webhooks/{id}' },
  input: z.object({ id: endpointId }),
  output: webhookDeleteOutput,
  json: true,
  async run(deps, input, context) {
    if (!(await deps.webhooks.store.deleteEndpoint(context.keyId, input.id))) throw unknownEndpoint(input.id);
    return { id: input.id, deleted: true as const };
  },
  toMarkdown(result) {
    return `# Webhook endpoint ${result.id} deleted

Nothing more is sent to it.`;
  },
});

const webhookTestOutput = z.object({
  endpoint_id: z.string(),
  delivery_id: z.string().describe('The test delivery, in webhook_deliveries'),
  event_type: z.literal('webhook.test'),
});

export const webhookTest = defineOperation({
  name: 'webhook_test',
  // Sends to the endpoint's URL on the internet.
  openWorld: true,
  idempotent: false,
  title: 'Send a test event to a webhook endpoint',
  description:
    'Send a signed webhook.test event to one of your endpoints (id) now, retried like an alert; returns its delivery ' +
    'id. Costs one request of your monthly quota.',
  http: { method: 'POST', path: '/v1/webhooks/{id}/test' },
  input: z.object({ id: endpointId }),
  output: webhookTestOutput,
  json: true,
  async run(deps, input, context) {
    const endpoint = await endpointOf(deps, context.keyId, input.id);
    if (endpoint.disabled_at !== null)
      throw new AppError('CONFLICT', `Webhook endpoint ${endpoint.id} is disabled (${endpoint.disabled_reason}).`);
    const [id] = await deps.webhooks.store.enqueue([
      {
        endpointId: endpoint.id,
        // Never the same as another: each test is sent.
        eventKey: null,
        eventType: 'webhook.test',
        payload: { endpoint_id: endpoint.id, message: 'A test event: this endpoint receives our webhooks.' },
      },
    ]);
    // Enqueue leaves out an endpoint gone or disabled since it was read.
    if (id === undefined) throw unknownEndpoint(endpoint.id);
    return { endpoint_id: endpoint.id, delivery_id: id, event_type: 'webhook.test' as const };
  },
  toMarkdown(result) {
    return [
      `# Test event queued for ${result.endpoint_id}`,
      `Delivery \`${result.delivery_id}\` (webhook.test) is sent now; see webhook_deliveries for how it went.`,
    ].join('\n\n');
  },
});

export const webhookRotateSecret = defineOperation({
  name: 'webhook_rotate_secret',
  // The old secret stops signing (after its grace period): it cannot be had back.
  destructive: true,
  idempotent: false,
  title: 'Rotate the signing secret of a webhook endpoint',
  description:
    'A new signing secret (whsec_…, shown once) for one of your endpoints (id); the old one also signs for 24 hours. ' +
    'Costs one request of your monthly quota.',
  http: { method: 'POST', path: '/v1/webhooks/{id}/rotate-secret' },
  input: z.object({ id: endpointId }),
  output: webhookCreateOutput,
  json: true,
  async run(deps, input, context) {
    const { store } = deps.webhooks;
    const secret = newWebhookSecret();
    if (!(await store.rotateSecret(context.keyId, input.id, secret, ROTATION_OVERLAP_MS)))
      throw unknownEndpoint(input.id);
    return { endpoint: endpointView(await endpointOf(deps, context.keyId, input.id)), secret };
  },
  toMarkdown(result) {
    return [
      `# New signing secret for ${result.endpoint.id}`,
      `- **Signing secret (shown once, keep it):** \`${result.secret}\``,
      `- **The old secret also signs until:** ${result.endpoint.previous_secret_expires_at ?? '—'}`,
    ].join('\n');
  },
});

const webhookDeliveriesOutput = z.object({
  endpoint_id: z.string(),
  count: z.number().int(),
  deliveries: z.array(deliveryOutput),
});

export const webhookDeliveries = defineOperation({
  name: 'webhook_deliveries',
  title: 'Recent deliveries to a webhook endpoint',
  description:
    'Recent deliveries to one of your endpoints (id), newest first (limit, default 20): event, status, attempts, ' +
    'response code, latency, error, next retry. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/webhooks/{id}/deliveries' },
  input: z.object({
    id: endpointId,
    limit: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be between 1 and 100' })
      .max(100, { error: 'must be between 1 and 100' })
      .default(20)
      .describe('How many (1–100)'),
  }),
  output: webhookDeliveriesOutput,
  json: true,
  async run(deps, input, context) {
    await endpointOf(deps, context.keyId, input.id);
    const deliveries = await deps.webhooks.store.recentDeliveries(context.keyId, input.id, input.limit);
    return { endpoint_id: input.id, count: deliveries.length, deliveries };
  },
  toMarkdown(result) {
    return [
      `# Deliveries to ${result.endpoint_id}: the ${result.count} most recent`,
      table(
        ['Id', 'Event', 'Status', 'Attempts', 'Response', 'Latency (ms)', 'Error', 'Next retry'],
        result.deliveries.map((d) => [
          d.id,
          d.event_type,
          d.status,
          d.attempts,
          d.last_response_code,
          d.last_latency_ms,
          d.last_error,
          d.next_attempt_at,
        ]),
      ),
    ].join('\n\n');
  },
});

const webhookRetryDeliveryOutput = z.object({ endpoint_id: z.string(), delivery: deliveryOutput });

export const webhookRetryDelivery = defineOperation({
  name: 'webhook_retry_delivery',
  // Sends to the endpoint's URL on the internet.
  openWorld: true,
  title: 'Retry a webhook delivery now',
  description:
    'Make a failed or pending delivery (a msg_ id) of one of your endpoints (id) due now. Costs one request of your ' +
    'monthly quota.',
  http: { method: 'POST', path: '/v1/webhooks/{id}/deliveries/{delivery}/retry' },
  input: z.object({ id: endpointId, delivery: deliveryId }),
  output: webhookRetryDeliveryOutput,
  json: true,
  async run(deps, input, context) {
    const retried = await deps.webhooks.store.retryDelivery(context.keyId, input.id, input.delivery);
    if (retried.outcome === 'not-found')
      throw new AppError('NOT_FOUND', `No delivery ${input.delivery} to webhook endpoint ${input.id} on this API key.`);
    if (retried.outcome === 'already-delivered')
      throw new AppError('CONFLICT', `Delivery ${input.delivery} was delivered already.`);
    if (retried.outcome === 'endpoint-disabled')
      throw new AppError('CONFLICT', `Webhook endpoint ${input.id} is disabled: nothing is sent to it.`);
    return { endpoint_id: input.id, delivery: retried.delivery };
  },
  toMarkdown(result) {
    return `# Delivery ${result.delivery.id} is due now\n\nIt is sent to ${result.endpoint_id} with the same webhook-id.`;
  },
});
