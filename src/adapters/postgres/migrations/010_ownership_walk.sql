-- The ownership walk down (src/adapters/postgres/ownership-reader.ts controlledBy, controlledCounts):
-- the current corporate PSCs registered as a company, in the order the walk reads them, so that a
-- parent of tens of thousands of companies is read up to the walk's cap and no further, and counted
-- from the index alone.
CREATE INDEX psc_current_parent ON psc (registered_company_number, company_number, psc_id)
  WHERE NOT ceased AND registered_company_number IS NOT NULL;
