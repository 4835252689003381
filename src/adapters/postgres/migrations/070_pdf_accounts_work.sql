-- The fetching of accounts PDFs (docs/pdf-accounts.md). `pdf_accounts_queue` is the work shared
-- between processes and machines: a company is pending while it has never been finished or was
-- requested again after it was; a process holds it by a lease on the database's clock, and a
-- lease that runs out (its holder died, or a failure put it off) makes it claimable again.
-- Lookups (on demand) and `ukcd backfill pdf-accounts` both request companies here.
CREATE TABLE pdf_accounts_queue (
  company_number text PRIMARY KEY,
  requested_at timestamptz NOT NULL DEFAULT now(),
  -- 'lookup' or 'backfill:<selection>': who asked first since it was last finished.
  requested_by text NOT NULL,
  holder text,
  lease_until timestamptz,
  finished_at timestamptz,
  -- Why the last attempt failed (the API after its retries, the disk), until one succeeds.
  last_error text
);
CREATE INDEX pdf_accounts_queue_pending ON pdf_accounts_queue (requested_at)
  WHERE finished_at IS NULL OR finished_at < requested_at;

-- Every accounts document looked at, by its Document API id, so that none is fetched or read
-- twice: `read` (an estimate was stored), `failed` (the PDF could not be read; `reason` says why,
-- and it is not tried again) or `machine_readable` (the Document API offers it as iXBRL/XML).
CREATE TABLE pdf_accounts_documents (
  document_id text PRIMARY KEY,
  company_number text NOT NULL,
  transaction_id text,
  made_up_date date,
  outcome text NOT NULL CHECK (outcome IN ('read', 'failed', 'machine_readable')),
  reason text,
  -- The PDF under DATA_DIR (relative to it) and the sha256 of its bytes; null when not downloaded.
  path text,
  sha256 text,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pdf_accounts_documents_company ON pdf_accounts_documents (company_number);

-- The backfill's runs, one per selection (`watched`, `all-without-figures`, `file:<path>`): a run
-- that stops is continued by the next backfill of the same selection, which skips the companies
-- finished since the run began.
CREATE TABLE pdf_backfill_runs (
  selection text PRIMARY KEY,
  started_at timestamptz NOT NULL,
  finished_at timestamptz
);
