-- Persons with significant control, from the PSC snapshot: one row per PSC or statement of a
-- company (src/ownership/psc.ts). A PSC a complete snapshot no longer lists is kept, ceased
-- (ceased_by_snapshot), never deleted. `data` is the record as filed less an individual's address
-- and day of birth. updated_at moves only when the record changed (its content hash), so that the
-- indexers update what changed, not every row a daily snapshot lists again.
CREATE TABLE psc (
  company_number text NOT NULL,
  psc_id text NOT NULL,
  kind text NOT NULL,
  kind_class text NOT NULL,
  beneficial_owner boolean NOT NULL DEFAULT false,
  name text,
  name_elements jsonb,
  natures text[] NOT NULL DEFAULT '{}',
  notified_on date,
  ceased_on date,
  ceased boolean NOT NULL DEFAULT false,
  ceased_by_snapshot date,
  birth_year smallint,
  birth_month smallint,
  nationality text,
  country_of_residence text,
  identification jsonb,
  statement text,
  registered_company_number text,
  country text,
  overseas boolean NOT NULL DEFAULT false,
  person_key text,
  content_hash text NOT NULL,
  data jsonb NOT NULL,
  snapshot_date date NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_number, psc_id)
);
-- Down the ownership chain: the companies a company controls.
CREATE INDEX psc_registered_company ON psc (registered_company_number) WHERE registered_company_number IS NOT NULL;
-- One person's companies.
CREATE INDEX psc_person ON psc (person_key) WHERE person_key IS NOT NULL;
-- What changed since an indexer last ran.
CREATE INDEX psc_updated ON psc (updated_at);

ALTER TABLE load_journal DROP CONSTRAINT IF EXISTS load_journal_kind_check;
ALTER TABLE load_journal ADD CONSTRAINT load_journal_kind_check CHECK (kind IN ('register', 'accounts', 'psc'));
