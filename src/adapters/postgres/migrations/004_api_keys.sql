-- API keys, stored only as the SHA-256 (hex) of the whole key; operators know a key by its prefix
-- (`ukcd_` and 8 more characters). Revoked keys are kept, with the time they were revoked.
CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('free', 'pro')),
  email text,
  -- The address a free key was issued to, for the per-address rate limit; null for operator keys.
  client_ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
-- text_pattern_ops: lookups are `prefix LIKE 'ukcd_ab%'`, which a plain index serves only in the C locale.
CREATE INDEX api_keys_prefix ON api_keys (prefix text_pattern_ops);
-- The free-key rate limit counts an address's keys created in the last hour.
CREATE INDEX api_keys_client_ip_created ON api_keys (client_ip, created_at);

-- Requests counted per key and usage month ('2026-11', UTC); a new month starts a new row at 0.
CREATE TABLE api_usage (
  key_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  used integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (key_id, month)
);
