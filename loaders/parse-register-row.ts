/**
 * One row of the Companies House BasicCompanyData CSV -> a RegisterCompany, or a reason it is
 * rejected. Pure: the loader streams, this decides.
 *
 * The real header has stray spaces (" CompanyNumber"), so columns are found by trimmed name.
 * Dates are DD/MM/YYYY; empty strings mean absent.
 */
import { normaliseCompanyNumber } from '../src/domain/company-number.ts';
import type { RegisterCompany } from '../src/domain/company.ts';

/** Columns without which a file is not a register snapshot. */
const REQUIRED = [
  'CompanyName',
  'CompanyNumber',
  'CompanyCategory',
  'CompanyStatus',
  'IncorporationDate',
  'Accounts.NextDueDate',
  'Accounts.LastMadeUpDate',
  'Mortgages.NumMortCharges',
  'SICCode.SicText_1',
  'RegAddress.PostTown',
] as const;

/** What the register writes in the first SIC column of a company that gave no activity: no code. */
const NO_SIC = /^none supplied$/i;

export type ColumnIndex = Map<string, number>;

export type HeaderCheck = { ok: true; columns: ColumnIndex } | { ok: false; reason: string };

/** Index the header, or say why this is not a register CSV. */
export function readRegisterHeader(header: readonly string[]): HeaderCheck {
  const columns: ColumnIndex = new Map(header.map((name, i) => [name.replace(/^\uFEFF/, '').trim(), i]));
  const missing = REQUIRED.filter((name) => !columns.has(name));
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `not a Companies House register CSV: no column ${missing.map((m) => `"${m}"`).join(', ')}`,
    };
  }
  return { ok: true, columns };
}

export type RowResult = { ok: true; company: RegisterCompany } | { ok: false; reason: string };

export function parseRegisterRow(row: readonly string[], columns: ColumnIndex): RowResult {
  const field = rowFields(row, columns);
  const { text, date, count, small } = field;
  const rawNumber = text('CompanyNumber');
  const companyNumber = rawNumber === null ? null : normaliseCompanyNumber(rawNumber);
  if (companyNumber === null)
    return { ok: false, reason: `CompanyNumber "${rawNumber ?? ''}" is not a company number` };
  const name = text('CompanyName');
  if (name === null) return { ok: false, reason: `company ${companyNumber} has no CompanyName` };
  const status = text('CompanyStatus');
  if (status === null) return { ok: false, reason: `company ${companyNumber} has no CompanyStatus` };

  // Read first, as the problems are listed in this order.
  const previousNames = previousNamesOf(field);
  const sicCodes = [1, 2, 3, 4]
    .map((i) => text(`SICCode.SicText_${i}`))
    .filter((sic): sic is string => sic !== null && !NO_SIC.test(sic));

  const company: RegisterCompany = {
    company_number: companyNumber,
    name,
    status,
    type: text('CompanyCategory') ?? 'Other',
    incorporated: date('IncorporationDate'),
    dissolved: date('DissolutionDate'),
    country_of_origin: text('CountryOfOrigin'),
    accounts_ref_day: small('Accounts.AccountRefDay', 31),
    accounts_ref_month: small('Accounts.AccountRefMonth', 12),
    accounts_category: text('Accounts.AccountCategory'),
    accounts_last_made_up_to: date('Accounts.LastMadeUpDate'),
    accounts_next_due: date('Accounts.NextDueDate'),
    confirmation_last_made_up_to: date('ConfStmtLastMadeUpDate'),
    confirmation_next_due: date('ConfStmtNextDueDate'),
    charges_total: count('Mortgages.NumMortCharges'),
    charges_outstanding: count('Mortgages.NumMortOutstanding'),
    charges_part_satisfied: count('Mortgages.NumMortPartSatisfied'),
    charges_satisfied: count('Mortgages.NumMortSatisfied'),
    sic_codes: sicCodes,
    address: addressOf(field),
    previous_names: previousNames,
  };
  if (field.problems.length > 0) return { ok: false, reason: `company ${companyNumber}: ${field.problems.join('; ')}` };
  return { ok: true, company };
}

/**
 * The row's fields by column name, read as text (trimmed; null when empty), a DD/MM/YYYY date, a
 * whole number or a small number in 1..max. A value that is not what its column holds is noted
 * in `problems` (the row is then rejected with them all).
 */
function rowFields(row: readonly string[], columns: ColumnIndex) {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const at = columns.get(name);
    const value = at === undefined ? undefined : row[at];
    const trimmed = value?.trim() ?? '';
    return trimmed === '' ? null : trimmed;
  };
  const date = (name: string): string | null => {
    const value = text(name);
    if (value === null) return null;
    const iso = ukDate(value);
    if (iso === null) problems.push(`${name} "${value}" is not a DD/MM/YYYY date`);
    return iso;
  };
  const count = (name: string): number => {
    const value = text(name);
    if (value === null) return 0;
    if (!/^\d+$/.test(value)) {
      problems.push(`${name} "${value}" is not a whole number`);
      return 0;
    }
    return Number(value);
  };
  const small = (name: string, max: number): number | null => {
    const value = text(name);
    if (value === null) return null;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) {
      problems.push(`${name} "${value}" is not between 1 and ${max}`);
      return null;
    }
    return n;
  };
  return { problems, text, date, count, small };
}

type RowFields = ReturnType<typeof rowFields>;

function addressOf({ text }: RowFields): RegisterCompany['address'] {
  return {
    care_of: text('RegAddress.CareOf'),
    po_box: text('RegAddress.POBox'),
    line_1: text('RegAddress.AddressLine1'),
    line_2: text('RegAddress.AddressLine2'),
    post_town: text('RegAddress.PostTown'),
    county: text('RegAddress.County'),
    country: text('RegAddress.Country'),
    postcode: text('RegAddress.PostCode'),
  };
}

function previousNamesOf({ text, date }: RowFields): RegisterCompany['previous_names'] {
  const previousNames = [];
  for (let i = 1; i <= 10; i++) {
    const previous = text(`PreviousName_${i}.CompanyName`);
    if (previous !== null) previousNames.push({ name: previous, changed: date(`PreviousName_${i}.CONDATE`) });
  }
  return previousNames;
}

const UK_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * "29/07/2020" -> "2020-07-29"; null when not a real date. Checked by arithmetic rather than
 * through a Date: the register has up to sixteen dates a row, and building Dates was a tenth of
 * the whole load's time.
 */
export function ukDate(text: string): string | null {
  const m = UK_DATE.exec(text);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 100 || month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return null;
  return `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}
