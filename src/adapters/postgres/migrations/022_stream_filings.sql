-- Filing history items from the filings stream, one row per transaction. An accounts filing with a
-- document waits here ('pending') until the document fetcher reads it through the Document API:
-- 'loaded' (its iXBRL is in filings, source_zip 'document-api'), 'pdf_only' (left to the PDF
-- reader), 'already_loaded' (a bulk file had it), 'failed' (the reason in document_detail).
CREATE TABLE stream_filings (
  transaction_id text PRIMARY KEY,
  company_number text NOT NULL,
  category text,
  type text,
  filed_on date,
  description text,
  made_up_date date,
  document_metadata text,
  document_status text NOT NULL CHECK (document_status IN
    ('none', 'pending', 'fetching', 'loaded', 'pdf_only', 'already_loaded', 'failed')),
  document_detail text,
  claimed_until timestamptz,
  stream_timepoint bigint NOT NULL,
  stream_published_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stream_filings_pending ON stream_filings (stream_published_at) WHERE document_status IN ('pending', 'fetching');
CREATE INDEX stream_filings_company ON stream_filings (company_number, filed_on DESC);
