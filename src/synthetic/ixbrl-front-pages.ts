/**
 * The pages before the accounts proper: title page, company information, the accountants' report
 * and the directors' report. Mostly prose, with the name, number, dates and officers tagged.
 */
import { accountantsReport, activity, countryOfIncorporation, DIRECTORS_RESPONSIBILITIES } from './accounts-text.ts';
import { addDays, longDate } from './dates.ts';
import { escapeXml } from './markup.ts';
import type { FilingSheet } from './ixbrl-sheet.ts';

/** The cover: registered number, name, report title and period. */
export function titlePage(s: FilingSheet): string {
  const L = s.layout;
  const kind = s.micro
    ? s.rng.pick(['Micro-entity Accounts', 'Unaudited Financial Statements', 'Filleted Accounts'])
    : s.dormant
      ? 'Dormant Company Accounts'
      : s.rng.pick([
          'Unaudited Financial Statements',
          'Abridged Accounts',
          'Financial Statements',
          'Annual Report and Unaudited Financial Statements',
        ]);
  return (
    s.pageOpen() +
    L.heading(`Registered number: ${s.numberFact()}`, 3) +
    L.heading(s.nameFact(), 1) +
    L.heading(s.f.text(s.b('ReportTitle'), s.curD, kind), 1) +
    L.heading(s.periodText(), 2) +
    s.pageClose()
  );
}

/** Directors, registered office, number and country of incorporation. */
export function informationPage(s: FilingSheet): string {
  const L = s.layout;
  let out = s.pageOpen() + L.heading('Company Information', 1);
  out += L.heading(s.input.company.legalForm === 'llp' ? 'Designated members' : 'Directors', 3);
  s.people.forEach((person, i) => {
    const dims = [{ dimension: s.b('EntityOfficersDimension'), member: s.b(`Director${i + 1}`) }];
    out += L.para(`${person.title} ${s.f.text(s.b('NameEntityOfficer'), s.curD, person.name, { dimensions: dims })}`);
  });
  out += L.heading('Registered office', 3);
  const lines = ['AddressLine1', 'PrincipalLocation-CityOrTown', 'PostalCodeZip'];
  const addressDims = [{ dimension: s.b('EntityContactTypeDimension'), member: s.b('RegisteredOffice') }];
  s.office.forEach((line, i) => {
    out += L.para(s.f.text(s.b(lines[i]!), s.curD, escapeXml(line), { dimensions: addressDims }));
  });
  out += L.heading('Registered number', 3) + L.para(s.registeredNumber());
  out += L.heading('Country of incorporation', 3) + L.para(countryOfIncorporation(s.input.company));
  return out + s.pageClose();
}

/** The chartered accountants' report on unaudited financial statements. */
export function accountantsPage(s: FilingSheet): string {
  const L = s.layout;
  const firm = `${s.rng.pick(['Harland', 'Mercer', 'Ashby', 'Lomax', 'Pryce', 'Kerr'])} ${s.rng.pick(['& Co', 'Associates', 'Accountants Limited', 'LLP'])}`;
  const periodText = `year ended ${longDate(s.input.balanceSheetDate)}`;
  let out =
    s.pageOpen() +
    L.heading(
      `Chartered Accountants' Report to the ${s.input.company.legalForm === 'llp' ? 'Members' : 'Board of Directors'} on the Preparation of the Unaudited Statutory Financial Statements of ${escapeXml(s.input.company.name)}`,
      2,
    );
  for (const paragraph of accountantsReport(s.input.company, firm, periodText)) out += L.para(paragraph);
  const approved = addDays(s.input.balanceSheetDate, s.rng.int(40, 240));
  out += L.para(`Date: ${longDate(approved)}`);
  return out + s.pageClose();
}

/** A small company's directors' report. */
export function directorsReportPage(s: FilingSheet): string {
  const L = s.layout;
  let out = s.pageOpen() + L.heading(`${s.frs ? "Directors' Report" : 'Report of the Directors'}`, 1);
  out += L.para(
    `The ${s.directorsWord()} present their report and the financial statements for the year ended ${longDate(s.input.balanceSheetDate)}.`,
  );
  out += L.heading('Principal activity', 3);
  out += L.para(
    s.f.text(
      s.b('DescriptionPrincipalActivities'),
      s.curD,
      `The principal activity of the company during the year was ${activity(s.input.company)}.`,
    ),
  );
  out += L.heading(s.directorsWord() === 'members' ? 'Members' : 'Directors', 3);
  out += L.para(
    `The ${s.directorsWord()} who served during the year were: ${s.people.map((p) => `${p.title} ${p.name}`).join(', ')}.`,
  );
  out += L.heading("Directors' responsibilities", 3) + L.para(DIRECTORS_RESPONSIBILITIES);
  out += L.para(
    'This report has been prepared in accordance with the provisions applicable to companies entitled to the small companies exemption.',
  );
  return out + s.pageClose();
}
