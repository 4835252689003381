/**
 * The WebhookStore on Postgres (pg or PGlite through the Sql port): endpoints, and the outbox of
 * deliveries that senders claim.
 *
 * Claiming is one statement: it picks due rows with FOR UPDATE SKIP LOCKED, so concurrent
 * claimers (several API instances) pass over each other's rows instead of waiting for them, and
 * sets a lease on them. A row whose lease is still running is not due; one whose lease ran out
 * without an outcome (its sender was killed mid-send) is due again and is claimed again, with
 * the same id, so receivers that dedupe by webhook-id see it once. Each claim counts an attempt,
 * and an outcome is recorded only by the claim that made the latest attempt.
 *
 * Secrets are sealed with the SecretSealer before they are written, bound to their endpoint's
 * id; the store opens them only for a sender's claim.
 */
import { randomBytes } from 'node:crypto';
import type { Sql, SqlClient } from '../../ports/sql.ts';
import type {
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryStatus,
  NewDelivery,
  RetryDeliveryResult,
  WebhookEndpoint,
  WebhookStore,
} from '../../ports/webhooks.ts';
import type { SecretSealer } from '../../webhooks/secret-sealer.ts';

/** ISO 8601 in UTC with milliseconds, the same text on pg and PGlite whatever the session time zone. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENDPOINT_COLUMNS = `id, key_id, url, events, description, ${iso('created_at')} AS created_at,
  ${iso('previous_secret_expires_at')} AS previous_secret_expires_at, ${iso('failing_since')} AS failing_since,
  ${iso('disabled_at')} AS disabled_at, disabled_reason`;

/** A delivery as its owner sees it in the log, from `webhook_deliveries d`. */
const DELIVERY_COLUMNS = `d.id, d.event_type, d.status, d.attempts, ${iso('d.created_at')} AS created_at,
  ${iso('d.last_attempt_at')} AS last_attempt_at, d.last_response_code, d.last_latency_ms, d.last_error,
  CASE WHEN d.status = 'pending' THEN ${iso('d.next_attempt_at')} END AS next_attempt_at`;

/** `prefix` and 22 base64url characters: 128 random bits, never guessed, never repeated. */
function newId(prefix: 'wh_' | 'msg_'): string {
  return prefix + randomBytes(16).toString('base64url');
}

/** What a millisecond count is as an interval, with the parameter's type fixed for both drivers. */
const msInterval = (param: string) => `(${param}::float8 * interval '1 millisecond')`;

/**
 * Put deliveries in the outbox through `client`: the store's own connection, or the transaction
 * in which a load detects the alerts, so an alert and its deliveries are written together or not
 * at all. A delivery whose event key its endpoint already has is left out, in the outbox or
 * within the batch (the first copy is kept), and so is one for an endpoint that is disabled or
 * gone. Returns the ids of the new deliveries.
 */
