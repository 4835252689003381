/**
 * One line of Companies House's PSC snapshot (newline-delimited JSON) read into a PscRecord:
 *
 *   {"company_number":"09145694","data":{"kind":"individual-person-with-significant-control",
 *    "name":"Mrs Nga Thanh Wildman","name_elements":{…},"date_of_birth":{"month":2,"year":1977},
 *    "natures_of_control":["ownership-of-shares-75-to-100-percent"],"notified_on":"2016-04-06",
 *    "links":{"self":"/company/09145694/persons-with-significant-control/individual/bIhu…"},…}}
 *
 * and the closing summary line {"data":{"kind":"totals#persons-of-significant-control-snapshot",…}}.
 *
 * Every field is read defensively: the file is twelve million lines typed by many hands over many
 * years, so a value of the wrong type becomes null rather than failing the load, an unknown kind
 * is kept as 'other', and unknown fields stay in `data`. Only a line with nothing to key it by (not
 * JSON, no company number, no data or kind) is rejected, with the reason.
 *
 * Individuals' addresses and days of birth are dropped here, before anything is stored: the
 * product neither keeps nor serves them.
 *
 * This is the loader's hot loop: JSON.parse and a little work a field, no regular expressions
 * on the common path.
 */
import { createHash } from 'node:crypto';
import { normaliseCompanyNumber } from '../domain/company-number.ts';
import type { PscIdentification, PscKindClass, PscLine, PscNameElements, PscRecord } from '../domain/psc.ts';
import { registrationPlace } from './uk-register.ts';

/** The kind of the closing summary line. */
export const PSC_SUMMARY_KIND = 'totals#persons-of-significant-control-snapshot';

/** Every kind Companies House publishes in the snapshot, by class. */
const PSC_KINDS: Readonly<Record<string, PscKindClass>> = {
  'individual-person-with-significant-control': 'individual',
  'individual-beneficial-owner': 'individual',
  'corporate-entity-person-with-significant-control': 'corporate',
  'corporate-entity-beneficial-owner': 'corporate',
  'legal-person-person-with-significant-control': 'legal_person',
  'legal-person-beneficial-owner': 'legal_person',
  'super-secure-person-with-significant-control': 'super_secure',
  'super-secure-beneficial-owner': 'super_secure',
  'persons-with-significant-control-statement': 'statement',
  exemptions: 'exemption',
};

const BENEFICIAL_OWNER_SUFFIX = '-beneficial-owner';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string as filed; null for anything else, and for a blank one. */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 32) return value;
  return null;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digit(value: string, at: number): number {
  const c = value.charCodeAt(at) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

/** An ISO calendar date "YYYY-MM-DD" as filed, else null (checked by hand: this runs 20M times). */
export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.length !== 10 || value[4] !== '-' || value[7] !== '-') return null;
  const year = digit(value, 0) * 1000 + digit(value, 1) * 100 + digit(value, 2) * 10 + digit(value, 3);
  const month = digit(value, 5) * 10 + digit(value, 6);
  const day = digit(value, 8) * 10 + digit(value, 9);
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1]!)) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && day === 29 && !leap ? null : value;
}

function wholeNumber(value: unknown, min: number, max: number): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : null;
}

function nameElements(value: unknown): PscNameElements | null {
  if (!isObject(value)) return null;
  return {
    title: text(value.title),
    forename: text(value.forename),
    middle_name: text(value.middle_name),
    surname: text(value.surname),
  };
}

function identification(value: unknown): PscIdentification | null {
  if (!isObject(value)) return null;
  return {
    legal_authority: text(value.legal_authority),
    legal_form: text(value.legal_form),
    place_registered: text(value.place_registered),
    registration_number: text(value.registration_number),
    country_registered: text(value.country_registered),
  };
}

function naturesOfControl(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const natures: string[] = [];
  for (const nature of value) if (typeof nature === 'string' && nature !== '') natures.push(nature);
  return natures;
}

/** Lower case, single spaces, trimmed. */
function normaliseName(name: string): string {
  const lower = name.toLowerCase();
  let out = '';
  let pendingSpace = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    // Spaces, tabs, line ends, no-break spaces.
    if (c <= 32 || c === 160) {
      pendingSpace = out !== '';
    } else {
      if (pendingSpace) out += ' ';
      pendingSpace = false;
      out += lower[i];
    }
  }
  return out;
}

/** Titles dropped from the front of a name filed without its elements. */
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'sir',
  'dame',
  'lord',
  'lady',
  'prof',
  'professor',
  'rev',
]);

/** The name without its title: from the name elements when filed, else the name less a leading title. */
function untitledName(name: string | null, elements: PscNameElements | null): string | null {
  if (elements !== null && (elements.forename !== null || elements.surname !== null)) {
    let joined = elements.forename ?? '';
    if (elements.middle_name !== null) joined += ` ${elements.middle_name}`;
    if (elements.surname !== null) joined += ` ${elements.surname}`;
    return joined;
  }
  if (name === null) return null;
  const trimmed = name.trim();
  const space = trimmed.indexOf(' ');
  if (space < 0) return trimmed;
  const first = trimmed.slice(0, space).toLowerCase();
  const title = first.endsWith('.') ? first.slice(0, -1) : first;
  const filedTitle = elements?.title?.toLowerCase();
  return TITLES.has(title) || first === filedTitle ? trimmed.slice(space + 1) : trimmed;
}

