-- Officers in people search (src/ownership/officer-person.ts): each appointment's person_key, made
-- as a PSC's is, so that the people index groups a person's appointments with their control of
-- companies. Written with every officer row (officer-writes.ts); rows written before this migration
-- are keyed by the people indexer's next run (people-source.ts), which also rebuilds the index.
ALTER TABLE officers ADD COLUMN person_key text;
CREATE INDEX officers_person ON officers (person_key) WHERE person_key IS NOT NULL;
-- The rows still to key, so that each indexer run finds them (usually none) without a scan.
CREATE INDEX officers_unkeyed ON officers (company_number, appointment_id)
  WHERE person_key IS NULL AND name IS NOT NULL AND role IS NOT NULL;

-- An appointment whose person_key changes (a name corrected) leaves its old person behind, as a
-- PSC record does: noted in the same table, so that the indexer's update re-reads the old person.
CREATE TRIGGER officer_person_moved AFTER UPDATE OF person_key ON officers FOR EACH ROW
  WHEN (OLD.person_key IS NOT NULL AND OLD.person_key IS DISTINCT FROM NEW.person_key)
  EXECUTE FUNCTION psc_note_person_move();

-- The people documents gain officers' fields: the index is built again in full on the next run
-- (an empty index is always built in full).
TRUNCATE people_search;
