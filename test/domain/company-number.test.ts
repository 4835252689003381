import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { companyNumberFromDocument, normaliseCompanyNumber } from '../../src/domain/company-number.ts';

describe('normaliseCompanyNumber', () => {
  const cases: [input: string, want: string | null][] = [
    ['123', '00000123'],
    ['00000123', '00000123'],
    ['  445790 ', '00445790'],
    ['sc123456', 'SC123456'],
    [' ni012345', 'NI012345'],
    ['OC301234', 'OC301234'],
    ['R0001234', 'R0001234'],
    ['12345678', '12345678'],
    ['123456789', null],
    ['SC12345', null],
    ['AB-12345', null],
    ['', null],
    ['   ', null],
    ['0', '00000000'],
  ];
  for (const [input, want] of cases)
    test(JSON.stringify(input), () => assert.equal(normaliseCompanyNumber(input), want));
});

describe('companyNumberFromDocument', () => {
  const cases: [input: string, want: string | null][] = [
    ['01234567', '01234567'],
    ['0123 4567', '01234567'],
    ['SC 123456', 'SC123456'],
    ['00000000', null],
    ['ACME LTD', null],
    ['12345', '00012345'],
  ];
  for (const [input, want] of cases)
    test(JSON.stringify(input), () => assert.equal(companyNumberFromDocument(input), want));
});
