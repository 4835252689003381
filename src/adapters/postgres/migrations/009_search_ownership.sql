-- The search document gains the ownership filters' fields (issue 14): the count of current PSCs,
-- whether a current corporate parent is on file, and the country keys of the corporate parents
-- (src/ownership/psc-summary.ts). The first two stay null for a company without any PSC record,
-- which matches no ownership filter. The table is derived data: emptied here, so that the indexer
-- rebuilds it in full on the next start or load (an empty index is always built in full), as 006 did.
DROP TABLE IF EXISTS company_search_next;
TRUNCATE company_search;
ALTER TABLE company_search
  ADD COLUMN controller_count integer,
  ADD COLUMN has_corporate_parent boolean,
  ADD COLUMN parent_countries text[] NOT NULL DEFAULT '{}';
-- Unnamed on purpose: a rebuild replays these definitions on its side table (see pg-search-index.ts).
CREATE INDEX ON company_search USING gin (parent_countries);
