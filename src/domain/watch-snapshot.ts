/**
 * What a watchlist remembers of a company when it is added: the register facts and the newest
 * accounts that alerts later compare against (see alerts.ts).
 */
import { withFigures } from './accounts-period.ts';
import type { CompanyWithAccounts, WatchSnapshot } from '../ports.ts';

/**
 * The snapshot of a company as the store holds it now; the history is newest first, and its
 * newest entry with figures is the latest accounts (as in lookups).
 */
export function watchSnapshot({ company, accounts }: CompanyWithAccounts): WatchSnapshot {
  const latest = withFigures(accounts)[0];
  return {
    status: company.status,
    accounts_next_due: company.accounts_next_due,
    charges_total: company.charges_total,
    charges_outstanding: company.charges_outstanding,
    latest_balance_sheet_date: latest?.balance_sheet_date ?? null,
    net_assets: latest?.figures.net_assets ?? null,
    cash: latest?.figures.cash ?? null,
  };
}
