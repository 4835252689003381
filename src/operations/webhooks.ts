/**
 * The webhook endpoints of the calling key (issue 15): register one (its signing secret shown
 * once) and list them. The sender that delivers to them is a separate part (src/webhooks).
 */
import * as z from 'zod';
import { ALERT_KINDS } from '../domain/alerts.ts';
import { PLANS } from '../domain/api-keys.ts';
import { AppError, invalidInput } from '../errors.ts';
import { checkWebhookUrl, MAX_URL_LENGTH } from '../webhooks/address-policy.ts';
import type { WebhookEndpoint } from '../webhooks/ports.ts';
import { newWebhookSecret } from '../webhooks/signing.ts';
import { table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import type { OperationDeps, WebhookDeps } from './operation.ts';

/** The event types an endpoint can subscribe to: one per alert kind. */
export const WEBHOOK_EVENT_TYPES = ALERT_KINDS.map((kind) => `alert.${kind}` as const);

function webhookDeps(deps: OperationDeps): WebhookDeps {
  // Every deployment (main.ts) wires them; only a test world built without them lacks them.
  if (!deps.webhooks) throw new Error('webhook operations called without a webhook store');
  return deps.webhooks;
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

export const webhookCreateOutput = z.object({
  endpoint: endpointOutput,
  secret: z.string().describe('The signing secret, whsec_…: shown this once, keep it'),
});

export const webhookListOutput = z.object({
  plan: z.enum(['free', 'pro']),
  limit: z.number().int(),
  count: z.number().int(),
  endpoints: z.array(endpointOutput),
});

export const webhookCreate = defineOperation({
  name: 'webhook_create',
  idempotent: false,
  title: 'Register a webhook endpoint',
  description:
    'Register an HTTPS endpoint to receive signed alerts (Standard Webhooks 1.0) for the companies on this API ' +
    "key's watchlist: url (https, on a public address), events (optional: event types among " +
    `${WEBHOOK_EVENT_TYPES.join(', ')}; default all) and description (optional). Returns the endpoint and its ` +
    'signing secret (whsec_…), shown this once. Plan limit: free 1 endpoint, pro 10. Costs one request of your monthly quota.',
  http: { method: 'POST', path: '/v1/webhooks' },
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
    const { store, allowPrivate, lookup } = webhookDeps(deps);
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
      `- **URL:** ${result.endpoint.url}`,
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
    const endpoints = await webhookDeps(deps).store.listEndpoints(context.keyId);
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
