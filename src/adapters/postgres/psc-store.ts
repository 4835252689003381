/**
 * The PSC records on PostgreSQL or PGlite (migration 007): written by the PSC loader in batches of
 * one INSERT … ON CONFLICT each. On PostgreSQL a batch arrives by COPY into a temporary table
 * (text format: the server read the same rows as a JSON parameter at about a third of the
 * batch's time); on PGlite as one JSON parameter. The loader serialises each batch
 * (serialisePscs, in the store's `batchFormat`) in the worker thread that parses the lines, so
 * that the thread that writes only sends it: serialising a batch there held the database idle
 * between batches.
 */
import type { PscStore } from '../../ports/ownership.ts';
import { PSC_COLUMN_NAMES, serialisePscs } from '../../ownership/psc-batch.ts';
import type { PscBatchFormat } from '../../ownership/psc-batch.ts';
import type { Sql } from '../../ports/sql.ts';

const LOAD_COMMIT = `SET LOCAL synchronous_commit = off`;
// jsonb_to_recordset gathers a batch's rows (a few megabytes) before the insert reads them; with
// the default 4 MB it spilled them to a temporary file and read them back, every batch.
const LOAD_MEMORY = `SET LOCAL work_mem = '64MB'`;

const PSC_COLUMNS = PSC_COLUMN_NAMES.join(', ');

// The row moves on to the newer snapshot whatever it says; updated_at (what the indexers follow)
// moves only when the record itself changed, or when a PSC kept as ceased is listed again.
const ON_CONFLICT = `
ON CONFLICT (company_number, psc_id) DO UPDATE SET
  kind = EXCLUDED.kind, kind_class = EXCLUDED.kind_class, beneficial_owner = EXCLUDED.beneficial_owner,
  name = EXCLUDED.name, name_elements = EXCLUDED.name_elements, natures = EXCLUDED.natures,
  notified_on = EXCLUDED.notified_on, ceased_on = EXCLUDED.ceased_on, ceased = EXCLUDED.ceased,
  ceased_by_snapshot = NULL, birth_year = EXCLUDED.birth_year, birth_month = EXCLUDED.birth_month,
  nationality = EXCLUDED.nationality, country_of_residence = EXCLUDED.country_of_residence,
  identification = EXCLUDED.identification, statement = EXCLUDED.statement,
  registered_company_number = EXCLUDED.registered_company_number, country = EXCLUDED.country,
  overseas = EXCLUDED.overseas, person_key = EXCLUDED.person_key, content_hash = EXCLUDED.content_hash,
  data = EXCLUDED.data, snapshot_date = EXCLUDED.snapshot_date,
  updated_at = CASE
    WHEN p.content_hash IS DISTINCT FROM EXCLUDED.content_hash OR p.ceased_by_snapshot IS NOT NULL THEN now()
    ELSE p.updated_at END
WHERE p.snapshot_date <= EXCLUDED.snapshot_date`;

export const UPSERT_PSCS_JSON = `
INSERT INTO psc AS p (${PSC_COLUMNS}, snapshot_date)
SELECT r.company_number, r.psc_id, r.kind, r.kind_class, r.beneficial_owner, r.name, r.name_elements,
  ARRAY(SELECT jsonb_array_elements_text(r.natures)), r.notified_on, r.ceased_on, r.ceased, r.birth_year,
  r.birth_month, r.nationality, r.country_of_residence, r.identification, r.statement,
  r.registered_company_number, r.country, r.overseas, r.person_key, r.content_hash, r.data, $2::date
FROM jsonb_to_recordset($1::jsonb) AS r(company_number text, psc_id text, kind text, kind_class text,
  beneficial_owner boolean, name text, name_elements jsonb, natures jsonb, notified_on date, ceased_on date,
  ceased boolean, birth_year smallint, birth_month smallint, nationality text, country_of_residence text,
  identification jsonb, statement text, registered_company_number text, country text, overseas boolean,
  person_key text, content_hash text, data jsonb)
${ON_CONFLICT}`;

// A connection's own table for the batch it is writing, emptied as each batch commits.
const INCOMING_TABLE = `CREATE TEMP TABLE IF NOT EXISTS psc_incoming (company_number text, psc_id text, kind text,
  kind_class text, beneficial_owner boolean, name text, name_elements jsonb, natures text[], notified_on date,
  ceased_on date, ceased boolean, birth_year smallint, birth_month smallint, nationality text,
  country_of_residence text, identification jsonb, statement text, registered_company_number text, country text,
  overseas boolean, person_key text, content_hash text, data jsonb) ON COMMIT DELETE ROWS`;
const COPY_INCOMING = `COPY psc_incoming (${PSC_COLUMNS}) FROM STDIN`;
const UPSERT_PSCS_INCOMING = `
INSERT INTO psc AS p (${PSC_COLUMNS}, snapshot_date)
SELECT ${PSC_COLUMNS}, $1::date FROM psc_incoming
${ON_CONFLICT}`;

export function createPscStore(sql: Sql): PscStore {
  const batchFormat: PscBatchFormat = sql.dialect === 'postgres' ? 'copy' : 'json';
  const upsertSerialisedPscs = (rows: string, snapshotDate: string) =>
    sql.transaction(async (tx) => {
      await tx.query(LOAD_COMMIT);
      if (batchFormat === 'json') {
        await tx.query(LOAD_MEMORY);
        await tx.query(UPSERT_PSCS_JSON, [rows, snapshotDate]);
        return;
      }
      if (!tx.copyFrom) throw new Error('this PostgreSQL connection cannot COPY');
      await tx.query(INCOMING_TABLE);
      await tx.copyFrom(COPY_INCOMING, rows);
      await tx.query(UPSERT_PSCS_INCOMING, [snapshotDate]);
    });
  return {
    batchFormat,
    async upsertPscs(records, snapshotDate) {
      if (records.length > 0) await upsertSerialisedPscs(serialisePscs(records, batchFormat), snapshotDate);
    },
    upsertSerialisedPscs,

    async markMissingCeased(snapshotDate) {
      const result = await sql.query(
        `UPDATE psc SET ceased = true, ceased_by_snapshot = $1::date, updated_at = now()
         WHERE snapshot_date < $1::date AND NOT ceased`,
        [snapshotDate],
      );
      return result.rowCount;
    },

    async countMissing(snapshotDate) {
      const result = await sql.query<{ count: number; held: number; last_listed: string | null }>(
        `SELECT (count(*) FILTER (WHERE snapshot_date < $1::date))::int AS count, count(*)::int AS held,
                (max(snapshot_date) FILTER (WHERE snapshot_date < $1::date))::text AS last_listed
         FROM psc WHERE NOT ceased`,
        [snapshotDate],
      );
      const { count, held, last_listed } = result.rows[0]!;
      return { count, held, lastListed: last_listed };
    },

    async isEmpty() {
      const result = await sql.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM psc) AS empty`);
      return result.rows[0]!.empty;
    },

    async counts() {
      const result = await sql.query<{ pscs: string; current: string; statements: string }>(
        `SELECT count(*) AS pscs, count(*) FILTER (WHERE NOT ceased) AS current,
           count(*) FILTER (WHERE kind_class = 'statement') AS statements FROM psc`,
      );
      const row = result.rows[0]!;
      return { pscs: Number(row.pscs), current: Number(row.current), statements: Number(row.statements) };
    },
  };
}
