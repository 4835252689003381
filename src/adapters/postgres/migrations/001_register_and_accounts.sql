-- The register, the accounts filings, the per-company accounts history, and the load journal.

CREATE TABLE companies (
  company_number text PRIMARY KEY,
  name text NOT NULL,
  status text NOT NULL,
  type text NOT NULL,
  incorporated date,
  dissolved date,
  country_of_origin text,
  accounts_ref_day smallint,
  accounts_ref_month smallint,
  accounts_category text,
  accounts_last_made_up_to date,
  accounts_next_due date,
  confirmation_last_made_up_to date,
  confirmation_next_due date,
  charges_total integer NOT NULL DEFAULT 0,
  charges_outstanding integer NOT NULL DEFAULT 0,
  charges_part_satisfied integer NOT NULL DEFAULT 0,
  charges_satisfied integer NOT NULL DEFAULT 0,
  sic_codes text[] NOT NULL DEFAULT '{}',
  care_of text,
  po_box text,
  line_1 text,
  line_2 text,
  post_town text,
  county text,
  country text,
  postcode text,
  previous_names jsonb NOT NULL DEFAULT '[]',
  -- The date of the register snapshot the company was last listed in.
  snapshot_date date NOT NULL,
  -- Set when a complete later snapshot no longer lists it (the snapshot lists live companies only).
  removed_from_register date,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX companies_snapshot ON companies (snapshot_date);

CREATE TABLE filings (
  id bigserial PRIMARY KEY,
  company_number text NOT NULL,
  -- Base name of the bulk zip it came from ('' for a loose file) and its own name in it.
  source_zip text NOT NULL,
  source_file text NOT NULL,
  published date,
  balance_sheet_date date NOT NULL,
  period_start date,
  standard text NOT NULL,
  entity_name text,
  current_figures jsonb NOT NULL,
  prior_balance_sheet_date date,
  prior_period_start date,
  prior_figures jsonb,
  quality jsonb NOT NULL DEFAULT '[]',
  loaded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source_zip, source_file)
);
CREATE INDEX filings_company ON filings (company_number, balance_sheet_date DESC);
CREATE INDEX filings_published ON filings (published DESC);

-- One row per company and balance sheet date: from a filing's current column, or, when no filing
-- covers that date, from a later filing's prior column.
CREATE TABLE accounts_history (
  company_number text NOT NULL,
  balance_sheet_date date NOT NULL,
  period_start date,
  published date,
  standard text NOT NULL,
  figures jsonb NOT NULL,
  quality jsonb NOT NULL DEFAULT '[]',
  from_prior_period boolean NOT NULL,
  filing_id bigint NOT NULL REFERENCES filings (id) ON DELETE CASCADE,
  PRIMARY KEY (company_number, balance_sheet_date)
);

-- Filings that could not be parsed, kept so that a report can be made at any time.
CREATE TABLE parse_failures (
  source_zip text NOT NULL,
  source_file text NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source_zip, source_file)
);

CREATE TABLE load_journal (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('register', 'accounts')),
  source text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed', 'interrupted')),
  rows_read bigint NOT NULL DEFAULT 0,
  rows_written bigint NOT NULL DEFAULT 0,
  rows_rejected bigint NOT NULL DEFAULT 0,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX load_journal_source ON load_journal (kind, source, status);
