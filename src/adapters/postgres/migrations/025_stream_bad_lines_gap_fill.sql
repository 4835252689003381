-- Lines of a stream that are not events (not JSON, or JSON without the event's shape): skipped so
-- the stream goes on, and kept here for an operator, one row per distinct line however often it
-- is read again (a reconnection before the next event is applied reads it again).
CREATE TABLE stream_bad_lines (
  stream text NOT NULL,
  -- sha-256 of the whole line: the same line read again is the same row.
  line_hash text NOT NULL,
  -- The event's timepoint when the line shows one, else null.
  timepoint bigint,
  -- The line's first 500 bytes.
  excerpt text NOT NULL,
  reason text NOT NULL,
  times_read integer NOT NULL DEFAULT 1,
  first_read_at timestamptz NOT NULL DEFAULT now(),
  last_read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream, line_hash)
);

-- The REST catch-up of a gap (a 416): the watched companies are fetched in company-number order,
-- so an interrupted catch-up resumes after the last one done; what it fetched and changed; and the
-- one process filling it (a lease, renewed with each company, taken over when it runs out).
ALTER TABLE stream_gaps
  ADD COLUMN fill_after_company text,
  ADD COLUMN fill_counts jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN fill_holder text,
  ADD COLUMN fill_lease_until timestamptz;
