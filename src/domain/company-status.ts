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

/** A dissolved company no longer has to file, so its accounts cannot be overdue. */
export function isDissolvedStatus(status: string): boolean {
  return statusGroups(status).includes('dissolved');
}

/**
 * Accounts are overdue when the register's next due date has passed on `asOf` and the company
 * still has to file. Evaluated on the day asked, never stored: it changes every day.
 */
export function isAccountsOverdue(nextDue: string | null, status: string, asOf: string): boolean {
  return nextDue !== null && nextDue < asOf && !isDissolvedStatus(status);
}
