/**
 * What the search index holds of a company: the register fields results show, keys the filters
 * match, the latest and prior figures, and every derived fact that does not depend on the day
 * asked (signals, flags, size, risk). Both search adapters store exactly this, built by this one
 * function, so that they can only differ in how they query it.
 */
import type { AccountsPeriod } from './accounts-period.ts';
import { changePct, round1, startOf } from './accounts-period.ts';
import { companyTypeKey } from './company-type.ts';
import { owesNextDueAccounts, statusGroups } from './company-status.ts';
import type { StatusGroup } from './company-status.ts';
import type { RiskBand } from './risk-band.ts';
import { riskBand } from './risk-band.ts';
import { overdueSignal, showsInsolvencyProxy, standingSignals } from './signals.ts';
import type { SizeBand } from './size-band.ts';
import { sizeBand } from './size-band.ts';
import { trajectory } from './trajectory.ts';
import type { Direction } from './trajectory.ts';
import { mergeEstimates } from './estimated-history.ts';
import { growthFacts } from './figure-growth.ts';
import type { GrowthFacts } from './figure-growth.ts';
import { indexedFlags } from './triggers.ts';
import type { IndexedFlag, TriggerFacts } from './triggers.ts';
import { ownershipFacts } from './psc-summary.ts';
import type { PscSummary } from './psc-summary.ts';

/** The register facts the index needs. */
export interface IndexedRegisterFacts {
  company_number: string;
  name: string;
  status: string;
  type: string;
  post_town: string | null;
  incorporated: string | null;
  sic_codes: string[];
  accounts_next_due: string | null;
  accounts_last_made_up_to: string | null;
  charges_outstanding: number;
}

/** A company as the search indexer reads it from the store, to make its SearchDocument. */
export interface IndexSource {
  company: IndexedRegisterFacts;
  accounts: AccountsPeriod[];
  /** The company's PSC register summed up; null when the store holds no PSC record of it. */
  pscs: PscSummary | null;
  /**
   * The earliest day from which a current officer's or PSC's identity verification is overdue
   * (earliestOverdueFrom); null when none is ever overdue as published.
   */
  identity_overdue_from: string | null;
  /** Figures estimated from its scanned PDF accounts (src/ports/pdf-estimates.ts), newest read first. */
  estimates?: AccountsPeriod[];
}

/**
 * Which of a company's documents this is. A company without estimates has one document (`only`);
 * one with them has two, its filed figures (`filed`) and its history with
 * the estimates merged in (`estimated`). Searches read `only` and `filed` documents unless asked
 * to include estimates, then `only` and `estimated`: a company is found once either way.
 */
export type DocumentView = 'only' | 'filed' | 'estimated';

/** A document's key in the index: the company number, with `~estimated` for the estimated view. */
export function documentKey(document: Pick<SearchDocument, 'company_number' | 'view'>): string {
  return document.view === 'estimated' ? `${document.company_number}~estimated` : document.company_number;
}

/** The view searches that include estimates leave out, and those that do not. */
export function viewLeftOut(includeEstimates: boolean): DocumentView {
  return includeEstimates ? 'filed' : 'estimated';
}

/** What the index holds for one company; the fields triggers explain a match from among them. */
export interface SearchDocument extends TriggerFacts, GrowthFacts {
  view: DocumentView;
  company_number: string;
  name: string;
  status: string;
  type: string;
  post_town: string | null;
  incorporated: string | null;
  sic_codes: string[];

  status_groups: StatusGroup[];
  type_key: string;
  /** Every leading part of every SIC code ("6", "62", "620", "6202", "62020"): `sic=62` is one term. */
  sic_prefixes: string[];
  /** Upper-cased, spaces collapsed. */
  post_town_key: string | null;
  /**
   * Whether the accounts due by `accounts_next_due` are still owed (owesNextDueAccounts): false once
   * dissolved, or once accounts made up to a later date than the register's last made-up date are
   * on file. Overdue is this and a due date before the day asked.
   */
  must_file: boolean;
  accounts_next_due: string | null;
  charges_outstanding: number;

  balance_sheet_date: string | null;
  /** The newest publication date among the company's filings. */
  published: string | null;
  net_assets: number | null;
  cash: number | null;
  turnover: number | null;
  employees: number | null;
  profit: number | null;
  current_assets: number | null;
  total_assets_less_current_liabilities: number | null;
  prior_balance_sheet_date: string | null;
  prior_net_assets: number | null;
  prior_cash: number | null;
  prior_turnover: number | null;
  prior_employees: number | null;
  prior_profit: number | null;
  prior_total_assets_less_current_liabilities: number | null;
  net_assets_change_pct: number | null;
  cash_change_pct: number | null;
  employees_change: number | null;

  /** The indexed flags, and `insolvency_proxy` when the standing signals show it (showsInsolvencyProxy). */
  flags: (IndexedFlag | 'insolvency_proxy')[];
  /** The overall direction of the filed figures (trajectory.ts). */
  trajectory: Direction;
  size_band: SizeBand | null;
  /** The band while accounts are not overdue, and the band once they are: a query picks by the day. */
  risk_band: RiskBand;
  risk_band_if_overdue: RiskBand;

