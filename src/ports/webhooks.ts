/**
 * Ports of the webhooks capability: where endpoints are registered and where the
 * outbox of deliveries is kept, claimed by senders and marked with how each attempt ended.
 * Adapter: src/adapters/postgres/webhook-store.ts (pg or PGlite). Secrets cross this port in
 * plain text; the adapter seals them before they reach the database.
 */

/** A registered endpoint as its owner sees it: never its secret. */
export interface WebhookEndpoint {
  /** `wh_` and 22 characters. */
  id: string;
  key_id: number;
  url: string;
  /** The event types it receives (`alert.status_change`, …); null for all of them. */
  events: string[] | null;
  description: string | null;
  /** ISO date-time, UTC. */
  created_at: string;
  /** When the secret being rotated out stops signing; null when no rotation is under way. */
  previous_secret_expires_at: string | null;
  /** The first failed attempt since the last success; null while attempts succeed. */
  failing_since: string | null;
  disabled_at: string | null;
  /** Why it was disabled, for its owner (410 Gone, three days of failures). */
  disabled_reason: string | null;
}

interface NewWebhookEndpoint {
  keyId: number;
  url: string;
  events: readonly string[] | null;
  description: string | null;
  /** `whsec_…`, from signing.ts newWebhookSecret. */
  secret: string;
}

/** One delivery to put in the outbox. */
export interface NewDelivery {
  endpointId: string;
  /**
   * What makes a delivery the same as another of its endpoint (an alert: company, kind and the
   * state it moved to): enqueueing a key already in the outbox for the endpoint does nothing.
   * Null for deliveries that are never the same (webhook.test).
   */
  eventKey: string | null;
  /** `alert.<kind>` or `webhook.test`. */
  eventType: string;
  /** The event, the `data` the sender wraps into the body. */
  payload: unknown;
}

/** A delivery a sender has claimed: everything it needs to make one attempt. */
export interface ClaimedDelivery {
  /** `msg_` and 22 characters: the `webhook-id`, the same on every attempt. */
  id: string;
  endpoint_id: string;
  url: string;
  event_type: string;
  payload: unknown;
  /** When the event was put in the outbox (ISO date-time). */
  created_at: string;
  /** This attempt's number, from 1: claiming counts an attempt, so one whose sender died counts too. */
  attempt: number;
  /** The secrets that sign: the current one first, then the one being rotated out while it still signs. */
  secrets: string[];
  /** The endpoint's failing_since before this attempt. */
  endpoint_failing_since: string | null;
}

/** How an attempt ended, as the sender decided with retry-schedule.ts. */
export type DeliveryOutcome = {
  /** The answer's status; null when there was none (timeout, connection failure). */
  responseCode: number | null;
  latencyMs: number;
  /** What went wrong, for the owner's delivery log; null on success. */
  error: string | null;
} & (
  | { status: 'delivered' }
  /** Tried again in `delayMs`, measured on the database's clock. */
  | { status: 'retry'; delayMs: number }
  /** Given up: no more attempts. */
  | { status: 'failed' }
  /** The delivery failed and its endpoint is disabled now, with its other pending deliveries. */
  | { status: 'disable-endpoint'; reason: string }
);

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as its endpoint's owner sees it in the log. */
export interface DeliveryRecord {
  id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: string;
  last_attempt_at: string | null;
  last_response_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  /** When the next attempt is due; null unless pending. */
  next_attempt_at: string | null;
}

/** What asking to retry a delivery did: nothing unless it is `due`. */
export type RetryDeliveryResult =
  | { outcome: 'due'; delivery: DeliveryRecord }
  /** The key has no such endpoint, or the endpoint no such delivery. */
  | { outcome: 'not-found' }
  | { outcome: 'already-delivered' }
  /** Nothing is sent to a disabled endpoint. */
  | { outcome: 'endpoint-disabled' };

