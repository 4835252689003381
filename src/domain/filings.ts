/**
 * Filings and the accounts history they build: what the accounts loader hands the store, what a
 * lookup reads back, and the recent filings feed.
 */
import type { RegisterCompany } from './company.ts';
import type { AccountingStandard, FigureSet } from './figures.ts';
import type { InsolvencyCase } from './insolvency.ts';

/** One parsed filing, as the accounts loader hands it to the store. */
export interface FilingRecord {
  company_number: string;
  source_zip: string;
  source_file: string;
  published: string | null;
  balance_sheet_date: string;
  period_start: string | null;
  standard: AccountingStandard;
  entity_name: string | null;
  current: FigureSet;
  prior_balance_sheet_date: string | null;
  prior_period_start: string | null;
  prior: FigureSet | null;
  quality: { field: string; period: 'current' | 'prior'; message: string }[];
}

export interface ParseFailureRecord {
  source_zip: string;
  source_file: string;
  code: string;
  message: string;
}

/** One entry of a company's accounts history, newest first in lookups. */
export interface AccountsEntry {
  balance_sheet_date: string;
  period_start: string | null;
  published: string | null;
  standard: AccountingStandard;
  figures: FigureSet;
  quality: { field: string; period: 'current' | 'prior'; message: string }[];
  from_prior_period: boolean;
  /** The filed file the figures came from (the later filing, for a year from its prior-year column). */
  source: FilingSource;
}

/** A filing's place in the bulk data: the zip's base name (null for a file loaded on its own) and its own name. */
interface FilingSource {
  zip: string | null;
  file: string;
}

export interface CompanyWithAccounts {
  company: RegisterCompany & { removed_from_register: string | null; snapshot_date: string };
  accounts: AccountsEntry[];
  /**
   * The insolvency cases the insolvency-cases stream published (none: an empty list), when the
   * read included them (CompanyReader.getCompanies does: alerts and watch snapshots read them).
   */
  insolvency_cases?: InsolvencyCase[];
}

export interface RecentFiling {
  company_number: string;
  /** The register's name, or the name in the filing for a company not on the register. */
  name: string | null;
  published: string;
  balance_sheet_date: string;
  net_assets: number | null;
  cash: number | null;
  turnover: number | null;
}

/** A filing's place in recentFilings' order; the source file and zip make it unique. */
export type RecentFilingKey = readonly [
  published: string,
  companyNumber: string,
  balanceSheetDate: string,
  sourceFile: string,
  sourceZip: string,
];

export interface RecentFilingsPage {
  /** Every filing published since the day asked, not only those returned. */
  total: number;
  filings: RecentFiling[];
  /** The place of the last filing when more follow; null on the last page. */
  next: RecentFilingKey | null;
}
