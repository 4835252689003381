/**
 * The Companies House register snapshot (BasicCompanyData) of the synthetic companies: what the
 * register says about company `index` on a given date, consistent with the company's accounts
 * (same number, name and incorporation date as `syntheticCompany`; last accounts made up to the
 * newest balance sheet date `syntheticFilings` has published by then).
 *
 * A row is a pure function of (seed, index, date), and the same company read on a later date has
 * moved on: accounts and statements filed, charges registered and satisfied, statuses changed,
 * names changed, offices moved, and some companies dissolved, gone from the snapshot.
 */
import { registeredAddress } from './addresses.ts';
import { syntheticCompany } from './companies.ts';
import type { SyntheticCompany } from './companies.ts';
import { isCalendarDate } from '../domain/calendar-date.ts';
import { dayNumber, fastDayNumber } from './dates.ts';
import { labelSeed, Random } from './random.ts';
import { accountsOnRegister } from './register-accounts.ts';
import { chargesOnRegister } from './register-charges.ts';
import { statusOnDay } from './register-life.ts';
import { namesOnRegister } from './register-names.ts';
import type { CompanyCategory, RegisterRecord } from './register-record.ts';
import { statementsOnRegister } from './register-statements.ts';
import { sicCodes } from './sic-codes.ts';

export { formatRegisterCsvLine, REGISTER_CSV_HEADER, REGISTER_CSV_LINE_END } from './register-csv.ts';
export { LIFE_START, LIVE_STATUSES, companyLife } from './register-life.ts';
export { NAME_REFERENCE_DATE } from './register-names.ts';
export type { CompanyStatus, RegisterRecord } from './register-record.ts';

export interface RegisterSnapshotOptions {
  seed: number;
  /** Company indices 0 to `companies` - 1 are considered; those not live on the date are skipped. */
  companies: number;
  /** ISO date of the snapshot. */
  snapshotDate: string;
}

const CATEGORY = labelSeed('register-category');
const URI_PREFIX = 'http://business.data.gov.uk/id/company/';

/**
 * The company's category: its legal form, and for a few small private companies a guarantee
 * company (residents' management companies, clubs, charities) or a community interest company.
 */
function categoryOf(seed: number, company: SyntheticCompany): CompanyCategory {
  if (company.legalForm === 'llp') return 'Limited Liability Partnership';
  if (company.legalForm === 'plc') return 'Public Limited Company';
  if (company.group || company.size === 'medium' || company.size === 'large') return 'Private Limited Company';
  const roll = Random.derive(seed, company.index, CATEGORY).next();
  const [guarantee, cic] =
    company.sector === 'property' ? [0.1, 0] : company.sector === 'services' ? [0.025, 0.012] : [0.005, 0.003];
  if (roll < guarantee) return 'PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)';
  if (roll < guarantee + cic) return 'Community Interest Company';
  return 'Private Limited Company';
}

function snapshotDay(snapshotDate: string): number {
  if (!isCalendarDate(snapshotDate)) {
    throw new Error(`snapshotDate must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(snapshotDate)}`);
  }
  return dayNumber(snapshotDate);
}

/** The register entry of `company` on `day`, or null when it is not on the register then. */
function recordOf(seed: number, company: SyntheticCompany, day: number): RegisterRecord | null {
  if (day < fastDayNumber(company.incorporated)) return null;
  const standing = statusOnDay(seed, company, day);
  if (standing.status === null) return null;
  const category = categoryOf(seed, company);
  const names = namesOnRegister(seed, company, day);
  const statements = statementsOnRegister(seed, company, day);
  const notForProfit = category.startsWith('PRI/') || category === 'Community Interest Company';
  return {
    name: names.name,
    company_number: company.company_number,
    registered_address: registeredAddress(seed, company, day),
    category,
    status: standing.status,
    country_of_origin: 'United Kingdom',
    dissolution_date: null,
    incorporation_date: company.incorporated,
    accounts: accountsOnRegister(seed, company, day),
    returns: statements.returns,
    mortgages: chargesOnRegister(seed, company, day),
    sic_codes: sicCodes(seed, company, notForProfit),
    limited_partnerships: { general_partners: 0, limited_partners: 0 },
    uri: URI_PREFIX + company.company_number,
    previous_names: names.previous,
    conf_stmt: statements.conf_stmt,
  };
}

/**
 * The register state of synthetic company `index` on `snapshotDate` (ISO), or null when the
 * company is not on that snapshot: not incorporated yet, or dissolved on or before the date.
 */
export function registerRow(seed: number, index: number, snapshotDate: string): RegisterRecord | null {
  return recordOf(seed, syntheticCompany(seed, index), snapshotDay(snapshotDate));
}

/** The live companies among indices 0 to `companies` - 1 on `snapshotDate`, in index order. */
export function* registerSnapshot(options: RegisterSnapshotOptions): Generator<RegisterRecord> {
  const { seed, companies } = options;
  if (!Number.isInteger(companies) || companies < 0) {
    throw new Error(`companies must be a whole number, got ${companies}`);
  }
  yield* registerRange({ seed, from: 0, to: companies, snapshotDate: options.snapshotDate });
}

/** Companies `from` to `to` - 1 of the register of `seed` on `snapshotDate`. */
export interface RegisterRange {
  seed: number;
  from: number;
  to: number;
  snapshotDate: string;
}

/**
 * The live companies among indices `from` to `to` - 1 on `snapshotDate`, in index order: one
 * slice of a snapshot, as a part file holds.
 */
export function* registerRange({ seed, from, to, snapshotDate }: RegisterRange): Generator<RegisterRecord> {
  const day = snapshotDay(snapshotDate);
  for (let index = from; index < to; index++) {
    const record = recordOf(seed, syntheticCompany(seed, index), day);
    if (record !== null) yield record;
  }
}
