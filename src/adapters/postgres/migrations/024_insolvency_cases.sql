-- Insolvency cases from the insolvency-cases stream, one row per company: each event carries the
-- company's whole insolvency resource (every case, with its type, dates and practitioners), so the
-- row is replaced by a later event and kept by an older one (compared by published_at, then
-- timepoint). The insolvency alert compares the case keys a watch snapshot kept with these cases.
CREATE TABLE company_insolvency (
  company_number text PRIMARY KEY,
  status text,
  cases jsonb NOT NULL,
  stream_timepoint bigint NOT NULL,
  stream_published_at timestamptz NOT NULL
);
