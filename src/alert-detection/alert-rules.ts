/**
 * The alert rules: what changed in a watched company since it was added to a watchlist, judged by
 * comparing the snapshot taken then (domain/watch-snapshot.ts) with the company and its PSC
 * register as the store holds them now; the alerts themselves are values of domain/alerts.ts.
 * Pure and deterministic: the same snapshot, record and day give the same alerts, so `detected`
 * is always a date read from the data, never the time of the request.
 *
 * The rules, one alert per kind and company (deterioration: one per figure that fell):
 *
 * | kind | severity | fires when | from → to | detected |
 * |---|---|---|---|---|
 * | `status_change` | high | the register status now puts the company in liquidation, administration, receivership, proposal to strike off or dissolved, in a group its snapshot status was not in ("Active" → "Liquidation", "Liquidation" → "Dissolved"; "In Administration" → "Administration" is no change) | status text, snapshot → now | the day it left the register if it did, else the date of the register snapshot the current record comes from |
 * | `insolvency` | high | the insolvency-cases stream published a case the snapshot did not list (by its number; the snapshot lists the cases the store held when it was taken), unless the case had ended (a closing date: administration ended or discharged, winding up concluded, case ended, voluntary arrangement or moratorium ended) before the snapshot was taken | number of cases, snapshot → now | the newest date of the new cases up to `asOf`, never before the day the snapshot was taken |
 * | `negative_net_assets` | high | the newest history entry has net assets below zero and the snapshot's were not (zero, positive or none filed) | net assets (number or null), snapshot → newest entry | publication date of the newest entry (its balance sheet date when not known) |
 * | `financial_deterioration` | medium | the newest entry is newer than the snapshot's latest balance sheet date, and its net assets or its cash is down 30% or more on the entry before it (which was above zero) — the contract's "between the last two filings"; a fall in net assets across FRS 102's lease change (crossesLeaseChange: the lookup's `lease_accounting_change`) is not one, a fall in cash still is | that figure, entry before → newest entry (not the snapshot's value) | publication date of the newest entry |
 * | `overdue_accounts` | medium | the accounts are overdue on `asOf` (isAccountsOverdue: the register's next due date has passed, company not dissolved, and no accounts made up to a later date than the register's last made-up date are on file), and this is not the same overdue as when the snapshot was taken: the due date has changed since, or it had not passed on the day the snapshot was taken | next due date, snapshot → now | the day after the due date |
 * | `new_charges` | medium | the register's count of charges (`charges_total`) is higher than the snapshot's | charges_total, snapshot → now | the date of the register snapshot the current record comes from |
 * | `control_change` | medium | a PSC or PSC statement is current now that the snapshot did not list (notified since), or one the snapshot listed is ceased (its `ceased_on`, or a complete PSC snapshot no longer lists it); only when the snapshot listed at least one (see below); a record under a new id with the same kind, name, statement and notified date as one listed is the same control (a change to its identity verification alone is none) | the names of the current PSCs and statements, snapshot → now, joined by "; " (null when none) | the newest date among the changes (a notified one's `notified_on`, else the date of the PSC snapshot listing it; a ceased one's `ceased_on`, else the date of the PSC snapshot that marked it ceased), never before the day the snapshot was taken |
 * | `new_accounts` | info | the newest entry has a later balance sheet date than the snapshot's (or the snapshot had none) | latest balance sheet date (null when none), snapshot → now | publication date of the newest entry |
 *
 * A snapshot taken before PSCs were kept, or while the store held no current PSC or statement of
 * the company (no PSC snapshot loaded yet, or none filed), has no PSC set to compare with: such a
 * company gets no control_change alert, as the first PSC load would otherwise report its whole
 * register as new. Watching it again takes a new snapshot. Statements are changes too: a "no
 * registrable person" statement withdrawn, or a "details not confirmed" one filed, changes what is
 * known of who controls the company.
 *
 * "Entry" means a history entry with at least one figure: one that a filing left empty (no figure
 * tagged at its balance sheet date) is passed over, as lookups pass it over for the latest accounts.
 *
 * Money in messages is formatMoney's (£1.2m, -£45k); 30% uses the signals' FALL_PCT. Sorted by
 * severity (high, medium, low, info), then company number, then kind in the table's order; two
 * deterioration alerts of one company keep net assets before cash.
 */
