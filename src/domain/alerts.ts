/**
 * Alerts as values: their kinds, severities and shape, and how a `get_alerts` call selects and
 * orders them. The rules that detect them are src/alert-detection/alert-rules.ts.
 */
export const ALERT_KINDS = [
  'status_change',
  'insolvency',
  'negative_net_assets',
  'financial_deterioration',
  'overdue_accounts',
  'new_charges',
  'control_change',
  'new_accounts',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * An alert's severity: a signal's, and `info` below them for news that is no warning (new
 * accounts filed). `get_alerts {severity}` is the lowest level wanted, `info` meaning all.
 */
export const ALERT_SEVERITIES = ['high', 'medium', 'low', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** A before or after value: a status, a date, an amount or a count; null when there was none. */
export type AlertValue = string | number | null;

export interface Alert {
  company_number: string;
  name: string;
  kind: AlertKind;
  severity: AlertSeverity;
  message: string;
  /** ISO date the change became visible in the data (the rules' table, alert-detection/alert-rules.ts). */
  detected: string;
  from: AlertValue;
  to: AlertValue;
}

const SEVERITY_ORDER: Readonly<Record<AlertSeverity, number>> = { high: 0, medium: 1, low: 2, info: 3 };

/**
 * The alerts a `get_alerts` call asks for: detected on or after `since` (an ISO date; all when
 * absent), of `severity` or above (`info`: all).
 */
export function selectAlerts(
  alerts: readonly Alert[],
  { since, severity = 'info' }: { since?: string | undefined; severity?: AlertSeverity | undefined },
): Alert[] {
  return alerts.filter(
    (alert) =>
      (since === undefined || alert.detected >= since) && SEVERITY_ORDER[alert.severity] <= SEVERITY_ORDER[severity],
  );
}

/** Severity (high, medium, low, info), then company number, then kind; a new array, stable for ties. */
export function sortAlerts(alerts: readonly Alert[]): Alert[] {
  return [...alerts].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      (a.company_number < b.company_number ? -1 : a.company_number > b.company_number ? 1 : 0) ||
      ALERT_KINDS.indexOf(a.kind) - ALERT_KINDS.indexOf(b.kind),
  );
}
