-- Webhooks (issue 15): the endpoints API keys register, and the outbox of deliveries to them.
-- Secrets are stored sealed (AES-256-GCM under the operator's key, src/webhooks/secret-sealer.ts), and
-- while a secret is rotated the previous one keeps signing until previous_secret_expires_at.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  key_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  url text NOT NULL,
  -- The event types delivered; NULL for all of them.
  events text[],
  description text,
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The first failed attempt since the last success: the sender disables an endpoint failing for three days.
  failing_since timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL)),
  CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL))
);
CREATE INDEX webhook_endpoints_key ON webhook_endpoints (key_id, created_at);

-- One row per event and endpoint: id is the webhook-id sent on every attempt. event_key is the
-- event's identity (an alert's company, kind and new state): unique per endpoint, so writing the
-- same alert twice leaves one delivery. NULL keys (webhook.test) never collide.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_key text,
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  -- Attempts claimed so far, the one in flight included.
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Set by a claim: until then no other sender takes the delivery; after it, a sender that died is assumed.
  lease_until timestamptz,
  last_attempt_at timestamptz,
  last_response_code integer,
  last_latency_ms integer,
  last_error text,
  UNIQUE (endpoint_id, event_key)
);
-- Senders look for due pending deliveries; delivered and failed ones are never scanned.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
-- An endpoint's delivery log, newest first.
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
