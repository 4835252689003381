/**
 * What the call pipeline counts in the app's metrics: a call refused for its quota, by plan and by
 * the channel it came in on; a free key refused to an address over its hourly limit. The app's registry (src/app/metrics.ts) implements it; the pipeline
 * knows only this much of it.
 */
import type { Plan } from '../domain/api-keys.ts';

/** Which surface a call came in on (the web pages count on the REST channel). */
export type Channel = 'rest' | 'mcp';

export interface CallMetrics {
  quotaRefused(plan: Plan, channel: Channel): void;
  freeKeyRefused(): void;
}
