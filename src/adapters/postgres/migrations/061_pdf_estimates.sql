-- Figures estimated from scanned accounts PDFs (src/ports/pdf-estimates.ts), kept apart from the
-- iXBRL filings and their accounts_history: a lookup shows each one marked as an estimate, and
-- searches use them only when asked. One row per PDF, named by its Document API id: reading the
-- same document again replaces its row. `confidence` holds one grade per figure of `current` that
-- is not null (docs/pdf-accounts.md defines them).
CREATE TABLE pdf_estimates (
  document_id text PRIMARY KEY,
  company_number text NOT NULL,
  transaction_id text,
  sha256 text NOT NULL,
  balance_sheet_date date NOT NULL,
  period_start date,
  standard text NOT NULL,
  current jsonb NOT NULL,
  prior jsonb,
  confidence jsonb NOT NULL,
  warnings jsonb NOT NULL DEFAULT '[]',
  read_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A company's estimates, newest balance sheet date first (lookups, the indexer).
CREATE INDEX pdf_estimates_company ON pdf_estimates (company_number, balance_sheet_date DESC);
-- What changed since the indexer last ran: a new estimate updates the company's search document.
CREATE INDEX pdf_estimates_updated ON pdf_estimates (updated_at);
