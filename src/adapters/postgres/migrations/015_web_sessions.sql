-- Web page sessions (issue 16): a person signs in by pasting an API key once; the browser keeps
-- only an opaque session id in a cookie, and the database keeps the SHA-256 (hex) of that id, so
-- a copy of this table cannot be replayed as cookies. The key itself is not stored: the session
-- points at the key's row, so a revoked key ends its sessions at once, and a deleted key takes
-- them with it. csrf_token is the value every form of the session must send back.
CREATE TABLE web_sessions (
  id_hash text PRIMARY KEY,
  key_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
-- Expired sessions are deleted by expiry time as new ones are made.
CREATE INDEX web_sessions_expires_at ON web_sessions (expires_at);
-- Foreign-key checks and cascades from api_keys find a key's sessions by this.
CREATE INDEX web_sessions_key_id ON web_sessions (key_id);
