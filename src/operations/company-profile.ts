/**
 * A company as the contract shows it: the register record, the accounts history, and what the
 * domain rules read from them (signals, risk band, trajectory). Shared by lookup and compare; the
 * lookups add who controls the company (ControlledProfile).
 */
import type * as z from 'zod';
import { withFigures } from '../domain/accounts-period.ts';
import { riskBand } from '../domain/risk-band.ts';
import { companySignals } from '../domain/signals.ts';
import { trajectory } from '../domain/trajectory.ts';
import type { AccountsEntry, CompanyWithAccounts } from '../domain/filings.ts';
import { FIGURE_KEYS } from '../domain/figures.ts';
import { mergeEstimates } from '../domain/estimated-history.ts';
import type { PdfEstimate } from '../ports/pdf-estimates.ts';
import type { companyProfileOutput, lookupCompanyOutput } from './outputs.ts';

/** `latest` is the newest entry with at least one figure; null when none has any. */
export type CompanyProfile = z.infer<typeof companyProfileOutput>;

/** The profile with who controls the company (src/ownership/psc-view.ts companyControl): what lookups give. */
export type ControlledProfile = z.infer<typeof lookupCompanyOutput>;

/** The controllers and statements part of it. */
export type ProfileControl = Pick<ControlledProfile, 'controllers' | 'psc_statements'>;

type AccountsView = CompanyProfile['accounts'][number];

/** A company's estimates from scanned PDFs, and whether the rules may read them. */
export interface EstimatesAsked {
  estimates: readonly PdfEstimate[];
  /** include_estimates: latest, signals, risk band and trajectory read the estimates too. */
  include: boolean;
}

const NO_ESTIMATES: EstimatesAsked = { estimates: [], include: false };

/**
 * `accounts` lists every history entry, the estimates from scanned PDFs among them (marked
 * `source.kind: "pdf_ocr"`, see accountsWithEstimates); `latest`, the signals and the trajectory
 * read only the iXBRL entries with figures unless estimates are asked for, so a filing that tagged
 * none at its balance sheet date is listed (with its quality warning) but never shown as the latest
 * accounts.
 */
export function companyProfile(
  { company, accounts }: CompanyWithAccounts,
  today: string,
  asked: EstimatesAsked = NO_ESTIMATES,
): CompanyProfile {
  const history = accountsWithEstimates(accounts, asked.estimates);
  const filed = withFigures(asked.include ? history : history.filter((entry) => entry.source.kind === 'ixbrl'));
  const signals = companySignals(
    {
      status: company.status,
      accounts_next_due: company.accounts_next_due,
      accounts_last_made_up_to: company.accounts_last_made_up_to,
      charges_outstanding: company.charges_outstanding,
      accounts: filed,
      estimates_on_file: history.filter((entry) => entry.source.kind === 'pdf_ocr').length,
    },
    today,
  );
  return {
    company: {
      company_number: company.company_number,
      name: company.name,
      status: company.status,
      type: company.type,
      incorporated: company.incorporated,
      // A company a complete snapshot stopped listing left the register about then.
      dissolved: company.dissolved ?? company.removed_from_register,
      accounts: {
        category: company.accounts_category,
        last_made_up_to: company.accounts_last_made_up_to,
        next_due: company.accounts_next_due,
        // As the signal says: not while accounts newer than the register's last made-up date are
        // on file, since the monthly snapshot lags the daily accounts (isAccountsOverdue).
        overdue: signals.some((signal) => signal.code === 'accounts_overdue'),
      },
      confirmation_statement: {
        last_made_up_to: company.confirmation_last_made_up_to,
        next_due: company.confirmation_next_due,
      },
      charges_outstanding: company.charges_outstanding,
      charges_total: company.charges_total,
      sic_codes: company.sic_codes,
      address: company.address,
      previous_names: company.previous_names,
    },
    accounts: history,
    latest: filed[0] ?? null,
    estimates_used: filed.some((entry) => entry.source.kind === 'pdf_ocr'),
    signals,
    risk_band: riskBand(signals),
    trajectory: trajectory(filed),
  };
}

/** An iXBRL entry as lookups show it: its source kind said, no document id, no confidence. */
function ixbrlEntry(entry: AccountsEntry): AccountsView {
  return { ...entry, source: { kind: 'ixbrl', ...entry.source }, document_id: null, confidence: null };
}

/** An estimate as its own entry: its warnings as quality notes, a grade beside each figure read. */
function estimateEntry(estimate: PdfEstimate): AccountsView {
  return {
    balance_sheet_date: estimate.balanceSheetDate,
    period_start: estimate.periodStart,
    // When the PDF was filed is the filing history's to say; the reading knows only the document.
    published: null,
    standard: estimate.standard,
    figures: estimate.current,
    quality: estimate.warnings.map((message) => ({ field: 'document', period: 'current' as const, message })),
    from_prior_period: false,
    source: { kind: 'pdf_ocr', zip: null, file: estimate.documentId },
    document_id: estimate.documentId,
    // In the figures' order, only for figures read (the store holds one grade for each).
    confidence: Object.fromEntries(
      FIGURE_KEYS.flatMap((key) => {
        const grade = estimate.confidence[key];
        return estimate.current[key] === null || grade === undefined ? [] : [[key, grade]];
      }),
    ),
  };
}

/** The history with the estimates in it (mergeEstimates), newest read first among estimates of one date. */
function accountsWithEstimates(accounts: readonly AccountsEntry[], estimates: readonly PdfEstimate[]): AccountsView[] {
  const newestRead = [...estimates].sort((a, b) => b.readAt.localeCompare(a.readAt));
  return mergeEstimates(accounts.map(ixbrlEntry), newestRead.map(estimateEntry)).history;
}