export async function enqueueDeliveries(client: SqlClient, deliveries: readonly NewDelivery[]): Promise<string[]> {
  const seen = new Set<string>();
  const rows: { id: string; endpoint_id: string; event_key: string | null; event_type: string; payload: unknown }[] =
    [];
  for (const delivery of deliveries) {
    if (delivery.payload === undefined || delivery.payload === null) {
      throw new Error('enqueueDeliveries: a delivery has no payload');
    }
    if (delivery.eventKey !== null) {
      const identity = JSON.stringify([delivery.endpointId, delivery.eventKey]);
      if (seen.has(identity)) continue;
      seen.add(identity);
    }
    rows.push({
      id: newId('msg_'),
      endpoint_id: delivery.endpointId,
      event_key: delivery.eventKey,
      event_type: delivery.eventType,
      payload: delivery.payload,
    });
  }
  if (rows.length === 0) return [];
  const result = await client.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_key, event_type, payload)
     SELECT r.id, r.endpoint_id, r.event_key, r.event_type, r.payload
     FROM json_to_recordset($1::json) AS r(id text, endpoint_id text, event_key text, event_type text, payload jsonb)
     WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = r.endpoint_id AND e.disabled_at IS NULL)
     ON CONFLICT (endpoint_id, event_key) DO NOTHING
     RETURNING id`,
    [JSON.stringify(rows)],
  );
  const inserted = new Set(result.rows.map((row) => row.id));
  return rows.filter((row) => inserted.has(row.id)).map((row) => row.id);
}

export function createWebhookStore(sql: Sql, sealer: SecretSealer): WebhookStore {
  return {
    async createEndpoint(endpoint, limit) {
      return sql.transaction(async (tx) => {
        // As watchlists: the key's row lock queues concurrent registrations of one key, so the
        // count and the insert cannot interleave and take the key over its limit.
        const key = await tx.query('SELECT id FROM api_keys WHERE id = $1 FOR NO KEY UPDATE', [endpoint.keyId]);
        if (key.rowCount === 0) throw new Error(`Webhooks: API key ${endpoint.keyId} does not exist.`);
        const count = await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM webhook_endpoints WHERE key_id = $1',
          [endpoint.keyId],
        );
        if (count.rows[0]!.n >= limit) return { endpoint: null, limitReached: true as const };
        const id = newId('wh_');
        const inserted = await tx.query<WebhookEndpoint>(
          `INSERT INTO webhook_endpoints (id, key_id, url, events, description, secret_sealed)
           VALUES ($1, $2, $3, $4::text[], $5, $6)
           RETURNING ${ENDPOINT_COLUMNS}`,
          [
            id,
            endpoint.keyId,
            endpoint.url,
            endpoint.events === null ? null : [...endpoint.events],
            endpoint.description,
            sealer.seal(endpoint.secret, id),
          ],
        );
        return { endpoint: inserted.rows[0]!, limitReached: false as const };
      });
    },

    async listEndpoints(keyId) {
      const result = await sql.query<WebhookEndpoint>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE key_id = $1 ORDER BY seq`,
        [keyId],
      );
      return result.rows;
    },

    async getEndpoint(keyId, endpointId) {
      const result = await sql.query<WebhookEndpoint>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE key_id = $1 AND id = $2`,
        [keyId, endpointId],
      );
      return result.rows[0] ?? null;
    },

    async deleteEndpoint(keyId, endpointId) {
      const result = await sql.query('DELETE FROM webhook_endpoints WHERE key_id = $1 AND id = $2 RETURNING id', [
        keyId,
        endpointId,
      ]);
      return result.rowCount > 0;
    },

    async rotateSecret(keyId, endpointId, secret, previousValidMs) {
      // The right-hand sides read the row as it was: the current secret becomes the previous one.
      const result = await sql.query(
        `UPDATE webhook_endpoints
         SET previous_secret_sealed = secret_sealed,
             previous_secret_expires_at = now() + ${msInterval('$4')},
             secret_sealed = $3
         WHERE key_id = $1 AND id = $2
         RETURNING id`,
        [keyId, endpointId, sealer.seal(secret, endpointId), previousValidMs],
      );
      return result.rowCount > 0;
    },

    enqueue: (deliveries) => enqueueDeliveries(sql, deliveries),

    async claimDue(limit, leaseMs) {
      if (!Number.isInteger(limit) || limit < 1) throw new Error(`claimDue: limit ${limit} is not 1 or more`);
      if (!(leaseMs > 0)) throw new Error(`claimDue: lease ${leaseMs} ms is not positive`);
      // A claim as the store keeps it: the secrets sealed, and whether the previous one still signs.
      const result = await sql.query<
        Omit<ClaimedDelivery, 'secrets'> & {
          secret_sealed: string;
          previous_secret_sealed: string | null;
          previous_signs: boolean | null;
        }
      >(
        `WITH due AS (
           SELECT d.id FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE d.status = 'pending' AND d.next_attempt_at <= now()
             AND (d.lease_until IS NULL OR d.lease_until <= now())
             AND e.disabled_at IS NULL
           ORDER BY d.next_attempt_at, d.seq
           LIMIT $1
           FOR UPDATE OF d SKIP LOCKED
         )
         UPDATE webhook_deliveries d
         SET attempts = d.attempts + 1, lease_until = now() + ${msInterval('$2')}
         FROM due, webhook_endpoints e
         WHERE d.id = due.id AND e.id = d.endpoint_id
         RETURNING d.id, d.endpoint_id, e.url, d.event_type, d.payload, ${iso('d.created_at')} AS created_at,
           d.attempts AS attempt, e.secret_sealed, e.previous_secret_sealed,
           e.previous_secret_expires_at > now() AS previous_signs,
           ${iso('e.failing_since')} AS endpoint_failing_since`,
        [limit, leaseMs],
      );
      return result.rows.map(
        ({ secret_sealed, previous_secret_sealed, previous_signs, ...claim }): ClaimedDelivery => ({
          ...claim,
          secrets: [
            sealer.open(secret_sealed, claim.endpoint_id),
            ...(previous_signs === true && previous_secret_sealed !== null
              ? [sealer.open(previous_secret_sealed, claim.endpoint_id)]
              : []),
          ],
        }),
      );
    },

    async recordOutcome(claim, outcome) {
      const status = outcome.status === 'delivered' ? 'delivered' : outcome.status === 'retry' ? 'pending' : 'failed';
      const delayMs = outcome.status === 'retry' ? Math.max(0, outcome.delayMs) : 0;
      return sql.transaction(async (tx) => {
        // Only the latest claim records: a sender whose lease ran out and whose delivery was
        // claimed again since must not overwrite what the newer attempt records.
        const updated = await tx.query<{ endpoint_id: string }>(
          `UPDATE webhook_deliveries
           SET status = $3,
               next_attempt_at = CASE WHEN $3::text = 'pending' THEN now() + ${msInterval('$4')} ELSE next_attempt_at END,
               lease_until = NULL,
               last_attempt_at = now(),
               last_response_code = $5,
               last_latency_ms = $6,
               last_error = $7
           WHERE id = $1 AND attempts = $2 AND status = 'pending'
           RETURNING endpoint_id`,
          [
            claim.id,
            claim.attempt,
            status,
            delayMs,
            outcome.responseCode,
            Math.max(0, Math.round(outcome.latencyMs)),
            outcome.error,
          ],
        );
        const endpointId = updated.rows[0]?.endpoint_id;
        if (endpointId === undefined) return false;
        await tx.query(
          `UPDATE webhook_endpoints
           SET failing_since = CASE WHEN $2::boolean THEN NULL ELSE coalesce(failing_since, now()) END
           WHERE id = $1`,
          [endpointId, outcome.status === 'delivered'],
        );
        if (outcome.status === 'disable-endpoint') {
          await tx.query(
            `UPDATE webhook_endpoints
             SET disabled_at = coalesce(disabled_at, now()), disabled_reason = coalesce(disabled_reason, $2)
             WHERE id = $1`,
            [endpointId, outcome.reason],
          );
          // Nothing more is sent to a disabled endpoint: its other deliveries end here too.
          await tx.query(
            `UPDATE webhook_deliveries
             SET status = 'failed', lease_until = NULL, last_error = $2
             WHERE endpoint_id = $1 AND status = 'pending'`,
            [endpointId, `Not sent: the endpoint was disabled. ${outcome.reason}`],
          );
        }
        return true;
      });
    },

    async retryDelivery(keyId, endpointId, deliveryId) {
      return sql.transaction(async (tx): Promise<RetryDeliveryResult> => {
        // Locked while it is decided, so a sender recording an outcome meanwhile waits for us.
        const found = await tx.query<{ status: DeliveryStatus; endpoint_disabled: boolean }>(
          `SELECT d.status, e.disabled_at IS NOT NULL AS endpoint_disabled
           FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE e.key_id = $1 AND d.endpoint_id = $2 AND d.id = $3
           FOR UPDATE OF d`,
          [keyId, endpointId, deliveryId],
        );
        const row = found.rows[0];
        if (row === undefined) return { outcome: 'not-found' };
        if (row.status === 'delivered') return { outcome: 'already-delivered' };
        if (row.endpoint_disabled) return { outcome: 'endpoint-disabled' };
        // The lease is left alone: an attempt in flight keeps it, and its outcome decides what follows.
        const updated = await tx.query<DeliveryRecord>(
          `UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now()
           WHERE d.id = $1
           RETURNING ${DELIVERY_COLUMNS}`,
          [deliveryId],
        );
        return { outcome: 'due', delivery: updated.rows[0]! };
      });
    },

    async recentDeliveries(keyId, endpointId, limit) {
      const result = await sql.query<DeliveryRecord>(
        `SELECT ${DELIVERY_COLUMNS}
         FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE e.key_id = $1 AND d.endpoint_id = $2
         ORDER BY d.seq DESC
         LIMIT $3`,
        [keyId, endpointId, limit],
      );
      return result.rows;
    },

    async queueStats() {
      const result = await sql.query<{
        pending: number;
        oldest_pending_age_ms: number | null;
        disabled_endpoints: number;
      }>(
        `SELECT count(*)::int AS pending,
           floor(extract(epoch FROM now() - min(created_at)) * 1000)::float8 AS oldest_pending_age_ms,
           (SELECT count(*)::int FROM webhook_endpoints WHERE disabled_at IS NOT NULL) AS disabled_endpoints
         FROM webhook_deliveries WHERE status = 'pending'`,
      );
      const row = result.rows[0]!;
      return {
        pending: row.pending,
        oldest_pending_age_ms: row.oldest_pending_age_ms,
        disabled_endpoints: row.disabled_endpoints,
      };
    },
  };
}
