import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { parseRegisterRow, readRegisterHeader, ukDate } from '../../loaders/parse-register-row.ts';
import { registerSamplesDir } from '../support/samples.ts';

const [header, ...rows] = parse(readFileSync(join(registerSamplesDir, 'basic-sample.csv')), {
  relax_column_count: true,
}) as string[][];
const check = readRegisterHeader(header!);
if (!check.ok) throw new Error(check.reason);
const columns = check.columns;
const column = (name: string) => columns.get(name)!;

function withValue(row: readonly string[], name: string, value: string): string[] {
  const copy = [...row];
  copy[column(name)] = value;
  return copy;
}

describe('the register header', () => {
  test('the real header, leading spaces and all, is accepted', () => assert.equal(columns.get('CompanyNumber'), 1));
  test('a header without the register columns is refused, naming them', () => {
    const refused = readRegisterHeader(['name', 'number']);
    assert.equal(refused.ok, false);
    if (!refused.ok) assert.match(refused.reason, /no column "CompanyName", "CompanyNumber"/);
  });
});

describe('real sample rows', () => {
  test('all 31 parse', () => {
    assert.equal(rows.length, 31);
    for (const row of rows) assert.ok(parseRegisterRow(row, columns).ok, row[1]);
  });
  test('the three real rows with "None Supplied" have no SIC code', () => {
    const none = rows.filter((row) => row[column('SICCode.SicText_1')] === 'None Supplied');
    assert.equal(none.length, 3);
    for (const row of none) {
      const result = parseRegisterRow(row, columns);
      assert.ok(result.ok);
      assert.deepEqual(result.company.sic_codes, [], row[1]);
    }
  });
  test('the first row reads as the register says', () => {
    const result = parseRegisterRow(rows[0]!, columns);
    assert.ok(result.ok);
    assert.deepEqual(
      {
        number: result.company.company_number,
        name: result.company.name,
        incorporated: result.company.incorporated,
        next_due: result.company.accounts_next_due,
        sic: result.company.sic_codes,
        town: result.company.address.post_town,
        confirmation: result.company.confirmation_next_due,
      },
      {
        number: '12778855',
        name: '! LIMITED',
        incorporated: '2020-07-29',
        next_due: '2022-04-29',
        sic: ['78300 - Human resources provision and management of human resources functions'],
        town: 'SHEFFIELD',
        confirmation: '2021-08-11',
      },
    );
  });
});

describe('SIC codes', () => {
  const base = rows[0]!;
  const sic = (values: string[]) => {
    let row = [...base];
    values.forEach((value, i) => (row = withValue(row, `SICCode.SicText_${i + 1}`, value)));
    const result = parseRegisterRow(row, columns);
    assert.ok(result.ok);
    return result.company.sic_codes;
  };
  const cases: { name: string; input: string[]; want: string[] }[] = [
    { name: '"None Supplied" is no code', input: ['None Supplied', '', '', ''], want: [] },
    { name: 'in any case', input: ['NONE SUPPLIED', '', '', ''], want: [] },
    {
      name: 'codes kept in order',
      input: ['62020 - IT', '', '70100 - Head offices', ''],
      want: ['62020 - IT', '70100 - Head offices'],
    },
    {
      name: 'a code beside it kept',
      input: ['None Supplied', '99999 - Dormant Company', '', ''],
      want: ['99999 - Dormant Company'],
    },
  ];
  for (const { name, input, want } of cases) test(name, () => assert.deepEqual(sic(input), want));
});

describe('rows that are rejected, with the field named', () => {
  const base = rows[0]!;
  const cases = [
    {
      name: 'no company number',
      row: withValue(base, 'CompanyNumber', ''),
      reason: /CompanyNumber "" is not a company number/,
    },
    { name: 'a bad company number', row: withValue(base, 'CompanyNumber', '12-34'), reason: /CompanyNumber "12-34"/ },
    { name: 'no name', row: withValue(base, 'CompanyName', ' '), reason: /has no CompanyName/ },
    { name: 'no status', row: withValue(base, 'CompanyStatus', ''), reason: /has no CompanyStatus/ },
    {
      name: 'an impossible date',
      row: withValue(base, 'IncorporationDate', '31/02/2020'),
      reason: /IncorporationDate "31\/02\/2020"/,
    },
    { name: 'an ISO date', row: withValue(base, 'Accounts.NextDueDate', '2022-04-29'), reason: /Accounts.NextDueDate/ },
    {
      name: 'a bad charge count',
      row: withValue(base, 'Mortgages.NumMortCharges', 'two'),
      reason: /NumMortCharges "two"/,
    },
    {
      name: 'a bad reference month',
      row: withValue(base, 'Accounts.AccountRefMonth', '13'),
      reason: /AccountRefMonth "13"/,
    },
    { name: 'a short row', row: base.slice(0, 5), reason: /has no CompanyStatus/ },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const result = parseRegisterRow(c.row, columns);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.reason, c.reason);
    });
  }
  test('short company numbers are padded', () => {
    const result = parseRegisterRow(withValue(base, 'CompanyNumber', '123'), columns);
    assert.ok(result.ok && result.company.company_number === '00000123');
  });
});

describe('ukDate', () => {
  const cases = [
    { input: '29/07/2020', want: '2020-07-29' },
    { input: '1/2/2003', want: '2003-02-01' },
    { input: '29/02/2021', want: null },
    { input: '29/02/2024', want: '2024-02-29' },
    { input: '29/02/2000', want: '2000-02-29' },
    { input: '29/02/1900', want: null },
    { input: '31/04/2020', want: null },
    { input: '31/12/2020', want: '2020-12-31' },
    { input: '00/01/2020', want: null },
    { input: '01/00/2020', want: null },
    { input: '01/13/2020', want: null },
    // Postgres has no year 0; years 1 to 99 were refused before (a Date reads them as 19xx) and still are.
    { input: '01/01/0000', want: null },
    { input: '01/01/0099', want: null },
    { input: '01/01/0999', want: '0999-01-01' },
    { input: '2020-07-29', want: null },
    { input: ' 29/07/2020', want: null },
  ];
  for (const c of cases) test(c.input, () => assert.equal(ukDate(c.input), c.want));
});
