-- The search document gains each growth figure's change between its two newest periods and its
-- direction (src/domain/figure-growth.ts: the `<figure>_trend` and `min_/max_<figure>_growth`
-- filters), and the previous total assets less current liabilities they are read from. The table
-- is derived data: emptied here, so that the indexer rebuilds it in full on the next start or load
-- (an empty index is always built in full), as 006 and 009 did.
DROP TABLE IF EXISTS company_search_next;
TRUNCATE company_search;
ALTER TABLE company_search
  ADD COLUMN prior_total_assets_less_current_liabilities double precision,
  ADD COLUMN turnover_growth_pct double precision,
  ADD COLUMN turnover_trend text NOT NULL,
  ADD COLUMN profit_growth_pct double precision,
  ADD COLUMN profit_trend text NOT NULL,
  ADD COLUMN net_assets_growth_pct double precision,
  ADD COLUMN net_assets_trend text NOT NULL,
  ADD COLUMN total_assets_growth_pct double precision,
  ADD COLUMN total_assets_trend text NOT NULL,
  ADD COLUMN cash_growth_pct double precision,
  ADD COLUMN cash_trend text NOT NULL,
  ADD COLUMN employees_growth_pct double precision,
  ADD COLUMN employees_trend text NOT NULL;
