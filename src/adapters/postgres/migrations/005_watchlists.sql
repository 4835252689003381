-- Watchlists: the companies each API key watches, with what the register and the latest accounts
-- said of each when it was added (the snapshot alerts compare against). A key's list goes with it.
CREATE TABLE watchlist_entries (
  key_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  company_number text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  snapshot jsonb NOT NULL,
  PRIMARY KEY (key_id, company_number)
);
