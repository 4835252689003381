-- Which filed file each history entry's figures came from: the bulk zip's base name ('' for a
-- loose file) and the member file's name, copied from the filing the entry was taken from (its
-- current column, or its prior-year column). A copy, not a join to filings at read time: a lookup
-- reads the history by its primary key and nothing else, and a join would add a probe of filings
-- and a fetch of its wide row (the figures of both columns) for every year. The copy cannot go
-- stale: a filing's source is its unique key, and the history is rebuilt from the filings.
ALTER TABLE accounts_history ADD COLUMN source_zip text, ADD COLUMN source_file text;
UPDATE accounts_history h SET source_zip = f.source_zip, source_file = f.source_file
  FROM filings f WHERE f.id = h.filing_id;
ALTER TABLE accounts_history ALTER COLUMN source_zip SET NOT NULL, ALTER COLUMN source_file SET NOT NULL;
