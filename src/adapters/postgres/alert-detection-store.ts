/**
 * The AlertDetectionStore on Postgres (pg or PGlite through the Sql port): the changed companies
 * (the search indexer's query), the watches of them (through watchlist_entries_company), and the
 * detections recorded with their deliveries in one transaction (migration 013).
 *
 * Recording inserts the alerts with ON CONFLICT DO NOTHING on (key, identity) and queues
 * deliveries only for the rows it inserted: an alert detected before is never queued again, and
 * of two runs recording the same alert at once, the second waits on the first's row and then
 * leaves it alone.
 */
import { alertDeliveries } from '../../alert-detection/alert-events.ts';
import type { EndpointSubscription } from '../../alert-detection/alert-events.ts';
import type { KeyAlertEvent } from '../../domain/alert-events.ts';
import type { AlertDetectionStore, KeyWatch } from '../../ports/alert-detection.ts';
import type { Sql } from '../../ports/sql.ts';
import { changedCompanyNumbers } from './company-store.ts';
import { openTransactionsWatermark } from './open-transactions.ts';
import { enqueueDeliveries } from './webhook-store.ts';

/** ISO 8601 in UTC with milliseconds, the same text on pg and PGlite whatever the session time zone. */
const iso = (expression: string) => `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export function createAlertDetectionStore(sql: Sql): AlertDetectionStore {
  return {
    async now() {
      return (await sql.query<{ now: string }>(`SELECT ${iso('now()')} AS now`)).rows[0]!.now;
    },

    async watermark() {
      const mark = await openTransactionsWatermark(sql);
      return (await sql.query<{ at: string }>(`SELECT ${iso('$1::timestamptz')} AS at`, [mark])).rows[0]!.at;
    },

    async detectedThrough() {
      const result = await sql.query<{ through: string }>(
        `SELECT ${iso('detected_through')} AS through FROM alert_detection_runs`,
      );
      return result.rows[0]?.through ?? null;
    },

    async recordDetectedThrough(through) {
      // A run that started earlier and finished later must not move the mark back.
      await sql.query(
        `INSERT INTO alert_detection_runs (only_row, detected_through) VALUES (true, $1::timestamptz)
         ON CONFLICT (only_row) DO UPDATE
         SET detected_through = greatest(alert_detection_runs.detected_through, EXCLUDED.detected_through)`,
        [through],
      );
    },

    async anyWatched() {
      const result = await sql.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM watchlist_entries) AS any`);
      return result.rows[0]!.any;
    },

    changedCompanies(since, batchSize) {
      return changedCompanyNumbers(sql, since ?? '-infinity', batchSize);
    },

    async watchedFallingDue(from, until) {
      const result = await sql.query<{ company_number: string }>(
        `SELECT c.company_number FROM companies c
         WHERE c.accounts_next_due >= $1::date AND c.accounts_next_due < $2::date
           AND EXISTS (SELECT 1 FROM watchlist_entries w WHERE w.company_number = c.company_number)
         ORDER BY c.company_number`,
        [from, until],
      );
      return result.rows.map((row) => row.company_number);
    },

    async watchesOf(companyNumbers) {
      if (companyNumbers.length === 0) return [];
      const result = await sql.query<KeyWatch>(
        `SELECT key_id, company_number, ${iso('added_at')} AS added, snapshot
         FROM watchlist_entries WHERE company_number = ANY($1::text[])
         ORDER BY company_number, key_id`,
        [companyNumbers],
      );
      return result.rows;
    },

    async recordDetected(alerts) {
      const unique = new Map<string, KeyAlertEvent>();
      for (const alert of alerts) {
        const id = JSON.stringify([alert.keyId, alert.alertKey]);
        if (!unique.has(id)) unique.set(id, alert);
      }
      if (unique.size === 0) return { recorded: [], deliveries: 0 };
      return sql.transaction(async (tx) => {
        // Only for a key that still watches the company: one that stopped (or was deleted) since
        // its watches were read gets nothing.
        const inserted = await tx.query<{ key_id: number; alert_key: string }>(
          `INSERT INTO alert_detections (key_id, alert_key, company_number, kind)
           SELECT r.key_id, r.alert_key, r.company_number, r.kind
           FROM json_to_recordset($1::json) AS r(key_id bigint, alert_key text, company_number text, kind text)
           WHERE EXISTS (SELECT 1 FROM watchlist_entries w WHERE w.key_id = r.key_id AND w.company_number = r.company_number)
           ON CONFLICT (key_id, alert_key) DO NOTHING
           RETURNING key_id, alert_key`,
          [
            JSON.stringify(
              [...unique.values()].map((alert) => ({
                key_id: alert.keyId,
                alert_key: alert.alertKey,
                company_number: alert.payload.alert.company_number,
                kind: alert.payload.alert.kind,
              })),
            ),
          ],
        );
        const recorded = inserted.rows.map((row) => unique.get(JSON.stringify([Number(row.key_id), row.alert_key]))!);
        if (recorded.length === 0) return { recorded, deliveries: 0 };
        const endpoints = await tx.query<EndpointSubscription>(
          `SELECT id, key_id, events FROM webhook_endpoints WHERE key_id = ANY($1::bigint[]) AND disabled_at IS NULL`,
          [[...new Set(recorded.map((alert) => alert.keyId))]],
        );
        const queued = await enqueueDeliveries(tx, alertDeliveries(recorded, endpoints.rows));
        return { recorded, deliveries: queued.length };
      });
    },
  };
}
