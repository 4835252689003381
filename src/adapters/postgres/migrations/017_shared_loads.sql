-- Loads and full index builds split between several processes (issue 17). Work is claimed with
-- SELECT … FOR UPDATE SKIP LOCKED and held by a lease on the database's clock, which the holder
-- renews while it works; a lease left to run out (its holder died) lets another process take the
-- work over. load_journal keeps one row per attempt, as before; these tables say who holds what.

-- One row per bulk file any load was asked for.
CREATE TABLE load_claims (
  kind text NOT NULL CHECK (kind IN ('register', 'accounts', 'psc')),
  source text NOT NULL,
  -- Who holds it (host, pid and a random tag), until when; both null when nobody does.
  holder text,
  lease_until timestamptz,
  -- How many times it was claimed, takeovers included.
  claims integer NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, source)
);

-- A full build of one search index, written by any number of processes.
CREATE TABLE index_builds (
  id bigserial PRIMARY KEY,
  -- The index's name in search_index_runs (elasticsearch:companies), and the index being built.
  target text NOT NULL,
  index_name text NOT NULL,
  -- The database's clock when the build began: what the index is up to date with when it is done.
  indexed_through timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('building', 'publishing', 'done', 'abandoned')),
  -- The process publishing it (moving the alias) and its lease, while status is publishing.
  holder text,
  lease_until timestamptz,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- At most one unfinished build per index: a process asked for a full build joins it.
CREATE UNIQUE INDEX index_builds_unfinished ON index_builds (target) WHERE status IN ('building', 'publishing');

-- The company-number ranges of a build: the numbers after after_number ('' for the first range)
-- up to and including last_number (null for the last range: to the end).
CREATE TABLE index_build_ranges (
  build_id bigint NOT NULL REFERENCES index_builds (id) ON DELETE CASCADE,
  after_number text NOT NULL,
  last_number text,
  done boolean NOT NULL DEFAULT false,
  holder text,
  lease_until timestamptz,
  claims integer NOT NULL DEFAULT 0,
  -- Who wrote it in the end, how many documents, when.
  written_by text,
  documents integer,
  finished_at timestamptz,
  PRIMARY KEY (build_id, after_number)
);
