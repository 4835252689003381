-- Company officers (src/domain/officers.ts): one row per appointment, from the officers stream and
-- from `ukcd backfill officers` (the Public Data API). `as_of` is when the stored state was
-- published (the stream event's published_at) or fetched (the API), and `timepoint` the stream's
-- own order (null for the API): a change older than the row, or the same event again, changes
-- nothing. An appointment the stream deletes, or a company's full list no longer holds, is kept as
-- a tombstone (`deleted`), so that an older event arriving late cannot bring it back.
CREATE TABLE officers (
  company_number text NOT NULL,
  appointment_id text NOT NULL,
  officer_id text,
  name text,
  role text,
  appointed_on date,
  resigned_on date,
  nationality text,
  occupation text,
  country_of_residence text,
  birth_year smallint,
  birth_month smallint,
  identity_verification jsonb,
  data jsonb NOT NULL DEFAULT '{}',
  deleted boolean NOT NULL DEFAULT false,
  as_of timestamptz NOT NULL,
  timepoint bigint,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_number, appointment_id)
);
-- One officer's appointments (a director's network).
CREATE INDEX officers_officer ON officers (officer_id) WHERE officer_id IS NOT NULL;
-- What changed since an indexer last ran.
CREATE INDEX officers_updated ON officers (updated_at);

-- Disqualified officers, from the disqualified-officers stream, by the officer id the officers
-- stream and API use. Every one is kept (a few tens of thousands), not only those of officers
-- already held, so that a backfill that brings the officer later finds the disqualification.
CREATE TABLE officer_disqualifications (
  officer_id text PRIMARY KEY,
  kind text NOT NULL,
  name text,
  disqualifications jsonb NOT NULL DEFAULT '[]',
  -- The latest disqualified_until of the list: in force while it is today or later.
  disqualified_until date,
  deleted boolean NOT NULL DEFAULT false,
  as_of timestamptz NOT NULL,
  timepoint bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The officers backfill's progress: a run per selection (`watched`, `all`, `file:<path>`), and
-- when each company's officers were last fetched. A run that stops is continued by the next
-- backfill of the same selection: it skips the companies fetched since the run began.
CREATE TABLE officer_backfill_runs (
  selection text PRIMARY KEY,
  started_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE TABLE officer_backfill_companies (
  company_number text PRIMARY KEY,
  fetched_at timestamptz NOT NULL,
  officers integer NOT NULL
);
