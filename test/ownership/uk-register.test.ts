import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PscIdentification } from '../../src/domain/psc.ts';
import {
  namesUkRegister,
  placeVerdict,
  registrationPlace,
  ukCompanyNumberFrom,
} from '../../src/ownership/uk-register.ts';

describe('ukCompanyNumberFrom: a registration number as filed, as a UK company number', () => {
  const cases: { input: string | null; want: string | null }[] = [
    { input: '00686734', want: '00686734' },
    { input: '03530981', want: '03530981' },
    { input: '686734', want: '00686734' },
    { input: '3530981', want: '03530981' },
    { input: ' 3530981 ', want: '03530981' },
    { input: '0353 0981', want: '03530981' },
    { input: '03 530 981', want: '03530981' },
    { input: 'No. 1234567', want: '01234567' },
    { input: 'No.1234567', want: '01234567' },
    { input: 'No 123456', want: '00123456' },
    { input: 'Company No. 01234567', want: '01234567' },
    { input: 'Company Number: 01234567', want: '01234567' },
    { input: 'Registration number 1234567', want: '01234567' },
    { input: 'Registered Number 04567890', want: '04567890' },
    { input: 'CRN 04567890', want: '04567890' },
    { input: '#4567890', want: '04567890' },
    { input: '04567890 (England and Wales)', want: '04567890' },
    { input: '4567890 England', want: '04567890' },
    { input: 'SC123456', want: 'SC123456' },
    { input: 'sc123456', want: 'SC123456' },
    { input: 'SC 123456', want: 'SC123456' },
    { input: 'SC12345', want: 'SC012345' },
    { input: 'Company No. SC123456', want: 'SC123456' },
    { input: 'NI012345', want: 'NI012345' },
    { input: 'NI 12345', want: 'NI012345' },
    { input: 'OC301234', want: 'OC301234' },
    { input: 'OC 301234', want: 'OC301234' },
    { input: 'SO300123', want: 'SO300123' },
    { input: 'NC001234', want: 'NC001234' },
    { input: 'FC012345', want: 'FC012345' },
    { input: 'OE029880', want: 'OE029880' },
    { input: 'LP012345', want: 'LP012345' },
    // Not one UK company number.
    { input: null, want: null },
    { input: '', want: null },
    { input: 'N/A', want: null },
    { input: 'Not applicable', want: null },
    { input: 'Unknown', want: null },
    { input: '00000000', want: null },
    { input: '0', want: null },
    { input: '123456789', want: null },
    { input: 'SC1234567', want: null },
    { input: '2006/12345', want: null },
    { input: '41-0406690', want: null },
    { input: 'ABC123456', want: null },
    { input: 'XY123456', want: null },
  ];
  for (const { input, want } of cases) {
    test(`${JSON.stringify(input)} -> ${want}`, () => assert.equal(ukCompanyNumberFrom(input), want));
  }
});

