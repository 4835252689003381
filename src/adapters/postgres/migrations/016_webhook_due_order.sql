-- The outbox's claim orders the due deliveries by (next_attempt_at, id) and takes the first few.
-- On next_attempt_at alone, every claim sorted all the pending deliveries (10,000 queued by one
-- load share one due time), which made claiming cost as much as the outbox is long. In the
-- claim's order, the index is read from its start and the scan stops at the LIMIT.
CREATE INDEX webhook_deliveries_due_order ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
DROP INDEX webhook_deliveries_due;
