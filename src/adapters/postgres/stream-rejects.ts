/** Events an applier could not read, kept whole with the reason (table stream_rejects). */
import type { SqlClient } from '../../ports/sql.ts';
import type { StreamEvent } from '../../ports/stream-appliers.ts';

export interface StreamReject {
  event: StreamEvent;
  reason: string;
}

export async function recordRejects(tx: SqlClient, stream: string, rejects: readonly StreamReject[]): Promise<void> {
  if (rejects.length === 0) return;
  await tx.query(
    `INSERT INTO stream_rejects (stream, timepoint, resource_uri, reason, event)
     SELECT $1, r.timepoint, r.resource_uri, r.reason, r.event
     FROM json_to_recordset($2::json) AS r(timepoint bigint, resource_uri text, reason text, event jsonb)
     ON CONFLICT (stream, timepoint, resource_uri) DO UPDATE SET reason = EXCLUDED.reason`,
    [
      stream,
      JSON.stringify(
        rejects.map(({ event, reason }) => ({
          timepoint: event.event.timepoint,
          resource_uri: event.resource_uri,
          reason,
          event,
        })),
      ),
    ],
  );
}

/** The company number of an event: its data's, else the one in its resource URI (/company/{number}/…). */
export function eventCompanyNumber(event: StreamEvent): string | null {
  const fromData = event.data.company_number;
  if (typeof fromData === 'string' && fromData.trim() !== '') return fromData.trim().toUpperCase();
  const match = /^\/company\/([A-Za-z0-9]+)/.exec(event.resource_uri);
  return match ? match[1]!.toUpperCase() : null;
}

/** Whether event `a` was published after `b` (by published_at, then timepoint). */
export function isLater(
  a: { publishedAt: string; timepoint: number },
  b: { publishedAt: string; timepoint: number } | null,
): boolean {
  if (b === null) return true;
  const at = Date.parse(a.publishedAt);
  const bt = Date.parse(b.publishedAt);
  return at > bt || (at === bt && a.timepoint > b.timepoint);
}

/** published_at carries no zone: read as UTC, as the store keeps it. */
export function utc(publishedAt: string): string {
  return /Z$|[+-]\d\d:\d\d$/.test(publishedAt) ? publishedAt : `${publishedAt}Z`;
}