describe('placeVerdict: what a field of identification says about the UK', () => {
  const cases: { input: string | null; want: ReturnType<typeof placeVerdict> }[] = [
    { input: 'England', want: 'uk' },
    { input: 'England & Wales', want: 'uk' },
    { input: 'England And Wales', want: 'uk' },
    { input: 'ENGLAND AND WALES', want: 'uk' },
    { input: 'Wales', want: 'uk' },
    { input: 'Scotland', want: 'uk' },
    { input: 'Northern Ireland', want: 'uk' },
    { input: 'United Kingdom', want: 'uk' },
    { input: 'UK', want: 'uk' },
    { input: 'U.K.', want: 'uk' },
    { input: 'Great Britain', want: 'uk' },
    { input: 'Companies House', want: 'uk' },
    { input: 'Companies House Cardiff', want: 'uk' },
    { input: 'Companies House, Edinburgh', want: 'uk' },
    { input: 'Registrar Of Companies For England And Wales', want: 'uk' },
    { input: 'Register Of Companies (England & Wales)', want: 'uk' },
    { input: 'United Kingdom (England And Wales)', want: 'uk' },
    { input: 'English Law', want: 'uk' },
    { input: 'Uk Companies Act 2006', want: 'uk' },
    { input: 'Companies Act 2006', want: 'uk-probably' },
    { input: 'Companies Act 1985', want: 'uk-probably' },
    { input: 'Registrar Of Companies', want: 'uk-probably' },
    { input: 'Limited By Shares', want: 'uk-probably' },
    { input: 'Delaware', want: 'foreign' },
    { input: 'Delaware Secretary Of State', want: 'foreign' },
    { input: 'Minnesota, Usa', want: 'foreign' },
    { input: 'United States', want: 'foreign' },
    { input: 'Ireland', want: 'foreign' },
    { input: 'Republic Of Ireland', want: 'foreign' },
    { input: 'Companies Registration Office, Ireland', want: 'foreign' },
    { input: 'Netherlands', want: 'foreign' },
    { input: 'Jersey', want: 'foreign' },
    { input: 'Jersey Financial Services Commission', want: 'foreign' },
    { input: 'Registrar Of Companies, Jersey', want: 'foreign' },
    { input: 'Isle Of Man', want: 'foreign' },
    { input: 'British Virgin Islands', want: 'foreign' },
    { input: 'New South Wales', want: 'foreign' },
    { input: 'The Companies Ordinance Of The Laws Of Gibraltar', want: 'foreign' },
    { input: "People'S Republic Of China", want: 'foreign' },
    { input: 'Czech Republic', want: 'foreign' },
    { input: 'Estonia', want: 'foreign' },
    { input: 'Limited Company', want: 'unknown' },
    { input: 'Corporate', want: 'unknown' },
    { input: 'Private Limited Company', want: 'unknown' },
    { input: '', want: 'unknown' },
    { input: null, want: 'unknown' },
  ];
  for (const { input, want } of cases) {
    test(`${JSON.stringify(input)} -> ${want}`, () => assert.equal(placeVerdict(input), want));
  }
});

function ident(fields: Partial<PscIdentification>): PscIdentification {
  return {
    legal_authority: null,
    legal_form: null,
    place_registered: null,
    registration_number: null,
    country_registered: null,
    ...fields,
  };
}

