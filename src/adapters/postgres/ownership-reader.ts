/**
 * Reads of the ownership graph on PostgreSQL or PGlite: a company's PSCs, the edges up and down the
 * chain. A corporate PSC resolves to a company when its registered number is on the register.
 */
import type { LevelledControlRecord, OwnershipReader, RegisteredCompany } from '../../ports/ownership.ts';
import type { StoredPsc } from '../../domain/psc.ts';
import type { Sql } from '../../ports/sql.ts';
import { PSC_COLUMNS, storedPsc, withNumbers } from './stored-psc.ts';

/**
 * What the ownership walk reads of a record (ControlRecord): no `data` but an exemption's
 * `exemptions` and a PSC's identity verification block (under either name), no hash, no dates it does not show. At full size the whole row (its filed JSON
 * above all) was most of a walk's cost.
 */
const CONTROL_COLUMNS = `p.company_number, p.psc_id, p.kind, p.kind_class, p.beneficial_owner, p.name,
  p.natures AS natures_of_control, to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on, p.birth_year,
  p.birth_month, p.nationality, p.country_of_residence, p.identification, p.statement,
  p.registered_company_number, p.country, p.overseas, p.person_key,
  CASE WHEN p.kind_class = 'exemption' AND p.data ? 'exemptions'
    THEN jsonb_build_object('exemptions', p.data -> 'exemptions') ELSE '{}'::jsonb END
  || CASE WHEN p.data ? 'identity_verification_details' OR p.data ? 'verification_details'
    THEN jsonb_build_object('identity_verification_details',
      coalesce(p.data -> 'identity_verification_details', p.data -> 'verification_details'))
    ELSE '{}'::jsonb END AS data,
  r.company_number AS resolved_company_number, r.name AS resolved_company_name`;

/** A record as ownershipAround reads it: the walk's columns, the level, both companies' names and statuses. */
const LEVELLED_COLUMNS = `${CONTROL_COLUMNS}, r.status AS resolved_company_status, c.name AS company_name,
  c.status AS company_status`;

/**
 * ownershipAround in one statement. Up: the companies reached level by level through corporate
 * PSCs on the register (UNION: a company once per level, so a cycle ends at the depth), then their
 * current records. Down: the current corporate PSCs naming a company reached, breadth first;
 * down_capped takes the first $4 + 1 of them and, being a LIMIT over a recursive query, PostgreSQL
 * stops walking there (a parent of fifty thousand companies is not read whole). Then the counts of
 * what each controller met controls, from the two partial indexes alone. One row of JSON: one
 * round trip, parsed once.
 */
