-- Deliveries get a number in the order they were queued. created_at is the queueing transaction's
-- start, shared by every delivery one enqueue writes and, on PGlite's millisecond clock, by
-- deliveries queued in quick succession; ordered by (created_at, id) such deliveries came out in the
-- order of their random ids. "Newest first" and the outbox's send order (oldest first among those
-- due at the same time) now follow the queueing order.
ALTER TABLE webhook_deliveries ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;

CREATE INDEX webhook_deliveries_recent_seq ON webhook_deliveries (endpoint_id, seq DESC);
DROP INDEX webhook_deliveries_recent;

CREATE INDEX webhook_deliveries_due_seq ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'pending';
DROP INDEX webhook_deliveries_due_order;
