/**
 * The pure parts of alert detection: an alert's identity, which endpoints receive it, where a run
 * starts looking, the loader's summary line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alertDeliveries, alertEvent, alertEventType, alertKey } from '../../src/alert-detection/alert-events.ts';
import type { EndpointSubscription } from '../../src/alert-detection/alert-events.ts';
import type { KeyAlertEvent } from '../../src/domain/alert-events.ts';
import { changesSince, describeAlertDetection, fallenDueDays } from '../../src/alert-detection/detect-alerts.ts';
import type { Alert } from '../../src/domain/alerts.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import { company } from '../support/store-records.ts';

function alert(overrides: Partial<Alert> = {}): Alert {
  return {
    company_number: '00001234',
    name: 'ACME LIMITED',
    kind: 'status_change',
    severity: 'high',
    message: 'Status changed from Active to Liquidation.',
    detected: '2025-06-01',
    from: 'Active',
    to: 'Liquidation',
    ...overrides,
  };
}

describe('alertKey: company, kind and the state it moved to', () => {
  const cases: { name: string; a: Partial<Alert>; b: Partial<Alert>; same: boolean }[] = [
    { name: 'the same change found by a later load', a: {}, b: { detected: '2025-07-01' }, same: true },
    { name: 'a message worded otherwise', a: {}, b: { message: 'other words' }, same: true },
    { name: 'a snapshot that said otherwise (from)', a: {}, b: { from: 'Dormant' }, same: true },
    { name: 'moved on: Liquidation, then Dissolved', a: {}, b: { to: 'Dissolved' }, same: false },
    { name: 'another company', a: {}, b: { company_number: '00001235' }, same: false },
    {
      name: 'another kind, same value',
      a: { kind: 'new_charges', to: 3 },
      b: { kind: 'overdue_accounts', to: 3 },
      same: false,
    },
    { name: 'a number and the same digits as text', a: { to: 3 }, b: { to: '3' }, same: false },
    { name: 'no value and the text "null"', a: { to: null }, b: { to: 'null' }, same: false },
    {
      name: 'two deteriorations at once (net assets and cash) to one value',
      a: { kind: 'financial_deterioration', from: 500_000, to: 100 },
      b: { kind: 'financial_deterioration', from: 200_000, to: 100 },
      same: false,
    },
    {
      name: 'a deterioration found again',
      a: { kind: 'financial_deterioration', from: 500_000, to: 100 },
      b: { kind: 'financial_deterioration', from: 500_000, to: 100, detected: '2026-01-01' },
      same: true,
    },
    {
      name: 'values that would run together if joined with a separator',
      a: { company_number: '0000123', kind: 'control_change', to: '4","control_change' },
      b: { company_number: '0000123", "4', kind: 'control_change', to: 'control_change' },
      same: false,
    },
  ];
  for (const { name, a, b, same } of cases) {
    test(name, () => assert.equal(alertKey(alert(a)) === alertKey(alert(b)), same));
  }
});

describe('alertDeliveries: one per alert and endpoint of its key that receives its type', () => {
  const event = (keyId: number, kind: Alert['kind'] = 'status_change'): KeyAlertEvent => {
    const a = alert({ kind });
    return {
      keyId,
      alertKey: alertKey(a),
      eventType: alertEventType(kind),
      payload: { alert: a, company: {} as never },
    };
  };
  const endpoint = (id: string, key_id: number, events: string[] | null): EndpointSubscription => ({
    id,
    key_id,
    events,
  });
  const cases: { name: string; alerts: KeyAlertEvent[]; endpoints: EndpointSubscription[]; want: string[] }[] = [
    { name: 'no endpoint: nothing', alerts: [event(1)], endpoints: [], want: [] },
    {
      name: 'an endpoint for every event',
      alerts: [event(1)],
      endpoints: [endpoint('a', 1, null)],
      want: ['a alert.status_change'],
    },
    {
      name: 'an endpoint subscribed to this type',
      alerts: [event(1)],
      endpoints: [endpoint('a', 1, ['alert.new_accounts', 'alert.status_change'])],
      want: ['a alert.status_change'],
    },
    {
      name: 'an endpoint subscribed only to other types',
      alerts: [event(1)],
      endpoints: [endpoint('a', 1, ['alert.new_accounts'])],
      want: [],
    },
    { name: "another key's endpoint", alerts: [event(1)], endpoints: [endpoint('b', 2, null)], want: [] },
    {
      name: 'two endpoints of the key, two alerts',
      alerts: [event(1), event(1, 'new_charges')],
      endpoints: [endpoint('a', 1, null), endpoint('c', 1, ['alert.new_charges']), endpoint('b', 2, null)],
      want: ['a alert.status_change', 'a alert.new_charges', 'c alert.new_charges'],
    },
  ];
  for (const { name, alerts, endpoints, want } of cases) {
    test(name, () => {
      const deliveries = alertDeliveries(alerts, endpoints);
      const got = deliveries.map((d) => `${d.endpointId} ${d.eventType}`);
      assert.deepEqual(got.sort(), [...want].sort());
      for (const delivery of deliveries) {
        const source = alerts.find((a) => a.eventType === delivery.eventType)!;
        assert.equal(delivery.eventKey, source.alertKey);
        assert.equal(delivery.payload, source.payload);
      }
    });
  }
});

test('alertEvent: the alert with the company as it stands now, its newest accounts with figures', () => {
  const record = {
    company: {
      ...company('00001234', { name: 'ACME LIMITED', status: 'Liquidation' }),
      removed_from_register: null,
      snapshot_date: '2025-06-01',
    },
    accounts: [
      {
        balance_sheet_date: '2024-12-31',
        period_start: null,
        published: '2025-05-01',
        standard: 'FRS 102' as const,
        figures: emptyFigures(),
        quality: [],
        from_prior_period: false,
        source: { zip: 'Accounts_Bulk_Data-2025-05-01.zip', file: 'Prod223_0001_00001234_20241231.html' },
      },
      {
        balance_sheet_date: '2023-12-31',
        period_start: null,
        published: '2024-05-01',
        standard: 'FRS 102' as const,
        figures: { ...emptyFigures(), net_assets: -5, cash: 7 },
        quality: [],
        from_prior_period: false,
        source: { zip: 'Accounts_Bulk_Data-2024-05-01.zip', file: 'Prod223_0001_00001234_20231231.html' },
      },
    ],
  };
  const a = alert();
  assert.deepEqual(alertEvent(a, record), {
    alert: a,
    company: {
      company_number: '00001234',
      name: 'ACME LIMITED',
      status: 'Liquidation',
      type: 'Private Limited Company',
      incorporated: '2015-01-01',
      post_town: 'LEEDS',
      accounts_next_due: '2023-09-30',
      removed_from_register: null,
      register_snapshot_date: '2025-06-01',
      latest_accounts: { balance_sheet_date: '2023-12-31', published: '2024-05-01', net_assets: -5, cash: 7 },
    },
  });
});

describe('changesSince: where a run starts looking', () => {
  const cases = [
    { name: 'before the first run: everything', through: null, margin: 300_000, want: null },
    {
      name: 'the last run start, less the margin',
      through: '2026-11-23T22:10:00.000Z',
      margin: 300_000,
      want: '2026-11-23T22:05:00.000Z',
    },
    { name: 'across midnight', through: '2026-11-24T00:01:00.000Z', margin: 300_000, want: '2026-11-23T23:56:00.000Z' },
  ];
  for (const { name, through, margin, want } of cases)
    test(name, () => assert.equal(changesSince(through, margin), want));
});

describe('fallenDueDays: due dates whose passing made accounts overdue since the last run', () => {
  const cases = [
    { name: 'before the first run: none (every company is looked at)', through: null, asOf: '2026-11-23', want: null },
    { name: 'the same day: none', through: '2026-11-23T08:00:00.000Z', asOf: '2026-11-23', want: null },
    {
      name: 'the next day: those due on the last run day',
      through: '2026-11-22T23:59:00.000Z',
      asOf: '2026-11-23',
      want: { from: '2026-11-22', until: '2026-11-23' },
    },
    {
      name: 'a month later: every day between',
      through: '2026-10-23T08:00:00.000Z',
      asOf: '2026-11-23',
      want: { from: '2026-10-23', until: '2026-11-23' },
    },
  ];
  for (const { name, through, asOf, want } of cases)
    test(name, () => assert.deepEqual(fallenDueDays(through, asOf), want));
});

describe('describeAlertDetection: the loader summary line', () => {
  const base = { companies: 0, watches: 0, alerts: 0, keys: 0, deliveries: 0, asOf: '2026-11-23' };
  const cases = [
    {
      name: 'nothing changed',
      summary: base,
      want: 'alerts: 0 new for 0 keys, 0 deliveries queued (0 changed companies checked, 0 watches, as of 2026-11-23)',
    },
    {
      name: 'ones',
      summary: { ...base, companies: 1, watches: 1, alerts: 1, keys: 1, deliveries: 1 },
      want: 'alerts: 1 new for 1 key, 1 delivery queued (1 changed company checked, 1 watch, as of 2026-11-23)',
    },
    {
      name: 'a full load',
      summary: { ...base, companies: 5_123_456, watches: 40, alerts: 12, keys: 3, deliveries: 12 },
      want: 'alerts: 12 new for 3 keys, 12 deliveries queued (5,123,456 changed companies checked, 40 watches, as of 2026-11-23)',
    },
  ];
  for (const { name, summary, want } of cases) test(name, () => assert.equal(describeAlertDetection(summary), want));
});
