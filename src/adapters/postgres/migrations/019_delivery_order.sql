-- Deliveries and endpoints get a number in the order they were written. created_at is the writing
-- transaction's start, shared by every delivery one enqueue writes and, on PGlite's millisecond clock, by
-- deliveries queued in quick succession; ordered by (created_at, id) such deliveries came out in the
-- order of their random ids. "Newest first" and the outbox's send order (oldest first among those
-- due at the same time) now follow the queueing order.
ALTER TABLE webhook_deliveries ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;

CREATE INDEX webhook_deliveries_recent_seq ON webhook_deliveries (endpoint_id, seq DESC);
DROP INDEX webhook_deliveries_recent;

CREATE INDEX webhook_deliveries_due_seq ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'pending';
DROP INDEX webhook_deliveries_due_order;

-- A key's endpoints are listed in the order they were created, for the same reason.
ALTER TABLE webhook_endpoints ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