import { changePct, crossesLeaseChange, withFigures } from '../domain/accounts-period.ts';
import { sortAlerts } from '../domain/alerts.ts';
import type { Alert, AlertKind, AlertSeverity, AlertValue } from '../domain/alerts.ts';
import { isAccountsOverdue, isDissolvedStatus, isPastDue, statusGroups } from '../domain/company-status.ts';
import type { StatusGroup } from '../domain/company-status.ts';
import { endedBefore, insolvencyCaseKey } from '../domain/insolvency.ts';
import { formatMoney } from '../domain/money.ts';
import { FALL_PCT } from '../domain/signals.ts';
import type { StoredPsc } from '../domain/psc.ts';
import type { AccountsEntry, CompanyWithAccounts } from '../domain/filings.ts';
import type { SnapshotPsc, WatchSnapshot } from '../domain/watchlists.ts';

const ALERT_SEVERITY: Readonly<Record<AlertKind, AlertSeverity>> = {
  status_change: 'high',
  insolvency: 'high',
  negative_net_assets: 'high',
  financial_deterioration: 'medium',
  overdue_accounts: 'medium',
  new_charges: 'medium',
  control_change: 'medium',
  new_accounts: 'info',
};

/** The status groups a change into raises a status_change alert. */
const ALERT_STATUS_GROUPS: readonly StatusGroup[] = [
  'liquidation',
  'administration',
  'receivership',
  'proposal_to_strike_off',
  'dissolved',
];

/** What control_change reads of a PSC or statement as the store holds it now. */
export type PscNow = Pick<
  StoredPsc,
  | 'psc_id'
  | 'kind_class'
  | 'name'
  | 'statement'
  | 'notified_on'
  | 'ceased'
  | 'ceased_on'
  | 'ceased_by_snapshot'
  | 'snapshot_date'
>;

/** What the alerts of one watched company are judged from (see companyAlerts). */
export interface CompanyAlertsInput {
  /** The snapshot taken when the company was added to the watchlist. */
  snapshot: WatchSnapshot;
  /** The company and its accounts history as the store holds them now. */
  current: CompanyWithAccounts;
  /** The day the alerts are for (ISO date). */
  asOf: string;
  /** When the snapshot was taken (an ISO date or date-time, e.g. WatchedCompany.added). */
  snapshotTaken: string;
  /**
   * The company's current PSCs and statements, with the records of those the snapshot listed that
   * are no longer current (newest notified first); without them, no control_change.
   */
  pscs?: readonly PscNow[];
}

/** One alert before it is given the company's number, name and the kind's severity. */
interface Finding {
  kind: AlertKind;
  message: string;
  detected: string;
  from: AlertValue;
  to: AlertValue;
}

/**
 * The alerts of one watched company on `asOf`, against the snapshot taken when it was added;
 * `snapshotTaken` tells whether accounts were already overdue then. Sorted as sortAlerts.
 */
export function companyAlerts(input: CompanyAlertsInput): Alert[] {
  const { snapshot, current } = input;
  const { company } = current;
  const [latest, previous] = withFigures(current.accounts);
  // In the table's order: sortAlerts keeps it within a severity (net assets before cash).
  const findings = [
    ...statusChange(snapshot, company),
    ...newInsolvencyCases(input),
    ...(latest ? accountsChanges(snapshot, latest, previous) : []),
    ...overdueAccounts(input, latest?.balance_sheet_date ?? null),
    ...newCharges(snapshot, company),
    ...(input.pscs === undefined ? [] : controlChange(snapshot.pscs, input.pscs, input.snapshotTaken.slice(0, 10))),
  ];
  return sortAlerts(
    findings.map(({ kind, message, detected, from, to }) => ({
      company_number: company.company_number,
      name: company.name,
      kind,
      severity: ALERT_SEVERITY[kind],
      message,
      detected,
      from,
      to,
    })),
  );
}

type Company = CompanyWithAccounts['company'];

/** status_change: the status moved into a group of ALERT_STATUS_GROUPS the snapshot's was not in. */
function statusChange(snapshot: WatchSnapshot, company: Company): Finding[] {
  const before = new Set(statusGroups(snapshot.status));
  if (!statusGroups(company.status).some((group) => ALERT_STATUS_GROUPS.includes(group) && !before.has(group)))
    return [];
  return [
    {
      kind: 'status_change',
      message: `Status changed from ${snapshot.status} to ${company.status}.`,
      detected: company.removed_from_register ?? company.snapshot_date,
      from: snapshot.status,
      to: company.status,
    },
  ];
}

/**
 * insolvency: cases published since the snapshot. A snapshot without case keys was taken before
 * cases were kept, when the store held none: every case is new to it.
 */
