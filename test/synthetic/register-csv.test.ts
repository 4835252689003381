/**
 * The register CSV spelling: the real header to the byte, 55 quoted values a line, DD/MM/YYYY
 * dates, empty strings for absent values, quotes doubled, and lines a CSV parser reads back into
 * the record they came from.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { formatRegisterCsvLine, REGISTER_CSV_HEADER, registerSnapshot } from '../../src/synthetic/register.ts';
import type { RegisterRecord } from '../../src/synthetic/register.ts';
import { registerSamplesDir } from '../support/samples.ts';

const SAMPLE = readFileSync(join(registerSamplesDir, 'basic-sample.csv'), 'utf8');
const HEADER_NAMES = REGISTER_CSV_HEADER.split(',').map((name) => name.trim());
const RECORDS = [...registerSnapshot({ seed: 5, companies: 3000, snapshotDate: '2024-06-01' })];

/** A parsed line as a map from trimmed header name to value. */
function fields(line: string): Record<string, string> {
  const [values] = parse(line) as string[][];
  assert.equal(values!.length, 55);
  return Object.fromEntries(HEADER_NAMES.map((name, i) => [name, values![i]!]));
}

function slash(iso: string | null): string {
  return iso === null ? '' : `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

describe('REGISTER_CSV_HEADER', () => {
  test('is the real header line, leading spaces and all', () => {
    assert.equal(REGISTER_CSV_HEADER, SAMPLE.split(/\r?\n/)[0]);
    assert.equal(HEADER_NAMES.length, 55);
    assert.equal(REGISTER_CSV_HEADER.split(',').filter((name) => name.startsWith(' ')).length, 14);
  });

  test('the real sample parses to 55 columns a row, as ours must', () => {
    const rows = parse(SAMPLE) as string[][];
    assert.ok(rows.length > 30);
    for (const row of rows) assert.equal(row.length, 55);
  });
});

describe('formatRegisterCsvLine', () => {
  test('every value is double-quoted and the line has no line ending', () => {
    for (const record of RECORDS.slice(0, 300)) {
      const line = formatRegisterCsvLine(record);
      assert.ok(line.startsWith('"') && line.endsWith('"'));
      assert.doesNotMatch(line, /[\r\n]/);
      // Outside the values there is nothing but commas between quotes.
      assert.equal(line.replace(/"(?:[^"]|"")*"/g, '').replace(/,/g, ''), '');
    }
  });

  test('reads back into the record it came from', () => {
    for (const r of RECORDS) {
      const f = fields(formatRegisterCsvLine(r));
      const a = r.registered_address;
      const want: Record<string, string> = {
        CompanyName: r.name,
        CompanyNumber: r.company_number,
        'RegAddress.CareOf': a.care_of ?? '',
        'RegAddress.POBox': a.po_box ?? '',
        'RegAddress.AddressLine1': a.address_line_1 ?? '',
        'RegAddress.AddressLine2': a.address_line_2 ?? '',
        'RegAddress.PostTown': a.post_town ?? '',
        'RegAddress.County': a.county ?? '',
        'RegAddress.Country': a.country ?? '',
        'RegAddress.PostCode': a.postcode ?? '',
        CompanyCategory: r.category,
        CompanyStatus: r.status,
        CountryOfOrigin: 'United Kingdom',
        DissolutionDate: '',
        IncorporationDate: slash(r.incorporation_date),
        'Accounts.AccountRefDay': String(r.accounts.ref_day),
        'Accounts.AccountRefMonth': String(r.accounts.ref_month),
        'Accounts.NextDueDate': slash(r.accounts.next_due),
        'Accounts.LastMadeUpDate': slash(r.accounts.last_made_up),
        'Accounts.AccountCategory': r.accounts.category,
        'Returns.NextDueDate': slash(r.returns.next_due),
        'Returns.LastMadeUpDate': slash(r.returns.last_made_up),
        'Mortgages.NumMortCharges': String(r.mortgages.charges),
        'Mortgages.NumMortOutstanding': String(r.mortgages.outstanding),
        'Mortgages.NumMortPartSatisfied': String(r.mortgages.part_satisfied),
        'Mortgages.NumMortSatisfied': String(r.mortgages.satisfied),
        'SICCode.SicText_1': r.sic_codes[0] ?? '',
        'SICCode.SicText_2': r.sic_codes[1] ?? '',
        'SICCode.SicText_3': r.sic_codes[2] ?? '',
        'SICCode.SicText_4': r.sic_codes[3] ?? '',
        'LimitedPartnerships.NumGenPartners': '0',
        'LimitedPartnerships.NumLimPartners': '0',
        URI: r.uri,
        ConfStmtNextDueDate: slash(r.conf_stmt.next_due),
        ConfStmtLastMadeUpDate: slash(r.conf_stmt.last_made_up),
      };
      for (let i = 0; i < 10; i++) {
        want[`PreviousName_${i + 1}.CONDATE`] = slash(r.previous_names[i]?.date ?? null);
        want[`PreviousName_${i + 1}.CompanyName`] = r.previous_names[i]?.name ?? '';
      }
      assert.deepEqual(f, want);
    }
  });

  const base = RECORDS[0]!;
  const cases: { name: string; record: RegisterRecord; column: string; raw: string }[] = [
    {
      name: 'quotes inside a name are doubled',
      record: { ...base, name: '"A" CERAMICS LIMITED' },
      column: 'CompanyName',
      raw: '"""A"" CERAMICS LIMITED"',
    },
    {
      name: 'a comma stays inside its quotes',
      record: { ...base, name: 'SMITH, JONES LTD' },
      column: 'CompanyName',
      raw: '"SMITH, JONES LTD"',
    },
    {
      name: 'dates are DD/MM/YYYY',
      record: { ...base, incorporation_date: '2019-02-07' },
      column: 'IncorporationDate',
      raw: '"07/02/2019"',
    },
    {
      name: 'an absent date is an empty string',
      record: { ...base, accounts: { ...base.accounts, last_made_up: null } },
      column: 'Accounts.LastMadeUpDate',
      raw: '""',
    },
    {
      name: 'no activity reads "None Supplied", as on the register',
      record: { ...base, sic_codes: [] },
      column: 'SICCode.SicText_1',
      raw: '"None Supplied"',
    },
    {
      name: 'previous names fill their slots in order',
      record: { ...base, previous_names: [{ date: '2020-03-04', name: 'OLD NAME LTD' }] },
      column: 'PreviousName_1.CompanyName',
      raw: '"OLD NAME LTD"',
    },
  ];
  for (const { name, record, column, raw } of cases) {
    test(name, () => {
      const line = formatRegisterCsvLine(record);
      assert.ok(line.includes(raw), line);
      assert.equal(fields(line)[column], (parse(raw) as string[][])[0]![0]);
    });
  }
});
