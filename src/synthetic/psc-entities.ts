/**
 * Corporate and legal-person PSCs for the synthetic snapshot, with their `identification` spelt as
 * real notifications spell it: a UK parent named by its register in the dozen ways filers write
 * "Companies House, England and Wales", overseas parents in Delaware, Ireland, the Netherlands,
 * Jersey and elsewhere, and legal persons (government departments, councils, pension trustees,
 * foreign states). Each is a pure function of the seed and its id, so one parent controls the
 * same companies under the same name on every snapshot.
 */
import type { SyntheticCompany } from './companies.ts';
import { titleCase, ukAddress } from './psc-people.ts';
import type { PscAddress } from './psc-people.ts';
import { labelSeed, Random } from './random.ts';

/** `identification` as the snapshot writes it: keys in order, absent ones left out. */
export interface FiledIdentification {
  country_registered?: string;
  legal_authority?: string;
  legal_form?: string;
  place_registered?: string;
  registration_number?: string;
}

export interface PscEntity {
  name: string;
  identification: FiledIdentification;
  address: PscAddress;
  /** Where it is registered, outside the UK (for tests and summaries); null for a UK one. */
  overseasCountry: string | null;
}

/** Drop the fields left undefined, keeping the snapshot's key order. */
function filed(fields: FiledIdentification): FiledIdentification {
  const out: FiledIdentification = {};
  for (const key of [
    'country_registered',
    'legal_authority',
    'legal_form',
    'place_registered',
    'registration_number',
  ] as const) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const EW_COUNTRY = ['England', 'England & Wales', 'England And Wales', 'England And Wales', 'United Kingdom', 'Uk'];
const EW_PLACE = [
  'Companies House',
  'Companies House',
  'Companies House, Cardiff',
  'Register Of Companies For England And Wales',
  'Registrar Of Companies For England And Wales',
  'England And Wales',
];
const EW_AUTHORITY = [
  'Companies Act 2006',
  'Companies Act 2006',
  'United Kingdom (England And Wales)',
  'Uk Companies Act',
];
const COMPANY_FORMS = [
  'Private Limited Company',
  'Limited By Shares',
  'Private Company Limited By Shares',
  'Limited Company',
];

/** How a company's PSC filing identifies `parent`, a company on the synthetic register. */
export function ukParentIdentification(rng: Random, parent: SyntheticCompany): FiledIdentification {
  const number = parent.company_number;
  // Filers drop the leading zeros or space the number now and then; it still reads as the number.
  const digitsOnly = /^\d+$/.test(number);
  const written = rng.weighted<string>([
    [number, 80],
    [digitsOnly ? number.replace(/^0+/, '') : number, 12],
    [digitsOnly ? `${number.slice(0, 4)} ${number.slice(4)}` : `${number.slice(0, 2)} ${number.slice(2)}`, 8],
  ]);
  const legalForm =
    parent.legalForm === 'llp'
      ? 'Limited Liability Partnership'
      : parent.legalForm === 'plc'
        ? 'Public Limited Company'
        : rng.pick(COMPANY_FORMS);
  const authority = parent.legalForm === 'llp' ? 'Limited Liability Partnerships Act 2000' : rng.pick(EW_AUTHORITY);
  const [country, place] =
    parent.register === 'scotland'
      ? [
          rng.pick(['Scotland', 'Scotland', 'United Kingdom']),
          rng.pick(['Companies House, Edinburgh', 'Registrar Of Companies For Scotland', 'Companies House']),
        ]
      : parent.register === 'northern-ireland'
        ? [rng.pick(['Northern Ireland', 'United Kingdom']), rng.pick(['Companies House, Belfast', 'Companies House'])]
        : [rng.pick(EW_COUNTRY), rng.pick(EW_PLACE)];
  // Some filings leave out a field or two; the number and one UK field are always there.
  const omit = rng.weighted<'none' | 'country' | 'place' | 'authority'>([
    ['none', 80],
    ['country', 8],
    ['place', 6],
    ['authority', 6],
  ]);
  return filed({
    country_registered: omit === 'country' ? undefined : country,
    legal_authority: omit === 'authority' ? undefined : authority,
    legal_form: legalForm,
    place_registered: omit === 'place' ? undefined : place,
    registration_number: written,
  });
}

interface Jurisdiction {
  country: readonly string[];
  authority: readonly string[];
  forms: readonly (readonly [form: string, suffix: string])[];
  place: readonly string[];
  /** Registration number from a draw. */
  number: (rng: Random) => string;
  address: { locality: string; country: string; postal: (rng: Random) => string };
  weight: number;
}

const digits = (n: number) => (rng: Random) => String(rng.int(10 ** (n - 1), 10 ** n - 1));

/** Where the overseas parents of UK companies are, roughly as often as the register names them. */
const JURISDICTIONS: readonly (readonly [string, Jurisdiction])[] = [
  ['Delaware', { country: ['Delaware', 'United States', 'Delaware, Usa'], authority: ['Delaware General Corporation Law', 'Laws Of The State Of Delaware', 'Delaware Law'], forms: [['Corporation', 'Inc.'], ['Limited Liability Company', 'LLC']], place: ['Delaware Secretary Of State', 'Delaware Division Of Corporations'], number: digits(7), address: { locality: 'Wilmington', country: 'United States', postal: (r) => `DE ${r.int(19801, 19899)}` }, weight: 22 }],
  ['Ireland', { country: ['Ireland', 'Republic Of Ireland'], authority: ['Companies Act 2014', 'Irish Law'], forms: [['Private Company Limited By Shares', 'Limited'], ['Designated Activity Company', 'DAC']], place: ['Companies Registration Office', 'Companies Registration Office, Ireland'], number: digits(6), address: { locality: 'Dublin', country: 'Ireland', postal: (r) => `D0${r.int(1, 8)} X${r.int(100, 999)}` }, weight: 12 }],
  ['Netherlands', { country: ['Netherlands', 'The Netherlands'], authority: ['Dutch Civil Code', 'Laws Of The Netherlands'], forms: [['Besloten Vennootschap', 'B.V.'], ['Naamloze Vennootschap', 'N.V.']], place: ['Chamber Of Commerce (Kvk)', 'Kamer Van Koophandel'], number: digits(8), address: { locality: 'Amsterdam', country: 'Netherlands', postal: (r) => `10${r.int(10, 99)} AB` }, weight: 10 }],
  ['Jersey', { country: ['Jersey', 'Jersey, Channel Islands'], authority: ['Companies (Jersey) Law 1991'], forms: [['Private Company Limited By Shares', 'Limited']], place: ['Jersey Financial Services Commission', 'Registrar Of Companies, Jersey'], number: digits(6), address: { locality: 'St Helier', country: 'Jersey', postal: (r) => `JE2 ${r.int(1, 9)}QT` }, weight: 8 }],
  ['Luxembourg', { country: ['Luxembourg'], authority: ['Luxembourg Law', 'Law Of 10 August 1915 On Commercial Companies'], forms: [['Société À Responsabilité Limitée', 'S.à r.l.'], ['Société Anonyme', 'S.A.']], place: ['Registre De Commerce Et Des Sociétés', 'Luxembourg Trade And Companies Register'], number: (r) => `B${r.int(100_000, 299_999)}`, address: { locality: 'Luxembourg', country: 'Luxembourg', postal: (r) => `L-${r.int(1000, 2999)}` }, weight: 6 }],
  ['Germany', { country: ['Germany'], authority: ['German Law', 'Gmbh Act'], forms: [['Gesellschaft Mit Beschränkter Haftung', 'GmbH'], ['Aktiengesellschaft', 'AG']], place: ['Amtsgericht München', 'Amtsgericht Frankfurt Am Main', 'Handelsregister'], number: (r) => `HRB ${r.int(10_000, 299_999)}`, address: { locality: 'Munich', country: 'Germany', postal: (r) => String(r.int(80_331, 81_929)) }, weight: 6 }],
  ['Guernsey', { country: ['Guernsey'], authority: ['The Companies (Guernsey) Law, 2008'], forms: [['Limited Company', 'Limited']], place: ['Guernsey Registry'], number: digits(5), address: { locality: 'St Peter Port', country: 'Guernsey', postal: (r) => `GY1 ${r.int(1, 6)}HL` }, weight: 4 }],
  ['Isle of Man', { country: ['Isle Of Man'], authority: ['Companies Act 2006 (Isle Of Man)', 'Isle Of Man Companies Act 1931'], forms: [['Limited Company', 'Limited']], place: ['Isle Of Man Companies Registry'], number: (r) => `${r.int(100_000, 139_999)}C`, address: { locality: 'Douglas', country: 'Isle Of Man', postal: (r) => `IM1 ${r.int(1, 5)}AB` }, weight: 3 }],
  ['British Virgin Islands', { country: ['British Virgin Islands', 'Bvi'], authority: ['BVI Business Companies Act 2004'], forms: [['Business Company', 'Limited']], place: ['Registry Of Corporate Affairs'], number: digits(7), address: { locality: 'Road Town, Tortola', country: 'British Virgin Islands', postal: () => 'VG1110' }, weight: 4 }],
  ['Cayman Islands', { country: ['Cayman Islands'], authority: ['Companies Law (Cayman Islands)'], forms: [['Exempted Company', 'Ltd']], place: ['Registrar Of Companies, Cayman Islands'], number: digits(6), address: { locality: 'George Town', country: 'Cayman Islands', postal: (r) => `KY1-${r.int(1000, 1200)}` }, weight: 3 }],
  ['France', { country: ['France'], authority: ['French Commercial Code'], forms: [['Société Par Actions Simplifiée', 'SAS']], place: ['Registre Du Commerce Et Des Sociétés De Paris'], number: (r) => `${r.int(300, 899)} ${r.int(100, 999)} ${r.int(100, 999)}`, address: { locality: 'Paris', country: 'France', postal: (r) => `750${r.int(10, 20)}` }, weight: 4 }],
  ['Switzerland', { country: ['Switzerland'], authority: ['Swiss Code Of Obligations'], forms: [['Aktiengesellschaft', 'AG']], place: ['Commercial Register Of The Canton Of Zug'], number: (r) => `CHE-${r.int(100, 999)}.${r.int(100, 999)}.${r.int(100, 999)}`, address: { locality: 'Zug', country: 'Switzerland', postal: () => '6300' }, weight: 3 }],
  ['Singapore', { country: ['Singapore'], authority: ['Companies Act 1967 (Singapore)'], forms: [['Private Company Limited By Shares', 'Pte. Ltd.']], place: ['Accounting And Corporate Regulatory Authority'], number: (r) => `${r.int(199_000_000, 202_299_999)}K`, address: { locality: 'Singapore', country: 'Singapore', postal: (r) => String(r.int(18_000, 99_999)) }, weight: 3 }],
  ['Cyprus', { country: ['Cyprus'], authority: ['Cyprus Companies Law, Cap. 113'], forms: [['Private Limited Company', 'Limited']], place: ['Registrar Of Companies, Nicosia'], number: (r) => `HE ${r.int(100_000, 449_999)}`, address: { locality: 'Limassol', country: 'Cyprus', postal: (r) => String(r.int(3000, 3999)) }, weight: 2 }],
  ['United Arab Emirates', { country: ['United Arab Emirates', 'Uae'], authority: ['Dubai Multi Commodities Centre Authority'], forms: [['Free Zone Company', 'DMCC']], place: ['Dmcc Registrar Of Companies'], number: (r) => `DMCC${r.int(10_000, 199_999)}`, address: { locality: 'Dubai', country: 'United Arab Emirates', postal: () => 'PO Box 48800' }, weight: 2 }],
  ['Hong Kong', { country: ['Hong Kong'], authority: ['Companies Ordinance (Cap. 622)'], forms: [['Private Company Limited By Shares', 'Limited']], place: ['Companies Registry, Hong Kong'], number: digits(7), address: { locality: 'Central', country: 'Hong Kong', postal: () => 'Hong Kong' }, weight: 2 }],
]; // prettier-ignore

const ENTITY_WORDS_A = [
  'Northbrook', 'Kestrel', 'Larkspur', 'Glenmore', 'Aurelia', 'Sable', 'Harbourline', 'Castello', 'Meridian',
  'Pinewood', 'Silverline', 'Blackwater', 'Copperfield', 'Evergreen', 'Granite', 'Horizon', 'Ironbridge',
  'Juniper', 'Keystone', 'Lighthouse', 'Monarch', 'Nordic', 'Orion', 'Pelican', 'Quayside', 'Redwood',
  'Sterling', 'Trident', 'Umbra', 'Vantage', 'Westwind', 'Zenith', 'Atlas', 'Beacon', 'Cardinal', 'Delta',
]; // prettier-ignore
const ENTITY_WORDS_B = [
  'Holdings', 'Capital', 'Investments', 'Group', 'Partners', 'Ventures', 'International', 'Global',
  'Industries', 'Equity', 'Finance', 'Enterprises',
]; // prettier-ignore

const OVERSEAS = labelSeed('psc-overseas-entity');
const JURISDICTION_TABLE = JURISDICTIONS.map(([name, j]) => [[name, j], j.weight] as const);

/** Overseas parent `entityId` (a tuple naming it uniquely). */
export function overseasEntity(seed: number, ...entityId: number[]): PscEntity {
  const rng = Random.derive(seed, OVERSEAS, ...entityId);
  const [jurisdictionName, j] = rng.weighted(JURISDICTION_TABLE);
  const [form, suffix] = rng.pick(j.forms);
  const name = `${rng.pick(ENTITY_WORDS_A)} ${rng.pick(ENTITY_WORDS_B)} ${suffix}`;
  const omitPlace = rng.chance(0.2);
  return {
    name,
    identification: filed({
      country_registered: rng.pick(j.country),
      legal_authority: rng.pick(j.authority),
      legal_form: form,
      place_registered: omitPlace ? undefined : rng.pick(j.place),
      registration_number: j.number(rng),
    }),
    address: {
      address_line_1: `${rng.int(1, 900)} ${rng.pick(['Market', 'Orange', 'Harbour', 'Park', 'Bridge'])} Street`,
      country: j.address.country,
      locality: j.address.locality,
      postal_code: j.address.postal(rng),
      premises: rng.pick(['Suite 100', 'Floor 3', '1st Floor', 'Level 12']),
    },
    overseasCountry: jurisdictionName,
  };
}

interface LegalPersonKind {
  name: (rng: Random) => string;
  authority: readonly string[];
  form: string;
  overseas: string | null;
  weight: number;
}

const COUNCIL_PLACES = ['Kent', 'Norfolk', 'Cornwall', 'Surrey', 'Devon', 'Lancashire', 'Hampshire', 'Essex'];
const PENSION_NAMES = ['Staff', 'Employees', 'Group', 'Retirement Benefits', 'Executive'];
const FOREIGN_STATES = [
  ['Norway', 'Kingdom Of Norway'],
  ['Qatar', 'State Of Qatar'],
  ['Singapore', 'Republic Of Singapore'],
  ['China', "People'S Republic Of China"],
  ['United Arab Emirates', 'United Arab Emirates'],
] as const;

const LEGAL_PERSONS: readonly (readonly [LegalPersonKind, number])[] = [
  [{ name: (r) => `The Secretary Of State For ${r.pick(['Business And Trade', 'Transport', 'Defence', 'Health And Social Care'])}`, authority: ['United Kingdom', 'Uk Law'], form: 'Government Department', overseas: null, weight: 1 }, 15],
  [{ name: (r) => `${r.pick(COUNCIL_PLACES)} County Council`, authority: ['Local Government Act 1972'], form: 'Local Authority', overseas: null, weight: 1 }, 30],
  [{ name: (r) => `The Trustees Of The ${r.pick(ENTITY_WORDS_A)} ${r.pick(PENSION_NAMES)} Pension Scheme`, authority: ['Trust Law', 'Pensions Act 1995'], form: 'Trust', overseas: null, weight: 1 }, 30],
  [{ name: (r) => `The University Of ${r.pick(COUNCIL_PLACES)}`, authority: ['Royal Charter'], form: 'Chartered Body', overseas: null, weight: 1 }, 10],
  [{ name: () => '', authority: [], form: 'Sovereign State', overseas: 'state', weight: 1 }, 15],
]; // prettier-ignore

const LEGAL = labelSeed('psc-legal-person');

/** Legal person `id` (a tuple naming it uniquely): a body that is not a company, UK or foreign. */
export function legalPerson(seed: number, ...id: number[]): PscEntity {
  const rng = Random.derive(seed, LEGAL, ...id);
  const kind = rng.weighted(LEGAL_PERSONS);
  if (kind.overseas === 'state') {
    const [country, state] = rng.pick(FOREIGN_STATES);
    return {
      name: `Government Of ${country === 'China' ? "The People'S Republic Of China" : country}`,
      identification: filed({ legal_authority: state, legal_form: kind.form }),
      address: { address_line_1: 'Ministry Of Finance', country, locality: 'Capital City', premises: '1' },
      overseasCountry: country,
    };
  }
  return {
    name: kind.name(rng),
    identification: filed({ legal_authority: rng.pick(kind.authority), legal_form: kind.form }),
    address: ukAddress(rng, 'England'),
    overseasCountry: null,
  };
}

/** A company's register name as its PSC filings write it: "Harbour Lane Plumbing Ltd". */
export function filedCompanyName(registerName: string): string {
  return titleCase(registerName)
    .replace(/\bLtd\b/, 'Ltd')
    .replace(/\bLlp\b/, 'LLP')
    .replace(/\bPlc\b/, 'Plc');
}