describe('registrationPlace: the UK company number, the country and whether it is overseas', () => {
  const cases: {
    name: string;
    input: PscIdentification | null;
    /** The country of the PSC's address. */
    address?: string;
    want: ReturnType<typeof registrationPlace>;
  }[] = [
    {
      name: 'Companies House Cardiff, England & Wales',
      input: ident({
        country_registered: 'England & Wales',
        legal_authority: 'Companies Act',
        legal_form: 'Private Limited Company',
        place_registered: 'Companies House Cardiff',
        registration_number: '00686734',
      }),
      want: { registered_company_number: '00686734', country: 'England & Wales', overseas: false },
    },
    {
      name: 'Companies House with the country in the authority',
      input: ident({
        legal_authority: 'United Kingdom (England And Wales)',
        place_registered: 'Companies House',
        registration_number: '3530981',
      }),
      want: { registered_company_number: '03530981', country: 'Companies House', overseas: false },
    },
    {
      name: 'Scotland, a number with its prefix apart',
      input: ident({ country_registered: 'Scotland', registration_number: 'SC 123456' }),
      want: { registered_company_number: 'SC123456', country: 'Scotland', overseas: false },
    },
    {
      name: 'only UK company law and a number',
      input: ident({ legal_authority: 'Companies Act 2006', registration_number: '04567890' }),
      want: { registered_company_number: '04567890', country: null, overseas: false },
    },
    {
      name: 'English law, no number',
      input: ident({ legal_authority: 'English Law', legal_form: 'Limited Company' }),
      want: { registered_company_number: null, country: 'England', overseas: false },
    },
    {
      name: 'Delaware',
      input: ident({
        legal_authority: 'Delaware Secretary Of State',
        country_registered: 'Delaware',
        place_registered: 'Delaware',
        registration_number: '5786925',
      }),
      want: { registered_company_number: null, country: 'Delaware', overseas: true },
    },
    {
      name: 'Minnesota, with a UK-looking place nowhere',
      input: ident({
        country_registered: 'Minnesota, Usa',
        legal_authority: 'Organized Under The Laws Of Minnesota',
        place_registered: 'Connecticut',
        registration_number: '41-0406690',
      }),
      want: { registered_company_number: null, country: 'Minnesota, Usa', overseas: true },
    },
    {
      name: 'Jersey registrar: the same words as the UK, another island',
      input: ident({ place_registered: 'Registrar Of Companies, Jersey', registration_number: '123456' }),
      want: { registered_company_number: null, country: 'Registrar Of Companies, Jersey', overseas: true },
    },
    {
      name: 'an English-looking register in New South Wales',
      input: ident({ country_registered: 'New South Wales', registration_number: '123456' }),
      want: { registered_company_number: null, country: 'New South Wales', overseas: true },
    },
    {
      name: 'Gibraltar from the legal authority only',
      input: ident({
        legal_authority: 'The Companies Ordinance Of The Laws Of Gibraltar',
        legal_form: 'Limited Company',
      }),
      want: { registered_company_number: null, country: 'Gibraltar', overseas: true },
    },
    {
      name: 'Netherlands',
      input: ident({
        country_registered: 'Netherlands',
        place_registered: 'Kamer van Koophandel',
        registration_number: '33014286',
      }),
      want: { registered_company_number: null, country: 'Netherlands', overseas: true },
    },
    {
      name: 'Northern Ireland is the UK, not Ireland',
      input: ident({ country_registered: 'Northern Ireland', registration_number: 'NI 12345' }),
      want: { registered_company_number: 'NI012345', country: 'Northern Ireland', overseas: false },
    },
    {
      name: 'nothing about a place: not known, not the UK',
      input: ident({ legal_authority: 'Limited Company', legal_form: 'Uk Companies Act 2006' }),
      want: { registered_company_number: null, country: null, overseas: null },
    },
    {
      name: 'no identification, no address',
      input: null,
      want: { registered_company_number: null, country: null, overseas: null },
    },
    {
      name: 'a Swiss AG in Zug (real): the identification names no place, the address does',
      input: ident({ legal_authority: 'Limited Liability', legal_form: 'Ag' }),
      address: 'Switzerland',
      want: { registered_company_number: null, country: 'Switzerland', overseas: true },
    },
    {
      name: 'no identification, an address in England',
      input: null,
      address: 'England',
      want: { registered_company_number: null, country: 'England', overseas: false },
    },
    {
      name: 'an address that names no country leaves it unknown',
      input: ident({ legal_authority: 'Limited Company' }),
      address: 'Limited Company',
      want: { registered_company_number: null, country: null, overseas: null },
    },
    {
      name: 'the UK register named: an address abroad does not make it overseas',
      input: ident({ country_registered: 'England & Wales', registration_number: '00686734' }),
      address: 'France',
      want: { registered_company_number: '00686734', country: 'England & Wales', overseas: false },
    },
    {
      name: 'registered in Delaware: a UK address does not bring it home',
      input: ident({ country_registered: 'Delaware' }),
      address: 'United Kingdom',
      want: { registered_company_number: null, country: 'Delaware', overseas: true },
    },
  ];
  for (const { name, input, address, want } of cases) {
    test(name, () => assert.deepEqual(registrationPlace(input, address ?? null), want));
  }

  test('a UK register is named only when no field names another country', () => {
    assert.equal(namesUkRegister(ident({ country_registered: 'England', legal_authority: 'Delaware Law' })), false);
    assert.equal(namesUkRegister(ident({ country_registered: 'England' })), true);
    assert.equal(namesUkRegister(ident({ legal_form: 'Limited' })), false);
  });
});
