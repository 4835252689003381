-- The search document gains the overall trajectory (the `trajectory` filter) and total assets
-- less current liabilities (`min_total_assets`/`max_total_assets`); its flags gain
-- `insolvency_proxy`. The table is derived data: emptied here, so that the indexer rebuilds it in
-- full on the next start or load (an empty index is always built in full), as 003 did.
DROP TABLE IF EXISTS company_search_next;
TRUNCATE company_search;
ALTER TABLE company_search
  ADD COLUMN total_assets_less_current_liabilities double precision,
  ADD COLUMN trajectory text NOT NULL;
