/**
 * The fetching of accounts PDFs on Postgres or PGlite (migration 070): the queue of companies
 * shared by lookups, backfills and workers, the record of every accounts document looked at, and
 * the backfill's runs. Leases and "since" are on the database's clock, so machines whose clocks
 * differ agree on them.
 */
import type {
  PdfAccountsDocuments,
  PdfAccountsQueue,
  PdfBackfillJournal,
  PdfDocumentOutcome,
} from '../../ports/pdf-accounts-work.ts';
import type { Sql } from '../../ports/sql.ts';
import { backfillRuns } from './backfill-runs.ts';

const PENDING = `(q.finished_at IS NULL OR q.finished_at < q.requested_at)`;
const UNHELD = `(q.lease_until IS NULL OR q.lease_until <= now())`;

/** A lookup asks again for a company done this long ago: its filing history may hold a new PDF. */
const LOOKUP_AGAIN_AFTER = `interval '1 day'`;

/** Companies that filed accounts (the register says so) none of which is machine-readable in the store. */
const NO_FIGURES = `c.accounts_last_made_up_to IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM filings f WHERE f.company_number = c.company_number)`;

export function createPdfAccountsWork(sql: Sql): PdfAccountsQueue & PdfAccountsDocuments & PdfBackfillJournal {
  return {
    ...backfillRuns(sql, 'pdf_backfill_runs'),
    async requestCompany(companyNumber) {
      const result = await sql.query<{ pending: boolean }>(
        `INSERT INTO pdf_accounts_queue AS q (company_number, requested_by) VALUES ($1, 'lookup')
         ON CONFLICT (company_number) DO UPDATE SET requested_at = now(), requested_by = 'lookup'
           WHERE NOT ${PENDING} AND q.finished_at < now() - ${LOOKUP_AGAIN_AFTER}
         RETURNING true AS pending`,
        [companyNumber],
      );
      if (result.rows.length > 0) return true;
      const held = await sql.query<{ pending: boolean }>(
        `SELECT ${PENDING} AS pending FROM pdf_accounts_queue q WHERE company_number = $1`,
        [companyNumber],
      );
      return held.rows[0]?.pending === true;
    },

    async requestForRun(companyNumbers, requestedBy, since) {
      if (companyNumbers.length === 0) return new Set();
      await sql.query(
        `INSERT INTO pdf_accounts_queue AS q (company_number, requested_by)
         SELECT n, $2 FROM unnest($1::text[]) AS n
         ON CONFLICT (company_number) DO UPDATE SET requested_at = now(), requested_by = EXCLUDED.requested_by
           WHERE NOT ${PENDING} AND q.finished_at < $3::timestamptz`,
        [[...new Set(companyNumbers)], requestedBy, since],
      );
      const done = await sql.query<{ company_number: string }>(
        `SELECT company_number FROM pdf_accounts_queue q
         WHERE company_number = ANY($1::text[]) AND NOT ${PENDING} AND q.finished_at >= $2::timestamptz`,
        [companyNumbers, since],
      );
      return new Set(done.rows.map((row) => row.company_number));
    },

    async claim(lease, limit, among) {
      // Rows another process is claiming at this instant are skipped, not waited for.
      const claimed = await sql.query<{ company_number: string }>(
        `WITH next AS (
           SELECT q.company_number FROM pdf_accounts_queue q
           WHERE ${PENDING} AND ${UNHELD} AND ($4::text[] IS NULL OR q.company_number = ANY($4::text[]))
           ORDER BY q.requested_at, q.company_number LIMIT $3
           FOR UPDATE OF q SKIP LOCKED)
         UPDATE pdf_accounts_queue q SET holder = $1, lease_until = now() + make_interval(secs => $2)
         FROM next WHERE q.company_number = next.company_number
         RETURNING q.company_number`,
        [lease.holder, lease.seconds, limit, among ? [...among] : null],
      );
      return claimed.rows.map((row) => row.company_number).sort();
    },

    async finish(companyNumber, holder, error, retrySeconds = 600) {
      if (error === null) {
        await sql.query(
          `UPDATE pdf_accounts_queue SET finished_at = greatest(now(), requested_at), holder = NULL,
             lease_until = NULL, last_error = NULL
           WHERE company_number = $1 AND holder = $2`,
          [companyNumber, holder],
        );
        return;
      }
      // Put off, not finished: claimable again when the lease runs out, so a failing API is not hammered.
      await sql.query(
        `UPDATE pdf_accounts_queue SET holder = NULL, lease_until = now() + make_interval(secs => $3), last_error = $4
         WHERE company_number = $1 AND holder = $2`,
        [companyNumber, holder, retrySeconds, error],
      );
    },

    async heldElsewhere(companyNumbers, holder) {
      const result = await sql.query<{ held: number }>(
        `SELECT count(*)::int AS held FROM pdf_accounts_queue q
         WHERE company_number = ANY($1::text[]) AND ${PENDING} AND q.lease_until > now() AND q.holder <> $2`,
        [companyNumbers, holder],
      );
      return Number(result.rows[0]!.held);
    },

    async knownDocuments(companyNumber) {
      const result = await sql.query<{
        document_id: string;
        company_number: string;
        transaction_id: string | null;
        made_up_date: string | null;
        outcome: PdfDocumentOutcome['outcome'];
        reason: string | null;
        path: string | null;
        sha256: string | null;
      }>(
        `SELECT document_id, company_number, transaction_id, to_char(made_up_date, 'YYYY-MM-DD') AS made_up_date,
           outcome, reason, path, sha256
         FROM pdf_accounts_documents WHERE company_number = $1`,
        [companyNumber],
      );
      return new Map(
        result.rows.map((row) => [
          row.document_id,
          {
            documentId: row.document_id,
            companyNumber: row.company_number,
            transactionId: row.transaction_id,
            madeUpDate: row.made_up_date,
            outcome: row.outcome,
            reason: row.reason,
            path: row.path,
            sha256: row.sha256,
          },
        ]),
      );
    },

    async recordDocument(outcome) {
      await sql.query(
        `INSERT INTO pdf_accounts_documents
           (document_id, company_number, transaction_id, made_up_date, outcome, reason, path, sha256)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (document_id) DO UPDATE SET company_number = EXCLUDED.company_number,
           transaction_id = EXCLUDED.transaction_id, made_up_date = EXCLUDED.made_up_date,
           outcome = EXCLUDED.outcome, reason = EXCLUDED.reason, path = EXCLUDED.path,
           sha256 = EXCLUDED.sha256, recorded_at = now()`,
        [
          outcome.documentId,
          outcome.companyNumber,
          outcome.transactionId,
          outcome.madeUpDate,
          outcome.outcome,
          outcome.reason,
          outcome.path,
          outcome.sha256,
        ],
      );
    },

    async machineReadableDates(companyNumber) {
      const result = await sql.query<{ date: string }>(
        `SELECT DISTINCT to_char(balance_sheet_date, 'YYYY-MM-DD') AS date FROM filings WHERE company_number = $1`,
        [companyNumber],
      );
      return new Set(result.rows.map((row) => row.date));
    },

    async companiesWithoutFigures(after, limit) {
      const result = await sql.query<{ company_number: string }>(
        `SELECT c.company_number FROM companies c WHERE ($1::text IS NULL OR c.company_number > $1) AND ${NO_FIGURES}
         ORDER BY c.company_number LIMIT $2`,
        [after, limit],
      );
      return result.rows.map((row) => row.company_number);
    },

    async countCompaniesWithoutFigures() {
      const result = await sql.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM companies c WHERE ${NO_FIGURES}`,
      );
      return Number(result.rows[0]!.count);
    },
  };
}
