import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyScale, formatKey, readDate, readNumber } from '../../src/accounts/ixbrl-transforms.ts';
import { readInlineValue } from '../../src/accounts/read-facts.ts';

describe('formatKey', () => {
  const cases = [
    { input: 'ixt:numdotdecimal', want: 'numdotdecimal' },
    { input: 'ixt4:num-dot-decimal', want: 'numdotdecimal' },
    { input: 'ixt5:fixed-zero', want: 'fixedzero' },
    { input: 'numcommadot', want: 'numcommadot' },
    { input: null, want: '' },
  ];
  for (const c of cases) test(`${c.input} -> ${c.want}`, () => assert.equal(formatKey(c.input), c.want));
});

describe('readNumber: every numeric format of registries 1 to 5', () => {
  const cases: { format: string | null; text: string; want: string | null; negative?: boolean }[] = [
    // registry 1 (2008, 2010)
    { format: 'ixt:numcommadot', text: '1,234,567.89', want: '1234567.89' },
    { format: 'ixt:numspacedot', text: '1 234 567.5', want: '1234567.5' },
    { format: 'ixt:numdotcomma', text: '1.234.567,89', want: '1234567.89' },
    { format: 'ixt:numspacecomma', text: '1 234,5', want: '1234.5' },
    { format: 'ixt:numcomma', text: '12,5', want: '12.5' },
    { format: 'ixt:numdash', text: '-', want: '0' },
    { format: 'ixt:numdash', text: '–', want: '0' },
    // registry 2 (2011) and 3 (2015)
    { format: 'ixt2:numdotdecimal', text: '12,345', want: '12345' },
    { format: 'ixt2:numdotdecimal', text: '0.03', want: '0.03' },
    { format: 'ixt2:numcommadecimal', text: '12.345,67', want: '12345.67' },
    { format: 'ixt2:numcommadecimal', text: "12'345,67", want: '12345.67' },
    { format: 'ixt2:zerodash', text: '—', want: '0' },
    { format: 'ixt2:zerodash', text: ' ', want: '0' },
    { format: 'ixt2:numunitdecimal', text: '5 pounds 20 pence', want: '5.2' },
    { format: 'ixt2:numunitdecimal', text: '1,234 pounds 5 pence', want: '1234.05' },
    { format: 'ixt2:numunitdecimal', text: '12 pounds', want: '12' },
    { format: 'ixt3:numdotdecimalin', text: '1,23,45,678.90', want: '12345678.9' },
    { format: 'ixt3:numwordsen', text: 'one hundred and twenty-three', want: '123' },
    { format: 'ixt3:numwordsen', text: 'no', want: '0' },
    { format: 'ixt3:numwordsen', text: 'nil', want: '0' },
    { format: 'ixt3:numwordsen', text: 'two thousand five hundred', want: '2500' },
    { format: 'ixt3:numwordsen', text: 'twelve million', want: '12000000' },
    // registry 4 (2020) and 5 (2022), hyphenated names
    { format: 'ixt4:num-dot-decimal', text: '9,876.5', want: '9876.5' },
    { format: 'ixt4:num-comma-decimal', text: '9.876,5', want: '9876.5' },
    { format: 'ixt4:fixed-zero', text: 'nil', want: null },
    { format: 'ixt4:fixed-zero', text: '-', want: '0' },
    { format: 'ixt4:num-unit-decimal', text: '3 euro 7 cent', want: '3.07' },
    { format: 'ixt5:num-dot-decimal-apos', text: "1'234.5", want: '1234.5' },
    { format: 'ixt5:num-comma-decimal-apos', text: "1'234,5", want: '1234.5' },
    // presentation inside the tag
    { format: 'ixt2:numdotdecimal', text: '(3,810)', want: '3810', negative: true },
    { format: 'ixt2:numdotdecimal', text: '-3,810', want: '3810', negative: true },
    { format: 'ixt2:numdotdecimal', text: '3,810-', want: '3810', negative: true },
    { format: 'ixt2:numdotdecimal', text: ' 1\u00a0234 ', want: '1234' },
    { format: 'ixt2:numdotdecimal', text: '£1,234', want: '1234' },
    { format: 'ixt2:numdotdecimal', text: '.5', want: '0.5' },
    { format: 'ixt2:numdotdecimal', text: '007', want: '7' },
    // digits, commas and a point only: read without regular expressions, to the same result
    { format: 'ixt2:numdotdecimal', text: '0', want: '0' },
    { format: 'ixt2:numdotdecimal', text: '00.50', want: '0.5' },
    { format: 'ixt2:numdotdecimal', text: '1,234.', want: '1234' },
    { format: 'ixt2:numdotdecimal', text: '1.,5', want: '1.5' },
    { format: 'ixt2:numdotdecimal', text: ',', want: null },
    { format: null, text: ',.5', want: '0.5' },
    // no format: the XML lexical form, tolerating thousands separators
    { format: null, text: '1234', want: '1234' },
    { format: null, text: '1,234.00', want: '1234' },
    // not numbers
    { format: 'ixt2:numdotdecimal', text: 'n/a', want: null },
    { format: 'ixt2:numdotdecimal', text: '1.2.3', want: null },
    { format: 'ixt2:numdotdecimal', text: '', want: null },
    { format: 'ixt2:datelonguk', text: '12', want: null },
    { format: 'ixt3:numwordsen', text: 'lots', want: null },
  ];
  for (const c of cases) {
    test(`${c.format ?? 'no format'} "${c.text}" -> ${c.want ?? 'error'}`, () => {
      const got = readNumber(c.format, c.text);
      if (c.want === null) return assert.equal(got.ok, false);
      assert.ok(got.ok, got.ok ? '' : got.reason);
      assert.equal(got.value.digits, c.want);
      assert.equal(got.value.negativeInText, c.negative ?? false);
    });
  }
});

