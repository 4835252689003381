-- A company with figures estimated from its scanned PDF accounts gets a second search document,
-- its history with the estimates merged in (src/domain/search-document.ts searchDocuments), read
-- only by searches that ask to include estimates. Documents are keyed by `doc_key` (the company
-- number, or the number and `~estimated`) and say their `view`. The table is derived data:
-- emptied here, so that the indexer rebuilds it in full on the next start or load, as 060 did.
DROP TABLE IF EXISTS company_search_next;
TRUNCATE company_search;
-- The primary key's name depends on whether a full rebuild swapped the table in (rebuild-beside.ts).
DO $$ DECLARE pk text; BEGIN SELECT conname INTO pk FROM pg_constraint WHERE conrelid = 'company_search'::regclass AND contype = 'p'; EXECUTE format('ALTER TABLE company_search DROP CONSTRAINT %I', pk); END $$;
ALTER TABLE company_search
  ADD COLUMN doc_key text PRIMARY KEY,
  ADD COLUMN view text NOT NULL;
