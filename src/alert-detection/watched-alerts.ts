/**
 * The alerts of watched companies as the store holds them now, read through the ports: what
 * get_alerts answers for a key, and what alert detection records after a load for every key that
 * watches a changed company. One computation for both, so the two cannot disagree on an alert or
 * on its identity.
 */
import type { Alert } from '../domain/alerts.ts';
import { groupBy } from '../domain/group-by.ts';
import { companyAlerts } from './alert-rules.ts';
import type { PscNow } from './alert-rules.ts';
import type { OwnershipReader } from '../ports/ownership.ts';
import type { StoredPsc } from '../domain/psc.ts';
import type { CompanyReader } from '../ports/companies.ts';
import type { CompanyWithAccounts } from '../domain/filings.ts';
import type { WatchedCompany } from '../domain/watchlists.ts';

/** What reading the alerts needs: the companies now, and their PSC registers. */
export interface AlertReaders {
  store: Pick<CompanyReader, 'getCompanies'>;
  ownership: Pick<OwnershipReader, 'currentPscsOf' | 'pscsOf'>;
}

/** One watched company with how the store holds it now (null: no longer on the register) and its alerts. */
export interface WatchedAlerts<Watched extends WatchedCompany> {
  watched: Watched;
  company: CompanyWithAccounts | null;
  alerts: Alert[];
}

/**
 * The alerts of each watched company on `asOf` (ISO date), in the order given (each sorted as
 * companyAlerts sorts). A company may be watched by several keys: it is read once, and each watch
 * is judged against its own snapshot and the day it was added. Three reads whatever the count
 * (the companies, their current PSCs), and one more per company whose snapshot lists a PSC that is
 * no longer current.
 */
export async function alertsOfWatched<Watched extends WatchedCompany>(
  readers: AlertReaders,
  watched: readonly Watched[],
  asOf: string,
): Promise<WatchedAlerts<Watched>[]> {
  if (watched.length === 0) return [];
  const numbers = [...new Set(watched.map((w) => w.company_number))];
  const current = await readers.store.getCompanies(numbers);
  const byNumber = new Map(current.map((c) => [c.company.company_number, c]));
  const pscs = await pscsNow(readers.ownership, watched);
  return watched.map((w) => {
    const now = byNumber.get(w.company_number) ?? null;
    return {
      watched: w,
      company: now,
      alerts: now
        ? companyAlerts({
            snapshot: w.snapshot,
            current: now,
            asOf,
            snapshotTaken: w.added,
            pscs: pscs.get(w.company_number),
          })
        : [],
    };
  });
}

/** Records grouped by their company number. */
export function byCompany<Row extends { company_number: string }>(records: readonly Row[]): Map<string, Row[]> {
  return groupBy(records, (record) => record.company_number);
}

/**
 * What control_change compares each snapshot's PSC set with: the current PSCs and statements of
 * every watched company whose snapshot has a set (one query), and, for a company whose snapshot
 * lists one no longer current, its ceased records too (a query for each such company only).
 * Records a snapshot did not list change nothing for it, so one set per company serves every
 * key that watches it.
 */
async function pscsNow(
  ownership: AlertReaders['ownership'],
  watched: readonly WatchedCompany[],
): Promise<Map<string, PscNow[]>> {
  const compared = watched.filter((w) => (w.snapshot.pscs?.length ?? 0) > 0);
  if (compared.length === 0) return new Map();
  const comparedNumbers = [...new Set(compared.map((w) => w.company_number))];
  const current = byCompany(await ownership.currentPscsOf(comparedNumbers));
  const found = new Map<string, readonly StoredPsc[]>(comparedNumbers.map((number) => [number, []]));
  for (const [number, records] of current) found.set(number, records);
  const ceasedSince = new Set(
    compared
      .filter((w) => {
        const ids = new Set(found.get(w.company_number)!.map((psc) => psc.psc_id));
        return w.snapshot.pscs!.some((psc) => !ids.has(psc.psc_id));
      })
      .map((w) => w.company_number),
  );
  await Promise.all([...ceasedSince].map(async (number) => found.set(number, await ownership.pscsOf(number, true))));
  return new Map([...found].map(([number, records]) => [number, [...records]]));
}
