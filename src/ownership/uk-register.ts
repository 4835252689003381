/**
 * Where a corporate or legal-person PSC is registered, read from its `identification` as filed:
 * free text typed by whoever notified Companies House, so "England & Wales", "Companies House
 * Cardiff", "Registrar Of Companies For England And Wales", "Delaware Secretary Of State",
 * "People'S Republic Of China". From it: the company number, when the register named is the UK's
 * own (so the owner can be found on the register), and the country, when one can be told.
 *
 * Pure and cheap: it runs for every corporate PSC of a 12-million-line snapshot.
 */
import { normaliseCompanyNumber } from '../domain/company-number.ts';
import { readPlace } from './place-names.ts';
import type { PscIdentification } from '../domain/psc.ts';

export interface RegistrationPlace {
  /** The registration number as a company number, when the register named is the UK's. */
  registered_company_number: string | null;
  /**
   * Where it is registered or governed, as filed (or the country its legal authority names, or
   * else the country of its address).
   */
  country: string | null;
  /** Outside the United Kingdom: true or false when that can be told, null when it cannot. */
  overseas: boolean | null;
}

/** What a piece of identification text says about the United Kingdom. */
export type PlaceVerdict =
  /** Names a part of the UK or its register (England, Companies House, …). */
  | 'uk'
  /** Says nothing else, but reads like the UK's register ("Registrar of Companies", "Companies Act 2006"). */
  | 'uk-probably'
  /** Names somewhere else (Delaware, Jersey, New South Wales, …), or a place not recognised as the UK. */
  | 'foreign'
  /** Says nothing about a place ("Limited Company", "Corporate"). */
  | 'unknown';

/** What one field of an identification says about the UK (see PlaceVerdict). */
export function placeVerdict(raw: string | null): PlaceVerdict {
  if (raw === null) return 'unknown';
  const reading = readPlace(raw);
  if (reading.foreign !== null) return 'foreign';
  if (reading.uk !== null) return 'uk';
  if (reading.ukLikely) return 'uk-probably';
  // A text naming no register or legal form is a place, and not one of the UK's.
  return reading.notAPlace || reading.words === 0 ? 'unknown' : 'foreign';
}

/** The identification names the UK's register: a UK word and no foreign place, or only UK company law. */
export function namesUkRegister(identification: PscIdentification): boolean {
  const verdicts = [
    placeVerdict(identification.country_registered),
    placeVerdict(identification.place_registered),
    placeVerdict(identification.legal_authority),
  ];
  if (verdicts.includes('foreign')) return false;
  return verdicts.includes('uk') || verdicts.includes('uk-probably');
}

// Two-letter prefixes of company numbers on the UK register (Scotland SC, Northern Ireland NI,
// LLPs OC/SO/NC, overseas companies FC/SF/NF, registered overseas entities OE, …).
const PREFIXES = new Set([
  'AC', 'CE', 'CS', 'FC', 'FE', 'GE', 'GN', 'GS', 'IC', 'IP', 'LP', 'NA', 'NC', 'NF', 'NI', 'NL',
  'NO', 'NP', 'NR', 'NV', 'NZ', 'OC', 'OE', 'RC', 'SA', 'SC', 'SE', 'SF', 'SG', 'SI', 'SL', 'SO',
  'SP', 'SR', 'SZ', 'ZC',
]); // prettier-ignore

/**
 * A registration number as filed, as a UK company number: "SC 123456", "No. 1234567",
 * "Company number 01234567", "0123 4567", "3530981 (England)". Null when it holds no single
 * number that can be one (nine digits, two numbers, none, all zeros).
 */
export function ukCompanyNumberFrom(raw: string | null): string | null {
  if (raw === null) return null;
  // An aside in brackets ("(England and Wales)") is not part of the number.
  const text = raw.toUpperCase().replace(/\([^)]*\)/g, ' ');
  // Every run of digits (spaces allowed inside it), with the two letters touching its start.
  const runs = [...text.matchAll(/(?:^|[^A-Z0-9])([A-Z]{2})?( ?)(\d(?:[\d ]*\d)?)/g)];
  if (runs.length !== 1) return null;
  const [, letters, gap, digitText] = runs[0]!;
  const digits = digitText!.replaceAll(' ', '');
  // Letters touching the digits are part of the number: a UK prefix, or not a UK number.
  if (letters && !gap && !PREFIXES.has(letters)) return null;
  // "No 123456" is the word "number", not the prefix NO, when a space parts them.
  const prefix = letters && PREFIXES.has(letters) && !(letters === 'NO' && gap) ? letters : '';
  if (/^0+$/.test(digits)) return null;
  if (prefix) return digits.length <= 6 ? normaliseCompanyNumber(prefix + digits.padStart(6, '0')) : null;
  return digits.length <= 8 ? normaliseCompanyNumber(digits) : null;
}

/** The country a legal authority plainly names ("Laws of Gibraltar", "English Law"), else null. */
function countryOfAuthority(raw: string): string | null {
  const reading = readPlace(raw);
  return reading.foreign ?? reading.uk;
}

/** Whether a place is outside the UK: null when it does not say. */
function overseasOf(place: string | null): boolean | null {
  const verdict = placeVerdict(place);
  return verdict === 'foreign' ? true : verdict === 'unknown' ? null : false;
}

/**
 * Where a corporate or legal-person PSC is registered: its UK company number when the
 * identification names the UK's register, its country (country_registered, else
 * place_registered, else the country its legal authority names, else the country of its
 * address), and whether that is overseas. An identification that names no place ("Limited
 * Liability", "Ag") leaves it to the address: a Swiss AG whose address is in Zug is overseas.
 * Neither saying anything, overseas is null: unknown is not the United Kingdom.
 */
export function registrationPlace(
  identification: PscIdentification | null,
  addressCountry: string | null = null,
): RegistrationPlace {
  const filed =
    identification === null
      ? null
      : (identification.country_registered ??
        identification.place_registered ??
        (identification.legal_authority === null ? null : countryOfAuthority(identification.legal_authority)));
  const uk = identification !== null && namesUkRegister(identification);
  const fromFiled = uk ? false : overseasOf(filed);
  const overseas = fromFiled ?? overseasOf(addressCountry);
  return {
    registered_company_number: uk ? ukCompanyNumberFrom(identification.registration_number) : null,
    // The address's country stands for where it is only when it is what told.
    country: filed ?? (fromFiled === null && overseas !== null ? addressCountry : null),
    overseas,
  };
}
