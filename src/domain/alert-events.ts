/**
 * An alert as a webhook event: the payload a key's endpoints receive, and an alert newly detected
 * for a key, as detection records it (alert-detection/alert-events.ts makes them).
 */
import type { Alert } from './alerts.ts';

/** The company as a webhook event shows it beside an alert: who it is and where it stands now. */
interface AlertEventCompany {
  company_number: string;
  name: string;
  status: string;
  type: string;
  incorporated: string | null;
  post_town: string | null;
  accounts_next_due: string | null;
  /** The date it left the register, when it has. */
  removed_from_register: string | null;
  /** The date of the register snapshot the record comes from. */
  register_snapshot_date: string;
  /** The newest accounts with figures; null when none are on file. */
  latest_accounts: {
    balance_sheet_date: string;
    published: string | null;
    net_assets: number | null;
    cash: number | null;
  } | null;
}

/** The event's `data`: the sender wraps it as `{type, timestamp, data}`. */
export interface AlertEvent {
  alert: Alert;
  company: AlertEventCompany;
}

/** An alert newly detected for a key, ready for that key's endpoints. */
export interface KeyAlertEvent {
  keyId: number;
  alertKey: string;
  eventType: string;
  payload: AlertEvent;
}
