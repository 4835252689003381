/**
 * The last stages of every load, once its writes are in and its journal entry says so: alert
 * detection over what it changed (queueing the webhooks), the summary handed to the caller, then
 * the search index brought up to date. Detection runs after the load is recorded done: one that
 * fails leaves the load loaded, and the next run of detection looks at its changes again.
 */
import { detectAlerts } from '../../src/alert-detection/detect-alerts.ts';
import type { AlertDetectionDeps, AlertDetectionSummary } from '../../src/alert-detection/detect-alerts.ts';

export interface AfterLoadStages<Summary> {
  /** Detect the alerts of what the load changed, and queue their webhooks. */
  alerts?: AlertDetectionDeps | undefined;
  /** Told the summary (with what detection found) before the index is updated: the command says it. */
  onLoaded?: ((summary: Summary & { alerts?: AlertDetectionSummary }) => void) | undefined;
  /** Bring the search index up to date with what the load changed (none: `ukcd index` does it later). */
  index?: (() => Promise<void>) | undefined;
  log?: ((line: string) => void) | undefined;
  /** The register snapshot the load read: overdue is judged on its date when it is history. */
  registerSnapshotDate?: string | undefined;
}

export async function afterLoad<Summary extends object>(
  summary: Summary,
  stages: AfterLoadStages<Summary>,
): Promise<Summary & { alerts?: AlertDetectionSummary }> {
  const detected = stages.alerts
    ? {
        ...summary,
        alerts: await detectAlerts(stages.alerts, {
          ...(stages.log ? { log: stages.log } : {}),
          registerSnapshotDate: stages.registerSnapshotDate,
        }),
      }
    : summary;
  stages.onLoaded?.(detected);
  await stages.index?.();
  return detected;
}
