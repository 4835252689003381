-- Following the Companies House Streaming API. One row per stream: the timepoint of the last
-- event applied, written in the same transaction as the changes it carried (a batch is applied
-- and remembered together or not at all), and the lease of the one process that follows it.
CREATE TABLE stream_positions (
  stream text PRIMARY KEY,
  -- The last event applied; null: the stream is read from now (first start, or after a gap).
  timepoint bigint,
  published_at timestamptz,
  events_applied bigint NOT NULL DEFAULT 0,
  -- Who follows it (host, pid and a random tag), until when; renewed while it follows.
  holder text,
  lease_until timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Where a stream could not resume (416: the timepoint is too old) and was read again from now:
-- what happened between the last event applied and the restart is not in the store until a
-- catch-up (the next snapshot, or the REST API) fills it.
CREATE TABLE stream_gaps (
  id bigserial PRIMARY KEY,
  stream text NOT NULL,
  after_timepoint bigint,
  after_published_at timestamptz,
  detected_at timestamptz NOT NULL DEFAULT now(),
  reason text NOT NULL,
  filled_at timestamptz
);

-- Events an applier could not read (a missing company number, a malformed date): kept whole
-- with the reason, never applied half.
CREATE TABLE stream_rejects (
  stream text NOT NULL,
  timepoint bigint NOT NULL,
  resource_uri text NOT NULL,
  reason text NOT NULL,
  event jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream, timepoint, resource_uri)
);

-- The companies stream event a company's row was last written from: an event published earlier
-- (or the same one again) changes nothing.
ALTER TABLE companies ADD COLUMN stream_published_at timestamptz, ADD COLUMN stream_timepoint bigint;