function newInsolvencyCases(input: CompanyAlertsInput): Finding[] {
  const cases = input.current.insolvency_cases ?? [];
  const listed = new Set(input.snapshot.insolvency_cases ?? []);
  const snapshotDay = input.snapshotTaken.slice(0, 10);
  const fresh = cases.filter((c) => !listed.has(insolvencyCaseKey(c)) && !endedBefore(c, snapshotDay));
  if (fresh.length === 0) return [];
  const dates = fresh.flatMap((c) => c.dates.map((d) => d.date)).filter((date) => date <= input.asOf);
  const described = fresh.map((c) => {
    const started = [...c.dates].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))[0];
    const acting = c.practitioners.filter((p) => p.ceased_to_act_on === null && p.name !== '').map((p) => p.name);
    return (
      `${c.type.replaceAll('-', ' ')}${c.number === null ? '' : ` (case ${c.number})`}` +
      `${started ? `, ${started.type.replaceAll('-', ' ')} ${started.date}` : ''}` +
      `${acting.length > 0 ? `, practitioner${acting.length === 1 ? '' : 's'} ${acting.join(', ')}` : ''}`
    );
  });
  return [
    {
      kind: 'insolvency',
      message: `New insolvency case${fresh.length === 1 ? '' : 's'}: ${described.join('; ')}.`,
      detected: dates.reduce((newest, date) => (date > newest ? date : newest), snapshotDay),
      from: listed.size,
      to: cases.length,
    },
  ];
}

/** negative_net_assets, financial_deterioration and new_accounts, read from the newest entries. */
function accountsChanges(
  snapshot: WatchSnapshot,
  latest: AccountsEntry,
  previous: AccountsEntry | undefined,
): Finding[] {
  const at = latest.balance_sheet_date;
  const filed = publishedOn(latest);
  const netAssets = latest.figures.net_assets;
  const findings: Finding[] = [];
  if (netAssets !== null && netAssets < 0 && !(snapshot.net_assets !== null && snapshot.net_assets < 0)) {
    findings.push({
      kind: 'negative_net_assets',
      message:
        snapshot.net_assets === null
          ? `Net assets are negative: ${formatMoney(netAssets)} (${at}).`
          : `Net assets fell from ${formatMoney(snapshot.net_assets)} to ${formatMoney(netAssets)} (${at}).`,
      detected: filed,
      from: snapshot.net_assets,
      to: netAssets,
    });
  }
  const isNew = snapshot.latest_balance_sheet_date === null || at > snapshot.latest_balance_sheet_date;
  if (!isNew) return findings;
  if (previous) findings.push(...deterioration(latest, previous));
  const figures = `net assets ${formatMoney(netAssets)}, cash ${formatMoney(latest.figures.cash)}`;
  findings.push({
    kind: 'new_accounts',
    message: `New accounts made up to ${at}${latest.published ? `, published ${latest.published}` : ''}: ${figures}.`,
    detected: filed,
    from: snapshot.latest_balance_sheet_date,
    to: at,
  });
  return findings;
}

/** financial_deterioration: net assets or cash down FALL_PCT or more between the last two entries. */
function deterioration(latest: AccountsEntry, previous: AccountsEntry): Finding[] {
  const findings: Finding[] = [];
  // Leases brought onto the balance sheet move net assets by themselves; cash they leave alone.
  const fields = crossesLeaseChange([latest, previous])
    ? ([['cash', 'Cash']] as const)
    : ([
        ['net_assets', 'Net assets'],
        ['cash', 'Cash'],
      ] as const);
  for (const [field, label] of fields) {
    const was = previous.figures[field];
    const now = latest.figures[field];
    const change = changePct(was, now);
    if (was !== null && was > 0 && change !== null && change <= FALL_PCT) {
      findings.push({
        kind: 'financial_deterioration',
        message: `${label} fell ${Math.round(-change)}% from ${formatMoney(was)} (${previous.balance_sheet_date}) to ${formatMoney(now)} (${latest.balance_sheet_date}).`,
        detected: publishedOn(latest),
        from: was,
        to: now,
      });
    }
  }
  return findings;
}

/** overdue_accounts: overdue on `asOf`, and not the same overdue as when the snapshot was taken. */
function overdueAccounts(input: CompanyAlertsInput, latestMadeUpTo: string | null): Finding[] {
  const { snapshot } = input;
  const { company } = input.current;
  const due = company.accounts_next_due;
  if (due === null || !isAccountsOverdue(company, latestMadeUpTo, input.asOf)) return [];
  // The snapshot does not keep the register's last made-up date; had newer accounts been on
  // file then, they still are, and the accounts would not be overdue now.
  const sameOverdueAsAtSnapshot =
    due === snapshot.accounts_next_due &&
    isPastDue(snapshot.accounts_next_due, input.snapshotTaken.slice(0, 10)) &&
    !isDissolvedStatus(snapshot.status);
  if (sameOverdueAsAtSnapshot) return [];
  return [
    {
      kind: 'overdue_accounts',
      message: `Accounts were due by ${due} and have not been filed.`,
      detected: dayAfter(due),
      from: snapshot.accounts_next_due,
      to: due,
    },
  ];
}

