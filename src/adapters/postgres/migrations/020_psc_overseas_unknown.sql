-- Whether a corporate or legal-person PSC is overseas is null when neither its identification nor
-- its address says where it is: unknown is not the United Kingdom. Rows written before held false
-- for unknown; those of entities with no country are made null here (a few per cent of entities),
-- and every row a PSC load lists is written again with the new reading (the address's country
-- included) by the next load.
ALTER TABLE psc ALTER COLUMN overseas DROP NOT NULL, ALTER COLUMN overseas DROP DEFAULT;
UPDATE psc SET overseas = NULL
  WHERE NOT overseas AND country IS NULL AND kind_class IN ('corporate', 'legal_person');
