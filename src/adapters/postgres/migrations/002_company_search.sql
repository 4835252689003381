-- The Postgres-backed search index: names normalised by the same TypeScript function the
-- Elasticsearch indexer uses, with trigram indexes for word-prefix matching.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE company_search (
  company_number text PRIMARY KEY,
  name text NOT NULL,
  -- normaliseCompanyName(name), with a leading space so that " WORD" finds a word start.
  name_words text NOT NULL,
  name_length integer NOT NULL,
  status text NOT NULL,
  active boolean NOT NULL,
  type text NOT NULL,
  post_town text,
  incorporated date,
  sic_codes text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX company_search_words ON company_search USING gin (name_words gin_trgm_ops);
CREATE INDEX company_search_exact ON company_search (name_words);
