-- Alert detection (issue 15): after each load, the companies it changed are looked up among the
-- watchlists, and each alert not seen before is recorded here and written to the webhook outbox
-- in the same transaction.

-- The watchlists that hold a company, by its number: the primary key leads with key_id, so
-- without this index finding a changed company's watchers would read every watchlist.
CREATE INDEX watchlist_entries_company ON watchlist_entries (company_number);

-- The companies whose accounts fell due since the last run: overdue_accounts comes from the
-- passing of a date, not from a change a load writes, so detection also looks for the watched
-- companies whose accounts_next_due lies between the last run's day and this one's.
CREATE INDEX companies_accounts_next_due ON companies (accounts_next_due);

-- One row per key and alert detected for it: alert_key is the alert's identity (company, kind and
-- the state it moved to, src/alert-detection/alert-events.ts alertKey), so an alert that a later
-- load finds again is not delivered again. A key's detections go with it.
CREATE TABLE alert_detections (
  key_id bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  alert_key text NOT NULL,
  company_number text NOT NULL,
  kind text NOT NULL,
  detected_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_id, alert_key)
);

-- How far detection has looked: the database time its last run started. The next run checks the
-- companies changed since (less a margin for loads whose writes were still committing), so a load
-- whose detection never ran (killed, failed) is caught up by the next one. One row at most.
CREATE TABLE alert_detection_runs (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  detected_through timestamptz NOT NULL
);
