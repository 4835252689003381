/**
 * What a watchlist remembers of a company when it is added: the register facts, the newest
 * accounts and the current PSC register that alerts later compare against (see alerts.ts).
 */
import { withFigures } from './accounts-period.ts';
import { insolvencyCaseKey } from './insolvency.ts';
import type { StoredPsc } from './psc.ts';
import type { CompanyWithAccounts } from './filings.ts';
import type { SnapshotPsc, WatchSnapshot } from './watchlists.ts';

/**
 * The snapshot of a company as the store holds it now; the history is newest first, and its
 * newest entry with figures is the latest accounts (as in lookups). `pscs` are the company's PSC
 * records (ceased ones are left out); without them the snapshot keeps no PSC set, and the company
 * gets no control_change alerts. The insolvency cases are kept by their keys when the company was
 * read with them (getCompanies).
 */
export function watchSnapshot(
  { company, accounts, insolvency_cases }: CompanyWithAccounts,
  pscs?: readonly StoredPsc[],
): WatchSnapshot {
  const latest = withFigures(accounts)[0];
  return {
    status: company.status,
    accounts_next_due: company.accounts_next_due,
    charges_total: company.charges_total,
    charges_outstanding: company.charges_outstanding,
    latest_balance_sheet_date: latest?.balance_sheet_date ?? null,
    net_assets: latest?.figures.net_assets ?? null,
    cash: latest?.figures.cash ?? null,
    ...(pscs ? { pscs: pscs.filter((psc) => !psc.ceased).map(snapshotPsc) } : {}),
    ...(insolvency_cases ? { insolvency_cases: insolvency_cases.map(insolvencyCaseKey) } : {}),
  };
}

/** What a snapshot keeps of one PSC or statement. */
function snapshotPsc(psc: Pick<StoredPsc, keyof SnapshotPsc>): SnapshotPsc {
  return {
    psc_id: psc.psc_id,
    kind_class: psc.kind_class,
    name: psc.name,
    statement: psc.statement,
    notified_on: psc.notified_on,
  };
}
