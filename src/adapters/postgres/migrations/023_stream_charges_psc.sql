-- Charges from the charges stream, one row per charge: a charge first seen that was delivered on or
-- after the day the company's register facts are from is one the register's counts do not hold yet,
-- and is added to them (new_charges compares charges_total); a change of status moves it between
-- the counts. The next register snapshot sets the counts as Companies House has them.
CREATE TABLE stream_charges (
  charge_id text PRIMARY KEY,
  company_number text NOT NULL,
  status text,
  delivered_on date,
  counted boolean NOT NULL,
  stream_timepoint bigint NOT NULL,
  stream_published_at timestamptz NOT NULL
);
CREATE INDEX stream_charges_company ON stream_charges (company_number);
