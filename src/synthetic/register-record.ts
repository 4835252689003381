/**
 * One row of the Companies House register snapshot (BasicCompanyData) as typed values: every one
 * of the CSV's 55 columns has a home here, grouped as the CSV's dotted headers group them
 * (`Accounts.*`, `Returns.*`, `Mortgages.*`, `RegAddress.*`). Dates are ISO `YYYY-MM-DD`; null
 * stands for the CSV's empty string.
 */
import type { RegisteredAddress } from './addresses.ts';
import type { AccountsOnRegister } from './register-accounts.ts';
import type { ChargeCounts } from './register-charges.ts';
import type { CompanyStatus } from './register-life.ts';
import type { PreviousName } from './register-names.ts';
import type { StatementsOnRegister } from './register-statements.ts';

export type { RegisteredAddress } from './addresses.ts';
export type { CompanyStatus } from './register-life.ts';
/** Categories the synthetic register uses, spelt as the register spells them. */
export type CompanyCategory =
  | 'Private Limited Company'
  | 'Public Limited Company'
  | 'Limited Liability Partnership'
  | 'PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)'
  | 'Community Interest Company';

export interface RegisterRecord {
  name: string;
  company_number: string;
  registered_address: RegisteredAddress;
  category: CompanyCategory;
  status: CompanyStatus;
  country_of_origin: string;
  /** Always null in a snapshot, which lists live companies only. */
  dissolution_date: string | null;
  incorporation_date: string;
  accounts: AccountsOnRegister;
  returns: StatementsOnRegister['returns'];
  mortgages: ChargeCounts;
  /** One to four, "62020 - Information technology consultancy activities". */
  sic_codes: string[];
  /** Only limited partnerships have partners; companies and LLPs show 0 and 0. */
  limited_partnerships: { general_partners: number; limited_partners: number };
  uri: string;
  /** Newest first, at most ten. */
  previous_names: PreviousName[];
  conf_stmt: StatementsOnRegister['conf_stmt'];
}