/**
 * Groups one person or entity across companies (see PscRecord.person_key); officers are keyed the
 * same way (officer-person.ts), so that a director who is also a PSC is one person.
 */
export function personKey(
  kindClass: PscKindClass,
  name: string | null,
  elements: PscNameElements | null,
  birthYear: number | null,
  birthMonth: number | null,
): string | null {
  if (kindClass !== 'individual' && kindClass !== 'corporate' && kindClass !== 'legal_person') return null;
  // Titles are an individual's; "Lord Lighting Ltd" keeps its first word.
  const untitled = kindClass === 'individual' ? untitledName(name, elements) : name;
  if (untitled === null) return null;
  const normalised = normaliseName(untitled);
  if (normalised === '') return null;
  return `${kindClass}|${normalised}|${birthYear ?? ''}|${birthMonth ?? ''}`;
}

/** The last segment of links.self: the PSC's id within the company. */
function selfId(links: unknown): string | null {
  if (!isObject(links) || typeof links.self !== 'string') return null;
  const self = links.self;
  const id = self.slice(self.lastIndexOf('/') + 1);
  return text(id);
}

function sha1(line: string): string {
  return createHash('sha1').update(line).digest('hex');
}

/** `data` as kept: an individual's address and day of birth are not stored (privacy by design). */
function keptData(data: Json, individual: boolean): Json {
  if (!individual) return data;
  const { address: _address, date_of_birth: birth, ...kept } = data;
  if (isObject(birth)) {
    const { day: _day, ...monthAndYear } = birth;
    kept.date_of_birth = monthAndYear;
  }
  // A birth date filed in another shape ("1970-03-14") may hold the day: not kept at all.
  return kept;
}

/** Already eight upper-case letters or digits, as nearly every line's is: nothing to normalise. */
function isCanonicalNumber(value: string): boolean {
  if (value.length !== 8) return false;
  for (let i = 0; i < 8; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return false;
  }
  return true;
}

function rejected(reason: string): PscLine {
  return { type: 'rejected', reason };
}

/** Read one line of a PSC snapshot. Never throws: an unusable line is 'rejected' with its reason. */
export function parsePscLine(line: string): PscLine {
  let parsed: unknown;
  try {
    // A byte-order mark before the first line is not part of the record.
    parsed = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
  } catch (error) {
    return rejected(`not JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) return rejected('not a JSON object');
  const data = parsed.data;
  if (!isObject(data)) return rejected('no data object');
  const kind = text(data.kind);
  if (kind === null) return rejected('no data.kind');
  if (kind.startsWith('totals#')) return { type: 'summary', data };

  const rawNumber = parsed.company_number;
  const numberText = typeof rawNumber === 'number' && Number.isInteger(rawNumber) ? String(rawNumber) : text(rawNumber);
  if (numberText === null) return rejected('no company_number');
  const companyNumber = isCanonicalNumber(numberText) ? numberText : normaliseCompanyNumber(numberText);
  if (companyNumber === null) return rejected(`company_number ${JSON.stringify(numberText)} is not a company number`);

  const kindClass = PSC_KINDS[kind] ?? 'other';
  const etag = text(data.etag);
  const name = text(data.name);
  const elements = nameElements(data.name_elements);
  const birth = isObject(data.date_of_birth) ? data.date_of_birth : null;
  const birthYear = birth === null ? null : wholeNumber(birth.year, 1800, 2200);
  const birthMonth = birth === null ? null : wholeNumber(birth.month, 1, 12);
  const ceasedOn = isoDate(data.ceased_on);
  const ceasedFlag = data.ceased;
  const ident = kindClass === 'corporate' || kindClass === 'legal_person' ? identification(data.identification) : null;
  // The country of a corporate or legal person's (registered) address, when its identification names none.
  const entity = kindClass === 'corporate' || kindClass === 'legal_person';
  const address = entity && isObject(data.address) ? text(data.address.country) : null;
  const place = registrationPlace(ident, address);

  const record: PscRecord = {
    company_number: companyNumber,
    psc_id: selfId(data.links) ?? etag ?? sha1(line),
    kind,
    kind_class: kindClass,
    beneficial_owner: kind.endsWith(BENEFICIAL_OWNER_SUFFIX),
    name,
    name_elements: elements,
    natures_of_control: naturesOfControl(data.natures_of_control),
    notified_on: isoDate(data.notified_on),
    ceased_on: ceasedOn,
    // Filed as true, as 1 in some records, or only as a ceased_on date (even one that is not a date).
    ceased:
      ceasedFlag === true ||
      (typeof ceasedFlag === 'number' && ceasedFlag !== 0) ||
      ceasedOn !== null ||
      text(data.ceased_on) !== null,
    birth_year: birthYear,
    birth_month: birthMonth,
    nationality: text(data.nationality),
    country_of_residence: text(data.country_of_residence),
    identification: ident ?? identification(data.identification),
    statement: text(data.statement),
    registered_company_number: place.registered_company_number,
    country: place.country,
    overseas: place.overseas,
    person_key: personKey(kindClass, name, elements, birthYear, birthMonth),
    content_hash: etag ?? sha1(line),
    data: keptData(data, kindClass === 'individual'),
  };
  return { type: 'psc', record };
}
