-- People search on Postgres (src/adapters/pg-search/pg-people-index.ts): one row per person with
-- significant control (the PSC records sharing a person_key, src/ownership/people.ts), its name
-- normalised by the same TypeScript function the Elasticsearch people indexer uses, and the whole
-- document as the answer shows it. Derived data: the indexer fills it (a full build on the next
-- start or load).
CREATE TABLE people_search (
  person_key text PRIMARY KEY,
  kind text NOT NULL,
  -- normalisePersonName(...), with a leading space so that " WORD" finds a word start.
  name_words text NOT NULL,
  name_length integer NOT NULL,
  current_companies integer NOT NULL,
  birth_year smallint,
  birth_month smallint,
  document jsonb NOT NULL
);
-- Unnamed on purpose: a rebuild replays these definitions on its side table (as company_search).
-- Word prefixes and "starts with" through trigrams; the exact name through the btree.
CREATE INDEX ON people_search USING gin (name_words gin_trgm_ops);
CREATE INDEX ON people_search (name_words);
CREATE INDEX ON people_search (birth_year, birth_month) WHERE birth_year IS NOT NULL;

-- A PSC record whose person_key changes (a name corrected, a kind reclassified) leaves its old
-- person behind: the row no longer says who it was. The old key is noted here, so that the people
-- indexer's update re-reads it (and removes the person when nothing names them any more). One row
-- per change, rare: the table stays small.
CREATE TABLE psc_person_moves (
  person_key text NOT NULL,
  moved_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX psc_person_moves_at ON psc_person_moves (moved_at);

CREATE FUNCTION psc_note_person_move() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO psc_person_moves (person_key) VALUES (OLD.person_key); RETURN NULL; END $$;

-- The WHEN conditions keep the bulk load's cost at a comparison per row.
CREATE TRIGGER psc_person_moved AFTER UPDATE OF person_key ON psc FOR EACH ROW
  WHEN (OLD.person_key IS NOT NULL AND OLD.person_key IS DISTINCT FROM NEW.person_key)
  EXECUTE FUNCTION psc_note_person_move();
CREATE TRIGGER psc_person_deleted AFTER DELETE ON psc FOR EACH ROW
  WHEN (OLD.person_key IS NOT NULL)
  EXECUTE FUNCTION psc_note_person_move();
