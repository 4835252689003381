/**
 * The filings stream's applier and the queue of accounts documents it fills. Each filing history
 * item is recorded once per transaction (a later event of the same transaction updates it; an
 * older one changes nothing). An accounts filing with a document link is queued for the document
 * fetcher (src/follow/fetch-documents.ts), which reads it outside the stream's transaction: the
 * Document API is slow and rate-limited, the stream must not wait for it.
 */
import type { SqlClient, Sql } from '../../ports/sql.ts';
import type { StreamApplier, StreamEvent } from '../../ports/stream-appliers.ts';
import type { DocumentQueue } from '../../ports/stream-documents.ts';
import { eventCompanyNumber, recordRejects } from './stream-rejects.ts';
import type { StreamReject } from './stream-rejects.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const UPSERT = `
INSERT INTO stream_filings AS f (transaction_id, company_number, category, type, filed_on, description, made_up_date,
  document_metadata, document_status, stream_timepoint, stream_published_at)
SELECT r.transaction_id, r.company_number, r.category, r.type, r.filed_on, r.description, r.made_up_date,
  r.document_metadata, r.document_status, r.stream_timepoint, r.stream_published_at
FROM json_to_recordset($1::json) AS r(transaction_id text, company_number text, category text, type text,
  filed_on date, description text, made_up_date date, document_metadata text, document_status text,
  stream_timepoint bigint, stream_published_at timestamp)
ON CONFLICT (transaction_id) DO UPDATE SET
  company_number = EXCLUDED.company_number, category = EXCLUDED.category, type = EXCLUDED.type,
  filed_on = EXCLUDED.filed_on, description = EXCLUDED.description, made_up_date = EXCLUDED.made_up_date,
  document_metadata = EXCLUDED.document_metadata,
  -- A document appearing later (the item first published without it) is queued then; one already
  -- fetched is not fetched again.
  document_status = CASE WHEN f.document_status IN ('none', 'failed') THEN EXCLUDED.document_status
    ELSE f.document_status END,
  stream_timepoint = EXCLUDED.stream_timepoint, stream_published_at = EXCLUDED.stream_published_at, updated_at = now()
WHERE (f.stream_published_at, f.stream_timepoint) < (EXCLUDED.stream_published_at, EXCLUDED.stream_timepoint)`;

export function filingsApplier(): StreamApplier {
  return {
    stream: 'filings',
    async apply(tx: SqlClient, events: readonly StreamEvent[]) {
      const rejects: StreamReject[] = [];
      const rows = new Map<string, Record<string, unknown>>();
      for (const event of events) {
        if (event.event.type === 'deleted') continue;
        const number = eventCompanyNumber(event);
        const transaction = text(event.data.transaction_id) ?? (event.resource_id || null);
        if (!number || !transaction) {
          rejects.push({ event, reason: `no ${number ? 'transaction_id' : 'company number'} in the filing` });
          continue;
        }
        const category = text(event.data.category);
        const links = typeof event.data.links === 'object' && event.data.links !== null ? event.data.links : {};
        const link = text((links as Record<string, unknown>).document_metadata);
        const values = event.data.description_values;
        const madeUp = text(
          typeof values === 'object' && values !== null ? (values as Record<string, unknown>).made_up_date : null,
        );
        const filedOn = text(event.data.date);
        rows.set(transaction, {
          transaction_id: transaction,
          company_number: number,
          category,
          type: text(event.data.type),
          filed_on: filedOn && ISO_DATE.test(filedOn) ? filedOn : null,
          description: text(event.data.description),
          made_up_date: madeUp && ISO_DATE.test(madeUp) ? madeUp : null,
          document_metadata: link,
          document_status: category === 'accounts' && link ? 'pending' : 'none',
          stream_timepoint: event.event.timepoint,
          stream_published_at: event.event.published_at.replace(/Z$/, ''),
        });
      }
      await recordRejects(tx, 'filings', rejects);
      if (rows.size > 0) await tx.query(UPSERT, [JSON.stringify([...rows.values()])]);
      // A filing changes no stored company fact by itself: its accounts do, once fetched.
      return { companies: [] };
    },
  };
}

export function createDocumentQueue(sql: Sql): DocumentQueue {
  return {
    async claim(limit, seconds) {
      const result = await sql.query<{
        transaction_id: string;
        company_number: string;
        document_metadata: string;
        filed_on: string | null;
        made_up_date: string | null;
      }>(
        `WITH next AS (
           SELECT transaction_id FROM stream_filings
           WHERE document_status = 'pending' OR (document_status = 'fetching' AND claimed_until < now())
           ORDER BY stream_published_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         UPDATE stream_filings f SET document_status = 'fetching', claimed_until = now() + make_interval(secs => $2)
         FROM next WHERE f.transaction_id = next.transaction_id
         RETURNING f.transaction_id, f.company_number, f.document_metadata, f.filed_on::text, f.made_up_date::text`,
        [limit, seconds],
      );
      return result.rows.map((row) => ({
        transactionId: row.transaction_id,
        companyNumber: row.company_number,
        link: row.document_metadata,
        filedOn: row.filed_on,
        madeUpDate: row.made_up_date,
      }));
    },

    async alreadyLoaded(companyNumber, balanceSheetDate) {
      const result = await sql.query(
        `SELECT 1 FROM filings WHERE company_number = $1 AND balance_sheet_date = $2::date LIMIT 1`,
        [companyNumber, balanceSheetDate],
      );
      return result.rowCount > 0;
    },

    async finish(transactionId, outcome, detail) {
      await sql.query(
        `UPDATE stream_filings SET document_status = $2, document_detail = $3, claimed_until = NULL, updated_at = now()
         WHERE transaction_id = $1`,
        [transactionId, outcome, detail],
      );
    },
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