describe('applyScale is exact for positive and negative scales', () => {
  const cases = [
    { digits: '3', scale: -2, want: 0.03 },
    { digits: '1234', scale: 3, want: 1234000 },
    { digits: '1.5', scale: 6, want: 1500000 },
    { digits: '12.345', scale: 3, want: 12345 },
    { digits: '7', scale: 0, want: 7 },
    { digits: '0.1', scale: -3, want: 0.0001 },
    { digits: '123456', scale: -2, want: 1234.56 },
  ];
  for (const c of cases) test(`${c.digits} e${c.scale}`, () => assert.equal(applyScale(c.digits, c.scale), c.want));
});

describe('sign, scale and parentheses combine without negating twice', () => {
  const base = { format: 'ixt2:numdotdecimal', overflow: false };
  const cases = [
    { name: 'plain', text: '3,810', scale: null, sign: null, want: 3810 },
    { name: 'sign="-"', text: '3,810', scale: null, sign: '-', want: -3810 },
    { name: 'parentheses in the tag', text: '(3,810)', scale: null, sign: null, want: -3810 },
    { name: 'parentheses and sign="-"', text: '(3,810)', scale: null, sign: '-', want: -3810 },
    { name: 'minus and sign="-"', text: '-3,810', scale: null, sign: '-', want: -3810 },
    { name: 'scale 3', text: '1,234', scale: '3', sign: null, want: 1234000 },
    { name: 'scale 6 with sign', text: '1.5', scale: '6', sign: '-', want: -1500000 },
    { name: 'scale -2 (a filer slip seen in real data)', text: '3', scale: '-2', sign: null, want: 0.03 },
    { name: 'zero with sign stays zero', text: '0', scale: null, sign: '-', want: 0 },
    { name: 'bad scale', text: '1', scale: 'x', sign: null, want: 'error' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = readInlineValue({ ...base, text: c.text, scale: c.scale, sign: c.sign });
      if (c.want === 'error') return assert.equal(typeof got, 'string');
      assert.equal(got, c.want);
      assert.ok(!Object.is(got, -0), 'no negative zero');
    });
  }
});

describe('readDate: date formats of registries 1 to 5', () => {
  const cases: { format: string | null; text: string; want: string | null }[] = [
    { format: null, text: '2018-03-31', want: '2018-03-31' },
    { format: 'ixt2:datedaymonthyear', text: '31.3.18', want: '2018-03-31' },
    { format: 'ixt2:datedaymonthyear', text: '31/03/2018', want: '2018-03-31' },
    { format: 'ixt:dateslasheu', text: '31/03/2018', want: '2018-03-31' },
    { format: 'ixt:datedoteu', text: '31.03.2018', want: '2018-03-31' },
    { format: 'ixt:dateslashus', text: '03/31/2018', want: '2018-03-31' },
    { format: 'ixt:datelonguk', text: '31 August 2022', want: '2022-08-31' },
    { format: 'ixt:datelonguk', text: '31st August 2022', want: '2022-08-31' },
    { format: 'ixt:datelongus', text: 'August 31, 2022', want: '2022-08-31' },
    { format: 'ixt:dateshortuk', text: '31 Aug 2022', want: '2022-08-31' },
    { format: 'ixt2:datedaymonthyearen', text: '1 March 2017', want: '2017-03-01' },
    { format: 'ixt2:datemonthdayyear', text: '12-25-2019', want: '2019-12-25' },
    { format: 'ixt2:dateyearmonthday', text: '2019/12/25', want: '2019-12-25' },
    { format: 'ixt4:date-day-month-year', text: '5.4.2021', want: '2021-04-05' },
    { format: 'ixt4:date-day-monthname-year-en', text: '5 April 2021', want: '2021-04-05' },
    { format: 'ixt4:date-monthname-day-year-en', text: 'April 5, 2021', want: '2021-04-05' },
    { format: 'ixt4:date-day-monthname-year-cy', text: '5 Ebrill 2021', want: '2021-04-05' },
    { format: 'ixt2:datedaymonthyear', text: '31.2.2018', want: null },
    { format: 'ixt2:datedaymonthyear', text: 'soon', want: null },
    { format: null, text: 'yesterday', want: null },
  ];
  for (const c of cases) {
    test(`${c.format ?? 'no format'} "${c.text}"`, () => {
      const got = readDate(c.format, c.text);
      if (c.want === null) return assert.equal(got.ok, false);
      assert.ok(got.ok, got.ok ? '' : got.reason);
      assert.equal(got.value, c.want);
    });
  }
});