const OWNERSHIP_AROUND = `WITH RECURSIVE
  up_reached(level, company_number) AS (
    SELECT 1, $1::text WHERE $2::int >= 1
    UNION
    SELECT u.level + 1, p.registered_company_number
    FROM up_reached u
    JOIN psc p ON p.company_number = u.company_number AND NOT p.ceased AND p.registered_company_number IS NOT NULL
    JOIN companies r ON r.company_number = p.registered_company_number
    WHERE u.level < $2::int
  ),
  up_rows AS MATERIALIZED (
    SELECT u.level, ${LEVELLED_COLUMNS}
    FROM up_reached u
    JOIN psc p ON p.company_number = u.company_number AND NOT p.ceased
    LEFT JOIN companies r ON r.company_number = p.registered_company_number
    LEFT JOIN companies c ON c.company_number = p.company_number
    ORDER BY u.level, p.company_number, p.notified_on DESC NULLS LAST, p.psc_id
    LIMIT $4::int + 1
  ),
  down_walk(level, company_number, psc_id) AS (
    SELECT 1, p.company_number, p.psc_id FROM psc p
    WHERE p.registered_company_number = $1::text AND NOT p.ceased AND $3::int >= 1
    UNION
    SELECT d.level + 1, p.company_number, p.psc_id
    FROM down_walk d JOIN psc p ON p.registered_company_number = d.company_number AND NOT p.ceased
    WHERE d.level < $3::int
  ),
  down_capped AS MATERIALIZED (SELECT level, company_number, psc_id FROM down_walk LIMIT $4::int + 1),
  down_rows AS MATERIALIZED (
    SELECT d.level, ${LEVELLED_COLUMNS}
    FROM down_capped d
    JOIN psc p ON p.company_number = d.company_number AND p.psc_id = d.psc_id
    LEFT JOIN companies r ON r.company_number = p.registered_company_number
    LEFT JOIN companies c ON c.company_number = p.company_number
  ),
  controlling_companies(key) AS (
    SELECT $1::text
    UNION SELECT resolved_company_number FROM up_rows WHERE resolved_company_number IS NOT NULL
    UNION SELECT registered_company_number FROM down_rows
  ),
  persons(key) AS (
    SELECT DISTINCT person_key FROM up_rows WHERE person_key IS NOT NULL AND resolved_company_number IS NULL
  )
SELECT
  (SELECT json_build_object('company_number', company_number, 'name', name, 'status', status)
   FROM companies WHERE company_number = $1::text) AS root,
  (SELECT coalesce(json_agg(u ORDER BY u.level, u.company_number, u.notified_on DESC NULLS LAST, u.psc_id), '[]')
   FROM up_rows u) AS up,
  (SELECT coalesce(json_agg(d ORDER BY d.level, d.registered_company_number, d.company_number, d.psc_id), '[]')
   FROM down_rows d) AS down,
  (SELECT coalesce(json_object_agg(k.key, (SELECT count(DISTINCT x.company_number) FROM psc x
     WHERE x.registered_company_number = k.key AND NOT x.ceased)), '{}')
   FROM controlling_companies k) AS company_counts,
  (SELECT coalesce(json_object_agg(k.key, (SELECT count(DISTINCT x.company_number) FROM psc x
     WHERE x.person_key = k.key AND NOT x.ceased)), '{}')
   FROM persons k) AS person_counts`;

interface NeighbourhoodRow {
  root: RegisteredCompany | null;
  up: LevelledControlRecord[];
  down: LevelledControlRecord[];
  company_counts: Record<string, number | string>;
  person_counts: Record<string, number | string>;
}

export function createOwnershipReader(sql: Sql): OwnershipReader {
  return {
    async pscsOf(companyNumber, includeCeased) {
      const result = await sql.query<StoredPsc>(
        `SELECT ${PSC_COLUMNS}
         FROM psc p LEFT JOIN companies r ON r.company_number = p.registered_company_number
         WHERE p.company_number = $1 AND ($2 OR NOT p.ceased)
         ORDER BY p.ceased, p.notified_on DESC NULLS LAST, p.psc_id`,
        [companyNumber, includeCeased],
      );
      return result.rows.map(storedPsc);
    },

    async currentPscsOf(companyNumbers) {
      if (companyNumbers.length === 0) return [];
      const result = await sql.query<StoredPsc>(
        `SELECT ${PSC_COLUMNS}
         FROM psc p LEFT JOIN companies r ON r.company_number = p.registered_company_number
         WHERE p.company_number = ANY($1::text[]) AND NOT p.ceased
         ORDER BY p.company_number, p.notified_on DESC NULLS LAST, p.psc_id`,
        [companyNumbers],
      );
      return result.rows.map(storedPsc);
    },

    async ownershipAround(companyNumber, reach) {
      const result = await sql.query<NeighbourhoodRow>(OWNERSHIP_AROUND, [
        companyNumber,
        reach.up,
        reach.down,
        reach.maxRecords,
      ]);
      const row = result.rows[0];
      if (!row?.root) return null;
      return {
        root: row.root,
        up: row.up.map(withNumbers),
        down: row.down.map(withNumbers),
        counts: {
          companies: new Map(Object.entries(row.company_counts).map(([key, n]) => [key, Number(n)])),
          persons: new Map(Object.entries(row.person_counts).map(([key, n]) => [key, Number(n)])),
        },
      };
    },
  };
}
