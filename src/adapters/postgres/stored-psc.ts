/**
 * How the Postgres adapters read PSC records: the columns of a StoredPsc (with its resolution
 * against the register), a company's records as one json column, and the numbers fixed whatever
 * the driver. Shared by the ownership reader and the company store's lookup (companyWithPscs).
 */
import type { StoredPsc } from '../../domain/psc.ts';

export const PSC_COLUMNS = `p.company_number, p.psc_id, p.kind, p.kind_class, p.beneficial_owner, p.name, p.name_elements,
  p.natures AS natures_of_control, to_char(p.notified_on, 'YYYY-MM-DD') AS notified_on,
  to_char(p.ceased_on, 'YYYY-MM-DD') AS ceased_on, p.ceased, p.birth_year, p.birth_month, p.nationality,
  p.country_of_residence, p.identification, p.statement, p.registered_company_number, p.country, p.overseas,
  p.person_key, p.content_hash, p.data, to_char(p.snapshot_date, 'YYYY-MM-DD') AS snapshot_date,
  to_char(p.ceased_by_snapshot, 'YYYY-MM-DD') AS ceased_by_snapshot,
  r.company_number AS resolved_company_number, r.name AS resolved_company_name`;

/** A company's PSCs as pscsOf orders them ($2: ceased ones too), one json column `pscs`. */
export const PSCS_OF_COMPANY = `(
  SELECT json_agg(x ORDER BY x.ceased, x.notified_on DESC NULLS LAST, x.psc_id) FROM (
    SELECT ${PSC_COLUMNS}
    FROM psc p LEFT JOIN companies r ON r.company_number = p.registered_company_number
    WHERE p.company_number = c.company_number AND ($2::boolean OR NOT p.ceased)) x) AS pscs`;

/** Numbers arrive as numbers, whatever the driver. */
export function storedPsc(row: StoredPsc): StoredPsc {
  return withNumbers(row);
}

export function withNumbers<Row extends Pick<StoredPsc, 'birth_year' | 'birth_month'>>(row: Row): Row {
  return {
    ...row,
    birth_year: row.birth_year === null ? null : Number(row.birth_year),
    birth_month: row.birth_month === null ? null : Number(row.birth_month),
  };
}
