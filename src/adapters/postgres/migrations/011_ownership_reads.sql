-- The ownership walk's count of what each person or entity controls (src/adapters/postgres/
-- ownership-reader.ts controlledCounts): the current records of a person_key and their companies,
-- counted from the index alone instead of one heap page per record (a formation agent names
-- hundreds). IF NOT EXISTS: on a large register an operator may build it beforehand with
-- CREATE INDEX CONCURRENTLY, since a migration runs in a transaction and this one blocks writes to
-- psc while it builds (about two minutes for 12 million records).
CREATE INDEX IF NOT EXISTS psc_current_person ON psc (person_key, company_number)
  WHERE NOT ceased AND person_key IS NOT NULL;