/** new_charges: the register counts more charges than the snapshot did. */
function newCharges(snapshot: WatchSnapshot, company: Company): Finding[] {
  if (company.charges_total <= snapshot.charges_total) return [];
  const count = company.charges_total - snapshot.charges_total;
  return [
    {
      kind: 'new_charges',
      message: `${count} new charge${count === 1 ? '' : 's'} registered: ${company.charges_total} in all, was ${snapshot.charges_total} (${company.charges_outstanding} outstanding).`,
      detected: company.snapshot_date,
      from: snapshot.charges_total,
      to: company.charges_total,
    },
  ];
}

/** control_change: the PSCs notified and ceased since the snapshot (see the table); none when nothing to compare. */
function controlChange(
  before: readonly SnapshotPsc[] | undefined,
  pscs: readonly PscNow[],
  snapshotDay: string,
): Finding[] {
  if (before === undefined || before.length === 0) return [];
  const listed = new Set(before.map((psc) => psc.psc_id));
  const listedControl = new Set(before.map(controlIdentity));
  const now = new Map(pscs.map((psc) => [psc.psc_id, psc]));
  // One entry per control: a PSC kept under two ids (see controlIdentity) is named once.
  const current = [...new Map(pscs.filter((psc) => !psc.ceased).map((psc) => [controlIdentity(psc), psc])).values()];
  const currentControl = new Set(current.map(controlIdentity));
  const notified = current.filter((psc) => !listed.has(psc.psc_id) && !listedControl.has(controlIdentity(psc)));
  const ceased = before.flatMap((psc) => {
    const record = now.get(psc.psc_id);
    if (record && !record.ceased) return [];
    if (currentControl.has(controlIdentity(psc))) return [];
    // Records are never deleted: one the caller did not find ceased on a day not known here.
    return [{ label: pscLabel(psc), on: record?.ceased_on ?? null, markedOn: record?.ceased_by_snapshot ?? null }];
  });
  if (notified.length === 0 && ceased.length === 0) return [];
  const dates = [
    snapshotDay,
    ...notified.map((psc) => psc.notified_on ?? psc.snapshot_date),
    ...ceased.flatMap((psc) => psc.on ?? psc.markedOn ?? []),
  ];
  const dated = (label: string, date: string | null) => (date ? `${label} (${date})` : label);
  const parts = [
    ...(notified.length > 0
      ? [`notified ${notified.map((psc) => dated(pscLabel(psc), psc.notified_on)).join(', ')}`]
      : []),
    ...(ceased.length > 0 ? [`ceased ${ceased.map((psc) => dated(psc.label, psc.on)).join(', ')}`] : []),
  ];
  const names = (list: readonly Pick<SnapshotPsc, 'kind_class' | 'name' | 'statement'>[]) =>
    list.length === 0 ? null : list.map(pscLabel).join('; ');
  return [
    {
      kind: 'control_change',
      message: `Persons with significant control changed: ${parts.join('; ')}.`,
      detected: dates.reduce((newest, date) => (date > newest ? date : newest)),
      from: names(before),
      to: names(current),
    },
  ];
}

/**
 * What a control is, whatever the id of its record: the kind, the name, the statement and the day
 * notified. A record with neither `links.self` nor a stable key is keyed by its etag (psc-line.ts),
 * which changes with any change to the record, identity verification details included; as
 * verification rolls out to every PSC, such a record would otherwise come back under a new id,
 * its old id ceased, and raise control_change for a change to nothing but verification.
 */
function controlIdentity(psc: Pick<SnapshotPsc, 'kind_class' | 'name' | 'statement' | 'notified_on'>): string {
  return JSON.stringify([psc.kind_class, psc.name, psc.statement, psc.notified_on]);
}

/** A PSC or statement in words: its name, else what it is. */
function pscLabel(psc: Pick<SnapshotPsc, 'kind_class' | 'name' | 'statement'>): string {
  if (psc.name) return psc.name;
  if (psc.kind_class === 'statement') return `statement ${psc.statement ?? '(not said)'}`;
  if (psc.kind_class === 'super_secure') return 'a super-secure PSC (details withheld)';
  return `an unnamed ${psc.kind_class.replace('_', ' ')} PSC`;
}

/** When an entry became known: its publication date, else (a loose file) its balance sheet date. */
function publishedOn(entry: AccountsEntry): string {
  return entry.published ?? entry.balance_sheet_date;
}

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
