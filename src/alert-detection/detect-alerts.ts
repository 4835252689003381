/**
 * Alert detection after a load: the companies changed since the last run are streamed
 * in batches, each batch is looked up among the watchlists (by company number, through an index;
 * never a scan of every watchlist), the alerts of each watch are computed as get_alerts computes
 * them (watched-alerts.ts), and those not detected before are recorded and queued for the key's
 * webhook endpoints in one transaction per batch. Memory stays flat whatever the load changed.
 *
 * overdue_accounts comes from a date passing rather than from a change, so a run also looks at the
 * watched companies whose accounts fell due since the last run's day (fallenDueDays). Alerts are
 * judged on the UTC day of the database clock when the run starts.
 *
 * Runs are measured on the database's clock. A load's batch stamps its rows with its
 * transaction's start, so a run records that it has looked only as far as just before the oldest
 * transaction still open when it started (the watermark): a batch that commits after the run read
 * is then read by the next run, however long it was open. The next run also looks CATCH_UP_MS
 * further back, and a load whose detection never ran is caught by the next one. Looking at a
 * company twice is harmless: an alert already detected is not recorded again.
 */
import { overdueJudgedOn } from '../domain/company-status.ts';
import { startProgress } from '../progress/progress.ts';
import { alertEvent, alertEventType, alertKey } from './alert-events.ts';
import type { KeyAlertEvent } from '../domain/alert-events.ts';
import type { AlertDetectionStore, KeyWatch } from '../ports/alert-detection.ts';
import { alertsOfWatched } from './watched-alerts.ts';
import type { AlertReaders } from './watched-alerts.ts';

export interface AlertDetectionDeps extends AlertReaders {
  detections: AlertDetectionStore;
}

export interface AlertDetectionOptions {
  /** Changed companies read at a time (default 5,000). */
  batchSize?: number;
  log?: (line: string) => void;
  /**
   * The date of the register snapshot the run follows: when it is history, overdue is judged on
   * its date, not today (overdueJudgedOn).
   */
  registerSnapshotDate?: string | undefined;
}

export interface AlertDetectionSummary {
  /** Changed companies looked at. */
  companies: number;
  /** Watches of them (a company watched by two keys counts twice). */
  watches: number;
  /** Alerts not detected before, now recorded. */
  alerts: number;
  /** Keys that have new alerts. */
  keys: number;
  /** Deliveries put in the webhook outbox. */
  deliveries: number;
  /**
   * The day alerts were judged on (overdue accounts): the UTC day of the database clock when the
   * run started, or the date of the register snapshot it follows when that is history.
   */
  asOf: string;
}

/** How far before the last run's start a run looks again (see the header). */
const CATCH_UP_MS = 5 * 60_000;

const BATCH_SIZE = 5_000;

/** Detect the alerts of what changed since the last run, record them and queue their deliveries. */
export async function detectAlerts(
  deps: AlertDetectionDeps,
  options: AlertDetectionOptions = {},
): Promise<AlertDetectionSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const startedAt = await deps.detections.now();
  const lookedThrough = await deps.detections.watermark();
  const today = startedAt.slice(0, 10);
  const asOf = options.registerSnapshotDate ? overdueJudgedOn(options.registerSnapshotDate, today) : today;
  const summary: AlertDetectionSummary = { companies: 0, watches: 0, alerts: 0, keys: 0, deliveries: 0, asOf };
  const keys = new Set<number>();
  const batchSize = options.batchSize ?? BATCH_SIZE;
  /** Look at these companies: their watches, their alerts, those new recorded and queued. */
  const check = async (numbers: readonly string[], day = asOf) => {
    summary.companies += numbers.length;
    const watches = await deps.detections.watchesOf(numbers);
    summary.watches += watches.length;
    if (watches.length === 0) return;
    const recorded = await deps.detections.recordDetected(await watchAlertEvents(deps, watches, day));
    summary.alerts += recorded.recorded.length;
    summary.deliveries += recorded.deliveries;
    for (const alert of recorded.recorded) keys.add(alert.keyId);
  };
  if (await deps.detections.anyWatched()) {
    const through = await deps.detections.detectedThrough();
    const progress = startProgress({ label: 'alerts', unit: 'companies' });
    try {
      for await (const numbers of deps.detections.changedCompanies(changesSince(through, CATCH_UP_MS), batchSize)) {
        await check(numbers);
        progress.advance(numbers.length);
      }
      // Accounts that fell due since the last run's day are overdue now, though no load changed them.
      // Judged on today even after a load of history: these fell due by the calendar, not by the load.
      const due = fallenDueDays(through, today);
      const fallenDue = due ? await deps.detections.watchedFallingDue(due.from, due.until) : [];
      for (let at = 0; at < fallenDue.length; at += batchSize) {
        await check(fallenDue.slice(at, at + batchSize), today);
      }
    } finally {
      progress.stop();
    }
  }
  await deps.detections.recordDetectedThrough(lookedThrough);
  summary.keys = keys.size;
  log(describeAlertDetection(summary));
  return summary;
}

