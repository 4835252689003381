import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nameWords, normaliseCompanyName } from '../../src/domain/company-name.ts';

describe('normaliseCompanyName', () => {
  const cases = [
    { input: 'TESCO PLC', want: 'TESCO' },
    { input: 'Tesco Stores Limited', want: 'TESCO STORES' },
    { input: 'tesco', want: 'TESCO' },
    { input: 'MARKS & SPENCER GROUP P.L.C.', want: 'MARKS AND SPENCER GROUP' },
    { input: 'Marks and Spencer Group plc', want: 'MARKS AND SPENCER GROUP' },
    { input: 'SMITH & CO LIMITED', want: 'SMITH' },
    { input: 'SMITH AND COMPANY LTD', want: 'SMITH' },
    { input: 'ACME LLP', want: 'ACME' },
    { input: 'ACME LIMITED LIABILITY PARTNERSHIP', want: 'ACME' },
    { input: 'GREEN FUTURES C.I.C.', want: 'GREEN FUTURES' },
    { input: 'GREEN FUTURES COMMUNITY INTEREST COMPANY', want: 'GREEN FUTURES' },
    { input: 'CWMNI CYMRAEG CYF', want: 'CWMNI CYMRAEG' },
    { input: 'CWMNI CYMRAEG CYFYNGEDIG', want: 'CWMNI CYMRAEG' },
    { input: 'BANC CYMRU CCC', want: 'BANC CYMRU' },
    { input: 'HOLDINGS LIMITED LIMITED', want: 'HOLDINGS' },
    { input: "O'BRIEN'S BAKERY LTD", want: 'OBRIENS BAKERY' },
    { input: 'CAFÉ NÉRO LIMITED', want: 'CAFE NERO' },
    { input: 'Zürich Ölwerke GmbH', want: 'ZURICH OLWERKE GMBH' },
    { input: 'A-B (UK) LTD.', want: 'A B UK' },
    { input: '! LIMITED', want: 'LIMITED' },
    { input: 'LIMITED', want: 'LIMITED' },
    { input: 'THE LIMITED EDITION COMPANY LIMITED', want: 'THE LIMITED EDITION COMPANY' },
    { input: '  lots   of   space  ', want: 'LOTS OF SPACE' },
    { input: '', want: '' },
  ];
  for (const c of cases)
    test(`${JSON.stringify(c.input)} -> ${JSON.stringify(c.want)}`, () =>
      assert.equal(normaliseCompanyName(c.input), c.want));
});

describe('nameWords', () => {
  test('splits on punctuation and folds case and accents', () =>
    assert.deepEqual(nameWords('Tesc-Stö & co'), ['TESC', 'STO', 'AND', 'CO']));
});