  /** Current PSCs, statements excluded (psc-summary.ts); null when no PSC record of the company is held. */
  controller_count: number | null;
  /** Has a current corporate or legal-person PSC; null when no PSC record of the company is held. */
  has_corporate_parent: boolean | null;
  /** Country keys of the current corporate parents (countries.ts), `overseas` and `united kingdom` among them. */
  parent_countries: string[];
  /**
   * From this day a current officer's or PSC's identity verification is overdue (earliestOverdueFrom):
   * a date, not a flag, so that `identity_unverified` is decided on the day asked.
   */
  identity_overdue_from: string | null;
}

/** A company's documents: one, or its filed and estimated views when it has estimates. */
export function searchDocuments({
  company,
  accounts,
  pscs,
  identity_overdue_from,
  estimates = [],
}: IndexSource): SearchDocument[] {
  const filed = searchDocument(company, accounts, pscs, identity_overdue_from);
  // Once a company has estimates it keeps both documents, even when filed figures now cover every
  // estimated date: an update only writes documents, so dropping to one would leave the old
  // estimated document behind, and searches including estimates would find the company twice.
  if (estimates.length === 0) return [filed];
  const merged = mergeEstimates(accounts, estimates);
  return [
    { ...filed, view: 'filed' },
    { ...searchDocument(company, merged.history, pscs, identity_overdue_from), view: 'estimated' },
  ];
}

/**
 * `accounts` newest first; `pscs` the company's PSC register summed up, null when none is held;
 * `identityOverdueFrom` as IndexSource's.
 */
export function searchDocument(
  company: IndexedRegisterFacts,
  accounts: readonly AccountsPeriod[],
  pscs: PscSummary | null = null,
  identityOverdueFrom: string | null = null,
): SearchDocument {
  const [latest, prior] = accounts;
  const now = latest?.figures;
  const before = prior?.figures;
  const standing = standingSignals({ ...company, accounts });
  const published = accounts.reduce<string | null>(
    (newest, period) =>
      period.published !== null && (newest === null || period.published > newest) ? period.published : newest,
    null,
  );
  const direction = trajectory(accounts).direction;
  const employeesChange = now?.employees != null && before?.employees != null ? now.employees - before.employees : null;
  return {
    view: 'only',
    company_number: company.company_number,
    name: company.name,
    status: company.status,
    type: company.type,
    post_town: company.post_town,
    incorporated: company.incorporated,
    sic_codes: company.sic_codes,

    status_groups: statusGroups(company.status),
    type_key: companyTypeKey(company.type),
    sic_prefixes: sicPrefixes(company.sic_codes),
    post_town_key: postTownKey(company.post_town),
    must_file: owesNextDueAccounts(company, latest?.balance_sheet_date ?? null),
    accounts_next_due: company.accounts_next_due,
    charges_outstanding: company.charges_outstanding,

    balance_sheet_date: latest?.balance_sheet_date ?? null,
    published,
    net_assets: now?.net_assets ?? null,
    cash: now?.cash ?? null,
    turnover: now?.turnover ?? null,
    employees: now?.employees ?? null,
    profit: now?.profit ?? null,
    current_assets: now?.current_assets ?? null,
    total_assets_less_current_liabilities: now?.total_assets_less_current_liabilities ?? null,
    prior_balance_sheet_date: prior?.balance_sheet_date ?? null,
    prior_net_assets: before?.net_assets ?? null,
    prior_cash: before?.cash ?? null,
    prior_turnover: before?.turnover ?? null,
    prior_employees: before?.employees ?? null,
    prior_profit: before?.profit ?? null,
    prior_total_assets_less_current_liabilities: before?.total_assets_less_current_liabilities ?? null,
    net_assets_change_pct: round1(changePct(before?.net_assets ?? null, now?.net_assets ?? null)),
    cash_change_pct: round1(changePct(before?.cash ?? null, now?.cash ?? null)),
    employees_change: employeesChange,
    ...growthFacts(now, before),

    flags: [
      ...indexedFlags({ company, accounts, direction }),
      ...(showsInsolvencyProxy(standing) ? (['insolvency_proxy'] as const) : []),
    ],
    trajectory: direction,
    size_band: latest ? sizeBand(latest.figures.turnover, latest.figures.employees, startOf(accounts, 0)!) : null,
    risk_band: riskBand(standing),
    risk_band_if_overdue: riskBand(
      company.accounts_next_due === null ? standing : [...standing, overdueSignal(company.accounts_next_due)],
    ),
    ...ownershipFacts(pscs),
    identity_overdue_from: identityOverdueFrom,
  };
}

/** The leading digits of each code: "62020 - Information technology…" gives 6, 62, 620, 6202, 62020. */
export function sicPrefixes(sicCodes: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const sic of sicCodes) {
    const code = /^\s*(\d{4,5})/.exec(sic)?.[1];
    if (!code) continue;
    for (let length = 1; length <= code.length; length++) prefixes.add(code.slice(0, length));
  }
  return [...prefixes];
}

export function postTownKey(postTown: string | null): string | null {
  const key = postTown?.trim().toUpperCase().replace(/\s+/g, ' ');
  return key ? key : null;
}
