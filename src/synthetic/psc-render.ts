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

export type RenderedKind = 'psc' | 'statement' | 'exemption';

const ETAG = labelSeed('psc-etag');
const SELF_ID = labelSeed('psc-self-id');
const HEX = '0123456789abcdef';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Forty hex digits, as Companies House's etags (sha1s) look. */
function etag(seed: number, index: number, slot: number, version: number): string {
  let out = '';
  for (let k = 0; k < 5; k++) {
    const word = mixSeed(seed, ETAG, index, slot, version, k);
    for (let shift = 28; shift >= 0; shift -= 4) out += HEX[(word >>> shift) & 15];
  }
  return out;
}

/** A 27-character id like the snapshot's ("bIhuKnMFctSnjrDjUG8n3NgOrlU"). */
function selfId(seed: number, index: number, slot: number): string {
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

/**
 * The snapshot line of `entry` as it stood on `day` (days since 1970-01-01), or null when it had
 * not been notified by then.
 */
export function renderPscEntry(seed: number, company: SyntheticCompany, entry: PscEntry, day: number): string | null {
  if (entry.notified > day) return null;
  const number = company.company_number;
  const ceased = entry.ceased !== null && entry.ceased <= day;
  const ceasedOn = ceased ? fastFromDayNumber(entry.ceased!) : undefined;
  const tag = etag(seed, company.index, entry.slot, ceased ? 1 : 0);
  const notifiedOn = fastFromDayNumber(entry.notified);
  const llp = company.legalForm === 'llp';
  let data: Record<string, unknown>;
  switch (entry.type) {
    case 'individual': {
      const p = entry.person;
      data = {
        address: p.address,
        ceased_on: ceasedOn,
        country_of_residence: p.country_of_residence,
        date_of_birth: { month: p.birth_month, year: p.birth_year },
        etag: tag,
        kind: 'individual-person-with-significant-control',
        links: {
          self: `/company/${number}/persons-with-significant-control/individual/${selfId(seed, company.index, entry.slot)}`,
        },
        name: printedName(p),
        name_elements: {
          forename: p.forename,
          middle_name: p.middle_name ?? undefined,
          surname: p.surname,
          title: p.title ?? undefined,
        },
        nationality: p.nationality,
        natures_of_control: naturesOfControl(entry.holding, llp),
        notified_on: notifiedOn,
      };
      break;
    }
    case 'corporate':
    case 'legal-person':
      data = {
        address: entry.entity.address,
        ceased_on: ceasedOn,
        etag: tag,
        identification: entry.entity.identification,
        kind: `${LINK_KIND[entry.type]}-person-with-significant-control`,
        links: {
          self: `/company/${number}/persons-with-significant-control/${LINK_KIND[entry.type]}/${selfId(seed, company.index, entry.slot)}`,
        },
        name: entry.entity.name,
        natures_of_control: naturesOfControl(entry.holding, llp),
        notified_on: notifiedOn,
      };
      break;
    case 'super-secure':
      data = {
        ceased,
        description: 'super-secure-persons-with-significant-control',
        etag: tag,
        kind: 'super-secure-person-with-significant-control',
        links: {
          self: `/company/${number}/persons-with-significant-control/super-secure/${selfId(seed, company.index, entry.slot)}`,
        },
      };
      break;
    case 'statement':
      data = {
        ceased_on: ceasedOn,
        etag: tag,
        kind: 'persons-with-significant-control-statement',
        links: {
          self: `/company/${number}/persons-with-significant-control-statements/${selfId(seed, company.index, entry.slot)}`,
        },
        notified_on: notifiedOn,
        statement: entry.statement,
      };
      break;
    case 'exemption':
      data = {
        etag: tag,
        exemptions: {
          psc_exempt_as_trading_on_regulated_market: {
            exemption_type: 'psc-exempt-as-trading-on-regulated-market',
            items: [{ exempt_from: notifiedOn }],
          },
        },
        kind: 'exemptions',
        links: { self: `/company/${number}/exemptions` },
      };
      break;
  }
  // JSON.stringify leaves out the keys whose value is undefined, as the snapshot leaves out fields.
  return JSON.stringify({ company_number: number, data });
}
