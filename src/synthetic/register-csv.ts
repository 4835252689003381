/**
 * The register snapshot's CSV spelling: the header exactly as Companies House writes it (14 of
 * its 55 names carry a leading space, which loaders must tolerate), every value double-quoted,
 * dates as DD/MM/YYYY, absent values as "".
 */
import { slashDate } from './dates.ts';
import type { RegisterRecord } from './register-record.ts';

/** The real header line, without its line ending. */
export const REGISTER_CSV_HEADER =
  'CompanyName, CompanyNumber,RegAddress.CareOf,RegAddress.POBox,RegAddress.AddressLine1, RegAddress.AddressLine2,' +
  'RegAddress.PostTown,RegAddress.County,RegAddress.Country,RegAddress.PostCode,CompanyCategory,CompanyStatus,' +
  'CountryOfOrigin,DissolutionDate,IncorporationDate,Accounts.AccountRefDay,Accounts.AccountRefMonth,' +
  'Accounts.NextDueDate,Accounts.LastMadeUpDate,Accounts.AccountCategory,Returns.NextDueDate,' +
  'Returns.LastMadeUpDate,Mortgages.NumMortCharges,Mortgages.NumMortOutstanding,Mortgages.NumMortPartSatisfied,' +
  'Mortgages.NumMortSatisfied,SICCode.SicText_1,SICCode.SicText_2,SICCode.SicText_3,SICCode.SicText_4,' +
  'LimitedPartnerships.NumGenPartners,LimitedPartnerships.NumLimPartners,URI,' +
  'PreviousName_1.CONDATE, PreviousName_1.CompanyName, PreviousName_2.CONDATE, PreviousName_2.CompanyName,' +
  'PreviousName_3.CONDATE, PreviousName_3.CompanyName,PreviousName_4.CONDATE, PreviousName_4.CompanyName,' +
  'PreviousName_5.CONDATE, PreviousName_5.CompanyName,PreviousName_6.CONDATE, PreviousName_6.CompanyName,' +
  'PreviousName_7.CONDATE, PreviousName_7.CompanyName,PreviousName_8.CONDATE, PreviousName_8.CompanyName,' +
  'PreviousName_9.CONDATE, PreviousName_9.CompanyName,PreviousName_10.CONDATE, PreviousName_10.CompanyName,' +
  'ConfStmtNextDueDate, ConfStmtLastMadeUpDate';

/** The real files end their lines with CRLF. */
export const REGISTER_CSV_LINE_END = '\r\n';

function text(value: string | null): string {
  if (value === null) return '""';
  return value.includes('"') ? `"${value.replaceAll('"', '""')}"` : `"${value}"`;
}

function date(value: string | null): string {
  return value === null ? '""' : `"${slashDate(value)}"`;
}

function count(value: number): string {
  return `"${value}"`;
}

/** Ten previous-name pairs, CONDATE then CompanyName, blank where there are fewer names. */
function previousNames(names: RegisterRecord['previous_names']): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    const previous = names[i];
    out += previous === undefined ? ',"",""' : `,${date(previous.date)},${text(previous.name)}`;
  }
  return out;
}

/** One record as a CSV line of 55 quoted values, without its line ending. */
export function formatRegisterCsvLine(record: RegisterRecord): string {
  const a = record.registered_address;
  const sic = record.sic_codes;
  return (
    `${text(record.name)},${text(record.company_number)},${text(a.care_of)},${text(a.po_box)},` +
    `${text(a.address_line_1)},${text(a.address_line_2)},${text(a.post_town)},${text(a.county)},` +
    `${text(a.country)},${text(a.postcode)},${text(record.category)},${text(record.status)},` +
    `${text(record.country_of_origin)},${date(record.dissolution_date)},${date(record.incorporation_date)},` +
    `${count(record.accounts.ref_day)},${count(record.accounts.ref_month)},${date(record.accounts.next_due)},` +
    `${date(record.accounts.last_made_up)},${text(record.accounts.category)},` +
    `${date(record.returns.next_due)},${date(record.returns.last_made_up)},` +
    `${count(record.mortgages.charges)},${count(record.mortgages.outstanding)},` +
    `${count(record.mortgages.part_satisfied)},${count(record.mortgages.satisfied)},` +
    // A company that gave no activity shows "None Supplied" in the first SIC column.
    `${text(sic[0] ?? 'None Supplied')},${text(sic[1] ?? null)},${text(sic[2] ?? null)},${text(sic[3] ?? null)},` +
    `${count(record.limited_partnerships.general_partners)},${count(record.limited_partnerships.limited_partners)},` +
    `${text(record.uri)}${previousNames(record.previous_names)},` +
    `${date(record.conf_stmt.next_due)},${date(record.conf_stmt.last_made_up)}`
  );
}
