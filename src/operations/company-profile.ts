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
import type { CompanyWithAccounts } from '../domain/filings.ts';
import type { companyProfileOutput, lookupCompanyOutput } from './outputs.ts';

/** `latest` is the newest entry with at least one figure; null when none has any. */
export type CompanyProfile = z.infer<typeof companyProfileOutput>;

/** The profile with who controls the company (src/ownership/psc-view.ts companyControl): what lookups give. */
export type ControlledProfile = z.infer<typeof lookupCompanyOutput>;

/** The controllers and statements part of it. */
export type ProfileControl = Pick<ControlledProfile, 'controllers' | 'psc_statements'>;

/**
 * `accounts` lists every history entry; `latest`, the signals and the trajectory read only those
 * with figures, so a filing that tagged none at its balance sheet date is listed (with its quality
 * warning) but never shown as the latest accounts.
 */
export function companyProfile({ company, accounts }: CompanyWithAccounts, today: string): CompanyProfile {
  const filed = withFigures(accounts);
  const signals = companySignals(
    {
      status: company.status,
      accounts_next_due: company.accounts_next_due,
      accounts_last_made_up_to: company.accounts_last_made_up_to,
      charges_outstanding: company.charges_outstanding,
      accounts: filed,
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
    accounts,
    latest: filed[0] ?? null,
    signals,
    risk_band: riskBand(signals),
    trajectory: trajectory(filed),
  };
}
