-- The search document gains identity_overdue_from (src/domain/officers.ts earliestOverdueFrom): the
-- earliest day from which a current officer's or PSC's identity verification is overdue, that the
-- `identity_unverified` filter compares with the day asked. The table is derived data: emptied
-- here, so that the indexer rebuilds it in full on the next start or load (an empty index is always
-- built in full), as 006, 009 and 060 did.
DROP TABLE IF EXISTS company_search_next;
TRUNCATE company_search;
ALTER TABLE company_search ADD COLUMN identity_overdue_from date;
