/**
 * Reads of the ownership graph on PostgreSQL or PGlite: a company's PSCs, the edges up and down the
 * chain. A corporate PSC resolves to a company when its registered number is on the register.
 */
import type { ControlRecord, OwnershipReader, RegisteredCompany } from '../../ownership/ports.ts';
import type { StoredPsc } from '../../ownership/psc.ts';
import type { Sql } from '../../ports.ts';

export const PSC_COLUMNS = `p.company_number, p.psc_id, p.kind, p.kind_class, p.beneficial_owner, p.name, p.name_elements,
  p.natures AS natures_of_control, to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on,
  to_char(p.ceased_on, 'YYYY-MM-DD') AS ceased_on, p.ceased, p.birth_year, p.birth_month, p.nationality,
  p.country_of_residence, p.identification, p.statement, p.registered_company_number, p.country, p.overseas,
  p.person_key, p.content_hash, p.data, to_char(p.snapshot_date, 'YYYY-MM-DD') AS snapshot_date,
  to_char(p.ceased_by_snapshot, 'YYYY-MM-DD') AS ceased_by_snapshot,
  r.company_number AS resolved_company_number, r.name AS resolved_company_name`;

/**
 * What the ownership walk reads of a record (ControlRecord): no `data` but an exemption's
 * `exemptions`, no hash, no dates it does not show. At full size the whole row (its filed JSON
 * above all) was most of a walk's cost.
 */
export const CONTROL_COLUMNS = `p.company_number, p.psc_id, p.kind, p.kind_class, p.beneficial_owner, p.name,
  p.natures AS natures_of_control, to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on, p.birth_year,
  p.birth_month, p.nationality, p.country_of_residence, p.identification, p.statement,
  p.registered_company_number, p.country, p.overseas, p.person_key,
  CASE WHEN p.kind_class = 'exemption' AND p.data ? 'exemptions'
    THEN jsonb_build_object('exemptions', p.data -> 'exemptions') ELSE '{}'::jsonb END AS data,
  r.company_number AS resolved_company_number, r.name AS resolved_company_name`;

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

    async currentControlOf(companyNumbers) {
      if (companyNumbers.length === 0) return [];
      const result = await sql.query<ControlRecord>(
        `SELECT ${CONTROL_COLUMNS}
         FROM psc p LEFT JOIN companies r ON r.company_number = p.registered_company_number
         WHERE p.company_number = ANY($1::text[]) AND NOT p.ceased
         ORDER BY p.company_number, p.notified_on DESC NULLS LAST, p.psc_id`,
        [companyNumbers],
      );
      return result.rows.map(withNumbers);
    },

    async controlledBy(companyNumbers, limit) {
      if (companyNumbers.length === 0) return [];
      const result = await sql.query<ControlRecord>(
        `SELECT ${CONTROL_COLUMNS}
         FROM psc p JOIN companies r ON r.company_number = p.registered_company_number
         WHERE p.registered_company_number = ANY($1::text[]) AND NOT p.ceased
         ORDER BY p.registered_company_number, p.company_number, p.psc_id
         LIMIT $2`,
        [companyNumbers, limit],
      );
      return result.rows.map(withNumbers);
    },

    async companiesOnRegister(companyNumbers) {
      if (companyNumbers.length === 0) return [];
      const result = await sql.query<RegisteredCompany>(
        `SELECT company_number, name, status FROM companies WHERE company_number = ANY($1::text[]) ORDER BY company_number`,
        [companyNumbers],
      );
      return result.rows;
    },

    async controlledCounts(companyNumbers, personKeys) {
      if (companyNumbers.length === 0 && personKeys.length === 0) return { companies: new Map(), persons: new Map() };
      const result = await sql.query<{ by: 'company' | 'person'; key: string; companies: number | string }>(
        `SELECT 'company' AS by, registered_company_number AS key, count(DISTINCT company_number) AS companies
         FROM psc WHERE registered_company_number = ANY($1::text[]) AND NOT ceased
         GROUP BY registered_company_number
         UNION ALL
         SELECT 'person', person_key, count(DISTINCT company_number)
         FROM psc WHERE person_key = ANY($2::text[]) AND NOT ceased
         GROUP BY person_key`,
        [companyNumbers, personKeys],
      );
      const companies = new Map<string, number>();
      const persons = new Map<string, number>();
      for (const row of result.rows) (row.by === 'company' ? companies : persons).set(row.key, Number(row.companies));
      return { companies, persons };
    },
  };
}

/** Numbers arrive as numbers, whatever the driver. */
export function storedPsc(row: StoredPsc): StoredPsc {
  return withNumbers(row);
}

function withNumbers<Row extends Pick<StoredPsc, 'birth_year' | 'birth_month'>>(row: Row): Row {
  return {
    ...row,
    birth_year: row.birth_year === null ? null : Number(row.birth_year),
    birth_month: row.birth_month === null ? null : Number(row.birth_month),
  };
}
