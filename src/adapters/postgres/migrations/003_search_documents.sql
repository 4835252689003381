-- The search document grows to carry the latest and prior figures, the derived facts (flags,
-- size and risk bands) and the keys filters match. It is derived data: the table is recreated
-- empty and the indexer fills it (a full build on the next start or load).
DROP TABLE IF EXISTS company_search_next;
DROP TABLE company_search;

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
  sic_codes text[] NOT NULL,
  status_groups text[] NOT NULL,
  type_key text NOT NULL,
  sic_prefixes text[] NOT NULL,
  post_town_key text,
  must_file boolean NOT NULL,
  accounts_next_due date,
  charges_outstanding integer NOT NULL,
  balance_sheet_date date,
  published date,
  net_assets double precision,
  cash double precision,
  turnover double precision,
  employees double precision,
  profit double precision,
  current_assets double precision,
  prior_balance_sheet_date date,
  prior_net_assets double precision,
  prior_cash double precision,
  prior_turnover double precision,
  prior_employees double precision,
  prior_profit double precision,
  net_assets_change_pct double precision,
  cash_change_pct double precision,
  employees_change double precision,
  flags text[] NOT NULL,
  size_band text,
  risk_band text NOT NULL,
  risk_band_if_overdue text NOT NULL
);
-- Unnamed on purpose: a rebuild replays these definitions on its side table (see pg-search-index.ts).
CREATE INDEX ON company_search USING gin (name_words gin_trgm_ops);
CREATE INDEX ON company_search (name_words);
CREATE INDEX ON company_search USING gin (status_groups);
CREATE INDEX ON company_search USING gin (sic_prefixes);
CREATE INDEX ON company_search USING gin (flags);
CREATE INDEX ON company_search (post_town_key);
CREATE INDEX ON company_search (net_assets DESC NULLS LAST, company_number);

-- What the incremental indexer needs to find changed companies.
CREATE INDEX companies_updated ON companies (updated_at);
CREATE INDEX filings_loaded ON filings (loaded_at);

-- How far each search index (the Postgres one, or an Elasticsearch alias) has been brought.
CREATE TABLE search_index_runs (
  target text PRIMARY KEY,
  indexed_through timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