/** A key's endpoints, as their owner manages them. */
interface WebhookEndpoints {
  /**
   * Register an endpoint for a key, unless the key already has `limit` (its plan's) or more:
   * then nothing is created. The count and the insert are atomic per key. Throws when the key
   * does not exist.
   */
  createEndpoint(
    endpoint: NewWebhookEndpoint,
    limit: number,
  ): Promise<{ endpoint: WebhookEndpoint; limitReached: false } | { endpoint: null; limitReached: true }>;
  /** A key's endpoints, oldest first. */
  listEndpoints(keyId: number): Promise<WebhookEndpoint[]>;
  /** One of a key's endpoints; null when it has none of that id. */
  getEndpoint(keyId: number, endpointId: string): Promise<WebhookEndpoint | null>;
  /** Delete one of a key's endpoints with its deliveries; false when it has none of that id. */
  deleteEndpoint(keyId: number, endpointId: string): Promise<boolean>;
  /**
   * Make `secret` the endpoint's secret; the current one keeps signing until `previousValidMs`
   * from now (database clock). False when the key has no endpoint of that id.
   */
  rotateSecret(keyId: number, endpointId: string, secret: string, previousValidMs: number): Promise<boolean>;
}

/** The outbox: deliveries put in, claimed by senders, and how each attempt ended. */
interface WebhookOutbox {
  /**
   * Put deliveries in the outbox, due now; returns the ids of those new: not already there by
   * event key, and for an endpoint that exists and is enabled.
   */
  enqueue(deliveries: readonly NewDelivery[]): Promise<string[]>;
  /**
   * Claim up to `limit` due deliveries of enabled endpoints, oldest due first, for `leaseMs`:
   * no other claim gets them until the lease ends, and when it ends without an outcome recorded
   * (the sender died) they are due again. Concurrent claimers never get the same delivery.
   */
  claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Record how the attempt `claim` made ended. False, recording nothing, when the delivery has
   * been claimed again since (this sender's lease ran out) or is gone.
   */
  recordOutcome(claim: Pick<ClaimedDelivery, 'id' | 'attempt'>, outcome: DeliveryOutcome): Promise<boolean>;
  /** Deliveries pending, the age of the oldest (null when none), and the endpoints disabled, for metrics. */
  queueStats(): Promise<{ pending: number; oldest_pending_age_ms: number | null; disabled_endpoints: number }>;
}

/** An endpoint's deliveries as its owner sees and retries them. */
interface WebhookDeliveryLog {
  /**
   * Make a failed or pending delivery of one of a key's endpoints due now (a pending one whose
   * attempt is in flight stays the sender's until its lease ends). Its webhook-id stays; a failed
   * one is pending again and gets one more attempt, more if that one is retried by the schedule.
   */
  retryDelivery(keyId: number, endpointId: string, deliveryId: string): Promise<RetryDeliveryResult>;
  /** The newest `limit` deliveries of one of a key's endpoints, newest first. */
  recentDeliveries(keyId: number, endpointId: string, limit: number): Promise<DeliveryRecord[]>;
}

/** Everything the webhook store keeps (the adapter implements all three). */
export interface WebhookStore extends WebhookEndpoints, WebhookOutbox, WebhookDeliveryLog {}

/** How one POST to a receiver ended, as the transport saw it. */
export type TransportResult =
  | { kind: 'response'; status: number; latencyMs: number }
  /** No answer within the timeout. */
  | { kind: 'timeout'; latencyMs: number }
  /** No answer at all: refused, reset, TLS failure. `error` names it for the delivery log. */
  | { kind: 'network'; error: string; latencyMs: number };

/**
 * Where an attempt is sent. The adapter connects only to `addresses` (those the address policy
 * accepted for the URL's host), never resolving the name again, and does not follow redirects.
 * Resolves, never rejects.
 * Adapter: src/adapters/http/webhook-transport.ts.
 */
export interface WebhookTransport {
  send(request: {
    url: URL;
    addresses: readonly { address: string; family: number }[];
    headers: Readonly<Record<string, string>>;
    body: string;
    timeoutMs: number;
  }): Promise<TransportResult>;
}
