/**
 * What a register status means for filters and signals. The register spells statuses freely
 * ("Active - Proposal to Strike off", "In Administration", "RECEIVERSHIP"), so they are read by
 * the words they contain.
 */

/** The values the `status` filter accepts; `any` matches every company. */
export const STATUS_FILTERS = [
  'active',
  'dissolved',
  'liquidation',
  'administration',
  'receivership',
  'voluntary_arrangement',
  'proposal_to_strike_off',
  'any',
] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export type StatusGroup = Exclude<StatusFilter, 'any'>;

/** Every group a status belongs to: "Active - Proposal to Strike off" is both active and striking off. */
export function statusGroups(status: string): StatusGroup[] {
  const s = status.trim().toLowerCase();
  const groups: StatusGroup[] = [];
  if (s.startsWith('active')) groups.push('active');
  if (/^(dissolved|closed|converted|removed)/.test(s)) groups.push('dissolved');
  if (s.includes('liquidation')) groups.push('liquidation');
  if (s.includes('administration')) groups.push('administration');
  if (s.includes('receiver')) groups.push('receivership');
  if (s.includes('voluntary arrangement')) groups.push('voluntary_arrangement');
  if (s.includes('strike off') || s.includes('strike-off')) groups.push('proposal_to_strike_off');
  return groups;
}

/** Statuses the status_distress signal reports: insolvency, or on its way off the register. */
export function isDistressStatus(status: string): boolean {
  const groups = statusGroups(status);
  return (['liquidation', 'administration', 'receivership', 'proposal_to_strike_off'] as const).some((g) =>
    groups.includes(g),
  );
}

/** A company that has left the register: dissolved, removed, converted or closed. */
export function isDissolvedStatus(status: string): boolean {
  return statusGroups(status).includes('dissolved');
}

/** The register's facts about a company's accounts that overdue is judged from. */
export interface AccountsDueFacts {
  status: string;
  accounts_next_due: string | null;
  /** The balance sheet date of the newest accounts the register knows of; null before the first. */
  accounts_last_made_up_to: string | null;
}

/**
 * Whether the accounts the register says are next due are still owed, given the newest balance
 * sheet date on file (`newestFiled`, null when none):
 * - not by a dissolved company: it has nothing left to file;
 * - not once accounts made up to a later date than the register's last made-up date are on file
 *   (any, when the register knows of none). The register snapshot is monthly and lags the daily
 *   accounts: a company whose accounts for 2026-01-31 were published on 2026-11-17 has met the
 *   due date an older snapshot still shows.
 * Does not depend on the day asked, so the search index stores it (`must_file`).
 */
export function owesNextDueAccounts(company: AccountsDueFacts, newestFiled: string | null): boolean {
  if (isDissolvedStatus(company.status)) return false;
  if (newestFiled === null) return true;
  return company.accounts_last_made_up_to !== null && newestFiled <= company.accounts_last_made_up_to;
}

/** The due date has passed on `asOf` (ISO dates): due today is not yet late. */
export function isPastDue(nextDue: string | null, asOf: string): boolean {
  return nextDue !== null && nextDue < asOf;
}

/**
 * Accounts are overdue when the register's next due date has passed on `asOf` and those accounts
 * are still owed (owesNextDueAccounts). Evaluated on the day asked, never stored: it changes every
 * day.
 */
export function isAccountsOverdue(company: AccountsDueFacts, newestFiled: string | null, asOf: string): boolean {
  return isPastDue(company.accounts_next_due, asOf) && owesNextDueAccounts(company, newestFiled);
}

/**
 * A register snapshot is published monthly, within days of its date: one more than this many days
 * older than the day it is loaded on has had a newer one published since, and is history.
 */
const REGISTER_SNAPSHOT_CURRENT_DAYS = 45;

/**
 * The day overdue is judged on when a register snapshot of `snapshotDate` has just been loaded on
 * `today` (ISO dates): today for a current snapshot; the snapshot's own date for history, whose
 * due dates have long passed while the filings that met them are not in it. A 2016 snapshot
 * loaded in 2026 must not make every company in it overdue.
 */
export function overdueJudgedOn(snapshotDate: string, today: string): string {
  const age = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${snapshotDate}T00:00:00Z`)) / 86_400_000;
  return age > REGISTER_SNAPSHOT_CURRENT_DAYS ? snapshotDate : today;
}