/**
 * Detect the alerts of these companies only (those a batch of stream events just changed), record
 * those not detected before and queue their webhooks: what a load's run does for each batch of the
 * companies it changed, judged on the database's day. Seconds after the change, not after a load.
 */
export async function detectAlertsOf(
  deps: AlertDetectionDeps,
  companyNumbers: readonly string[],
): Promise<{ alerts: number; deliveries: number }> {
  if (companyNumbers.length === 0) return { alerts: 0, deliveries: 0 };
  const watches = await deps.detections.watchesOf(companyNumbers);
  if (watches.length === 0) return { alerts: 0, deliveries: 0 };
  const asOf = (await deps.detections.now()).slice(0, 10);
  const recorded = await deps.detections.recordDetected(await watchAlertEvents(deps, watches, asOf));
  return { alerts: recorded.recorded.length, deliveries: recorded.deliveries };
}

/** Every alert of these watches as an event for the watching key (those already detected included). */
async function watchAlertEvents(
  readers: AlertReaders,
  watches: readonly KeyWatch[],
  asOf: string,
): Promise<KeyAlertEvent[]> {
  return (await alertsOfWatched(readers, watches, asOf)).flatMap(({ watched, company, alerts }) =>
    company === null
      ? []
      : alerts.map((alert) => ({
          keyId: watched.key_id,
          alertKey: alertKey(alert),
          eventType: alertEventType(alert.kind),
          payload: alertEvent(alert, company),
        })),
  );
}

/** Where a run starts looking: `margin` before the last run started; everything before the first run. */
export function changesSince(detectedThrough: string | null, marginMs: number): string | null {
  if (detectedThrough === null) return null;
  return new Date(Date.parse(detectedThrough) - marginMs).toISOString();
}

/**
 * The due dates whose passing makes accounts overdue since the last run: from the last run's day
 * (accounts due that day were not yet overdue on it) up to, not including, this run's. Null
 * before the first run (every company is looked at then) and on the same day.
 */
export function fallenDueDays(detectedThrough: string | null, asOf: string): { from: string; until: string } | null {
  if (detectedThrough === null) return null;
  const from = detectedThrough.slice(0, 10);
  return from < asOf ? { from, until: asOf } : null;
}

/** The loader's summary line: `alerts: 12 new for 3 keys, 12 deliveries queued (…)`. */
export function describeAlertDetection(summary: AlertDetectionSummary): string {
  const n = (count: number) => count.toLocaleString('en-GB');
  const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;
  return (
    `alerts: ${n(summary.alerts)} new for ${plural(summary.keys, 'key', 'keys')}, ` +
    `${plural(summary.deliveries, 'delivery', 'deliveries')} queued ` +
    `(${plural(summary.companies, 'changed company', 'changed companies')} checked, ` +
    `${plural(summary.watches, 'watch', 'watches')}, as of ${summary.asOf})`
  );
}
