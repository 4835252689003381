/**
 * Officers on PostgreSQL or PGlite (migration 030): the backfill's writes of whole company lists,
 * the reads of lookups, get_officers and a director's network, and the backfill's journal. A
 * disqualification in force (its latest disqualified_until today or later) is read with each
 * appointment of its officer.
 */
import type { OfficerRecord, StoredOfficer } from '../../domain/officers.ts';
import type { OfficerAppointment, OfficerBackfillJournal, OfficerStore } from '../../ports/officers.ts';
import type { Sql } from '../../ports/sql.ts';
import { backfillRuns } from './backfill-runs.ts';
import { writeOfficers } from './officer-writes.ts';

const OFFICER_COLUMNS = `o.company_number, o.appointment_id, o.officer_id, o.name, o.role,
  to_char(o.appointed_on, 'YYYY-MM-DD') AS appointed_on, to_char(o.resigned_on, 'YYYY-MM-DD') AS resigned_on,
  o.nationality, o.occupation, o.country_of_residence, o.birth_year, o.birth_month, o.identity_verification,
  o.data, to_char(o.as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of,
  to_char(d.disqualified_until, 'YYYY-MM-DD') AS disqualified_until`;

const DISQUALIFICATION_IN_FORCE = `LEFT JOIN officer_disqualifications d
  ON d.officer_id = o.officer_id AND NOT d.deleted AND d.disqualified_until >= current_date`;

const CURRENT_FIRST = `ORDER BY o.resigned_on IS NOT NULL, o.appointed_on DESC NULLS LAST, o.name, o.appointment_id`;

function stored<Row extends StoredOfficer>(row: Row): Row {
  return {
    ...row,
    birth_year: row.birth_year === null ? null : Number(row.birth_year),
    birth_month: row.birth_month === null ? null : Number(row.birth_month),
  };
}

export function createOfficerStore(sql: Sql): OfficerStore & OfficerBackfillJournal {
  return {
    ...backfillRuns(sql, 'officer_backfill_runs'),
    replaceCompanyOfficers(companyNumber, records: readonly OfficerRecord[], fetchedAt) {
      return sql.transaction(async (tx) => {
        await writeOfficers(
          tx,
          records.map((record) => ({ ...record, deleted: false, as_of: fetchedAt, timepoint: null })),
        );
        await tx.query(
          `UPDATE officers SET deleted = true, as_of = $2, timepoint = NULL, updated_at = now()
           WHERE company_number = $1 AND NOT deleted AND as_of < $2 AND NOT (appointment_id = ANY($3::text[]))`,
          [companyNumber, fetchedAt, records.map((record) => record.appointment_id)],
        );
        await tx.query(
          `INSERT INTO officer_backfill_companies (company_number, fetched_at, officers) VALUES ($1, $2, $3)
           ON CONFLICT (company_number) DO UPDATE SET fetched_at = EXCLUDED.fetched_at, officers = EXCLUDED.officers`,
          [companyNumber, fetchedAt, records.length],
        );
      });
    },

    async officersOf(companyNumber, includeResigned) {
      const result = await sql.query<StoredOfficer>(
        `SELECT ${OFFICER_COLUMNS} FROM officers o ${DISQUALIFICATION_IN_FORCE}
         WHERE o.company_number = $1 AND NOT o.deleted AND ($2::boolean OR o.resigned_on IS NULL) ${CURRENT_FIRST}`,
        [companyNumber, includeResigned],
      );
      return result.rows.map(stored);
    },

    async appointmentsOf(officerId) {
      const result = await sql.query<OfficerAppointment>(
        `SELECT ${OFFICER_COLUMNS}, c.name AS company_name, c.status AS company_status
         FROM officers o ${DISQUALIFICATION_IN_FORCE} LEFT JOIN companies c ON c.company_number = o.company_number
         WHERE o.officer_id = $1 AND NOT o.deleted ${CURRENT_FIRST}`,
        [officerId],
      );
      return result.rows.map(stored);
    },

    async otherAppointmentCounts(officerIds, companyNumber) {
      if (officerIds.length === 0) return new Map();
      const result = await sql.query<{ officer_id: string; count: number }>(
        `SELECT officer_id, count(*)::int AS count FROM officers
         WHERE officer_id = ANY($1::text[]) AND company_number <> $2 AND NOT deleted GROUP BY officer_id`,
        [officerIds, companyNumber],
      );
      return new Map(result.rows.map((row) => [row.officer_id, Number(row.count)]));
    },

    async fetchedSince(companyNumbers, since) {
      const result = await sql.query<{ company_number: string }>(
        `SELECT company_number FROM officer_backfill_companies
         WHERE company_number = ANY($1::text[]) AND fetched_at >= $2::timestamptz`,
        [companyNumbers, since],
      );
      return new Set(result.rows.map((row) => row.company_number));
    },

    async registerCompanies(after, limit) {
      const result = await sql.query<{ company_number: string }>(
        `SELECT company_number FROM companies WHERE $1::text IS NULL OR company_number > $1
         ORDER BY company_number LIMIT $2`,
        [after, limit],
      );
      return result.rows.map((row) => row.company_number);
    },

    async countRegister() {
      const result = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM companies`);
      return Number(result.rows[0]!.count);
    },
  };
}
