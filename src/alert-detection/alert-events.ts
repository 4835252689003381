/**
 * Alerts as webhook events: an alert's identity, its event type and payload, and which
 * of a key's endpoints receive it. Pure. (The event's types are in domain/alert-events.ts.)
 */
import { withFigures } from '../domain/accounts-period.ts';
import type { AlertEvent, KeyAlertEvent } from '../domain/alert-events.ts';
import type { Alert, AlertKind } from '../domain/alerts.ts';
import type { CompanyWithAccounts } from '../domain/filings.ts';
import type { NewDelivery } from '../ports/webhooks.ts';

/** The event type of an alert kind: what an endpoint subscribes to (`events`). */
export function alertEventType(kind: AlertKind): `alert.${AlertKind}` {
  return `alert.${kind}`;
}

/**
 * An alert's identity, the same as get_alerts reports it: the company, the kind and the state it
 * moved to (`to`). An alert found again by a later load, with the company in the same state, has
 * the same identity and is not delivered again; one that moved on (Liquidation, then Dissolved;
 * newer accounts) is a new alert. financial_deterioration adds the value it fell from: a company
 * can have two at once (net assets and cash), and the kind and new value alone would make them one.
 * JSON text, so no value can run into the next.
 */
export function alertKey(alert: Pick<Alert, 'company_number' | 'kind' | 'from' | 'to'>): string {
  return JSON.stringify(
    alert.kind === 'financial_deterioration'
      ? [alert.company_number, alert.kind, alert.to, alert.from]
      : [alert.company_number, alert.kind, alert.to],
  );
}

export function alertEvent(alert: Alert, { company, accounts }: CompanyWithAccounts): AlertEvent {
  const latest = withFigures(accounts)[0];
  return {
    alert,
    company: {
      company_number: company.company_number,
      name: company.name,
      status: company.status,
      type: company.type,
      incorporated: company.incorporated,
      post_town: company.address.post_town,
      accounts_next_due: company.accounts_next_due,
      removed_from_register: company.removed_from_register,
      register_snapshot_date: company.snapshot_date,
      latest_accounts: latest
        ? {
            balance_sheet_date: latest.balance_sheet_date,
            published: latest.published,
            net_assets: latest.figures.net_assets,
            cash: latest.figures.cash,
          }
        : null,
    },
  };
}

/** An endpoint as routing reads it: whose it is and what it receives (null: every event). */
export interface EndpointSubscription {
  id: string;
  key_id: number;
  events: readonly string[] | null;
}

/**
 * The deliveries of newly detected alerts: one per alert and enabled endpoint of the alert's key
 * that receives its event type, keyed by the alert's identity (so the outbox holds it once per
 * endpoint). `endpoints` are the enabled ones; others' keys' endpoints are ignored.
 */
export function alertDeliveries(
  alerts: readonly KeyAlertEvent[],
  endpoints: readonly EndpointSubscription[],
): NewDelivery[] {
  const byKey = new Map<number, EndpointSubscription[]>();
  for (const endpoint of endpoints) byKey.set(endpoint.key_id, [...(byKey.get(endpoint.key_id) ?? []), endpoint]);
  return alerts.flatMap((alert) =>
    (byKey.get(alert.keyId) ?? [])
      .filter((endpoint) => endpoint.events === null || endpoint.events.includes(alert.eventType))
      .map((endpoint) => ({
        endpointId: endpoint.id,
        eventKey: alert.alertKey,
        eventType: alert.eventType,
        payload: alert.payload,
      })),
  );
}
