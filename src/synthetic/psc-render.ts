/**
 * A PSC entry of a synthetic company written as a line of the PSC snapshot, the way Companies
 * House writes it: {"company_number":…,"data":{…}} with the data's keys in alphabetical order,
 * absent fields left out, a `links.self` that names the PSC for good and an etag that changes when
 * the record does (here, when it ceases).
 */
import type { SyntheticCompany } from './companies.ts';
import { fastFromDayNumber } from './dates.ts';
import type { PscEntry } from './psc-company.ts';
import { naturesOfControl } from './psc-natures.ts';
import { printedName } from './psc-people.ts';
import { labelSeed, mixSeed } from './random.ts';
import { verificationOnDay } from './identity-verification.ts';

export type RenderedKind = 'psc' | 'statement' | 'exemption';

const ETAG = labelSeed('psc-etag');
const SELF_ID = labelSeed('psc-self-id');
const HEX = '0123456789abcdef';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Which PSC of which company, for good: what its etag and self link are drawn from. */
interface PscId {
  seed: number;
  index: number;
  slot: number;
}

/** Forty hex digits, as Companies House's etags (sha1s) look. */
function etag({ seed, index, slot }: PscId, version: number): string {
  let out = '';
  for (let k = 0; k < 5; k++) {
    const word = mixSeed(seed, ETAG, index, slot, version, k);
    for (let shift = 28; shift >= 0; shift -= 4) out += HEX[(word >>> shift) & 15];
  }
  return out;
}

/** A 27-character id like the snapshot's ("bIhuKnMFctSnjrDjUG8n3NgOrlU"). */
function selfId({ seed, index, slot }: PscId): string {
  let out = '';
  for (let k = 0; out.length < 27; k++) {
    const word = mixSeed(seed, SELF_ID, index, slot, k);
    for (let shift = 0; shift < 30 && out.length < 27; shift += 6) out += BASE64URL[(word >>> shift) & 63];
  }
  return out;
}

const LINK_KIND: Record<PscEntry['type'], string> = {
  individual: 'individual',
  corporate: 'corporate-entity',
  'legal-person': 'legal-person',
  'super-secure': 'super-secure',
  statement: '',
  exemption: '',
};

export const RENDERED_KIND: Record<PscEntry['type'], RenderedKind> = {
  individual: 'psc',
  corporate: 'psc',
  'legal-person': 'psc',
  'super-secure': 'psc',
  statement: 'statement',
  exemption: 'exemption',
};

/** A PSC entry of a company of the generator, as it stood on a day. */
export interface PscEntryOnDay {
  seed: number;
  company: SyntheticCompany;
  entry: PscEntry;
  /** Days since 1970-01-01. */
  day: number;
}

/** What every kind of line is written from besides the entry itself. */
interface LineFacts {
  /** The `links.self` of the entry under the company's `section` (e.g. `persons-with-significant-control/individual`). */
  self(section: string): string;
  ceased: boolean;
  ceasedOn: string | undefined;
  etag: string;
  notifiedOn: string;
  llp: boolean;
  /** An individual's `identity_verification_details` on the day (as of its cessation once ceased). */
  verification: Record<string, string> | undefined;
}

type EntryOf<T extends PscEntry['type']> = Extract<PscEntry, { type: T }>;

/**
 * The snapshot line of `entry` as it stood on `day`, or null when it had not been notified by then.
 */
export function renderPscEntry({ seed, company, entry, day }: PscEntryOnDay): string | null {
  if (entry.notified > day) return null;
  const number = company.company_number;
  const id: PscId = { seed, index: company.index, slot: entry.slot };
  const ceased = entry.ceased !== null && entry.ceased <= day;
  // Individuals verify their identity; a ceased one's record stays as it was when it ceased.
  const verification =
    entry.type === 'individual'
      ? verificationOnDay(seed, [company.index, entry.slot], entry.notified, ceased ? entry.ceased! : day)
      : { details: undefined, stage: 0 };
  const facts: LineFacts = {
    self: (section) => `/company/${number}/${section}/${selfId(id)}`,
    ceased,
    ceasedOn: ceased ? fastFromDayNumber(entry.ceased!) : undefined,
    // The etag changes when the record does: when it ceases, and as its verification goes on.
    etag: etag(id, (ceased ? 1 : 0) + 2 * verification.stage),
    notifiedOn: fastFromDayNumber(entry.notified),
    llp: company.legalForm === 'llp',
    verification: verification.details,
  };
  // JSON.stringify leaves out the keys whose value is undefined, as the snapshot leaves out fields.
  return JSON.stringify({ company_number: number, data: entryData(entry, facts, number) });
}

/** The `data` of the line, its keys in alphabetical order as Companies House writes them. */
function entryData(entry: PscEntry, facts: LineFacts, number: string): Record<string, unknown> {
  switch (entry.type) {
    case 'individual':
      return individualData(entry, facts);
    case 'corporate':
    case 'legal-person':
      return entityData(entry, facts);
    case 'super-secure':
      return {
        ceased: facts.ceased,
        description: 'super-secure-persons-with-significant-control',
        etag: facts.etag,
        kind: 'super-secure-person-with-significant-control',
        links: { self: facts.self('persons-with-significant-control/super-secure') },
      };
    case 'statement':
      return {
        ceased_on: facts.ceasedOn,
        etag: facts.etag,
        kind: 'persons-with-significant-control-statement',
        links: { self: facts.self('persons-with-significant-control-statements') },
        notified_on: facts.notifiedOn,
        statement: entry.statement,
      };
    case 'exemption':
      return {
        etag: facts.etag,
        exemptions: {
          psc_exempt_as_trading_on_regulated_market: {
            exemption_type: 'psc-exempt-as-trading-on-regulated-market',
            items: [{ exempt_from: facts.notifiedOn }],
          },
        },
        kind: 'exemptions',
        links: { self: `/company/${number}/exemptions` },
      };
  }
}

function individualData(entry: EntryOf<'individual'>, facts: LineFacts): Record<string, unknown> {
  const p = entry.person;
  return {
    address: p.address,
    ceased_on: facts.ceasedOn,
    country_of_residence: p.country_of_residence,
    date_of_birth: { month: p.birth_month, year: p.birth_year },
    etag: facts.etag,
    identity_verification_details: facts.verification,
    kind: 'individual-person-with-significant-control',
    links: { self: facts.self('persons-with-significant-control/individual') },
    name: printedName(p),
    name_elements: {
      forename: p.forename,
      middle_name: p.middle_name ?? undefined,
      surname: p.surname,
      title: p.title ?? undefined,
    },
    nationality: p.nationality,
    natures_of_control: naturesOfControl(entry.holding, facts.llp),
    notified_on: facts.notifiedOn,
  };
}

function entityData(entry: EntryOf<'corporate' | 'legal-person'>, facts: LineFacts): Record<string, unknown> {
  return {
    address: entry.entity.address,
    ceased_on: facts.ceasedOn,
    etag: facts.etag,
    identification: entry.entity.identification,
    kind: `${LINK_KIND[entry.type]}-person-with-significant-control`,
    links: { self: facts.self(`persons-with-significant-control/${LINK_KIND[entry.type]}`) },
    name: entry.entity.name,
    natures_of_control: naturesOfControl(entry.holding, facts.llp),
    notified_on: facts.notifiedOn,
  };
}
