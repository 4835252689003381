/**
 * The PSC register of one synthetic company over time: who was notified as controlling it and
 * when, who ceased and who replaced them, and its statements and exemptions. A pure function of
 * (seed, company, block plan), read the same on every date: a snapshot shows the entries notified
 * by its date, with the cessations that came by then (psc-snapshot.ts).
 */
import type { SyntheticCompany } from './companies.ts';
import { fastDayNumber } from './dates.ts';
import { filedCompanyName, legalPerson, overseasEntity, ukParentIdentification } from './psc-entities.ts';
import type { PscEntity } from './psc-entities.ts';
import type { Band, Holding } from './psc-natures.ts';
import { pscPerson, titleCase } from './psc-people.ts';
import type { PscAddress, PscPerson } from './psc-people.ts';
import type { BlockPlan } from './psc-plan.ts';
import { PSC_BLOCK } from './psc-plan.ts';
import { labelSeed, Random } from './random.ts';
import { namesOnRegister } from './register-names.ts';
import type { RegisteredAddress } from './register-record.ts';
import { registeredAddress } from './addresses.ts';

/** The first day of the PSC regime (6 April 2016): nobody was notified before it. */
export const PSC_REGIME_START = '2016-04-06';
const REGIME_DAY = fastDayNumber(PSC_REGIME_START);

interface EntryBase {
  /** Stable number of the entry within the company: its identity from snapshot to snapshot. */
  slot: number;
  /** Days since 1970-01-01. */
  notified: number;
  ceased: number | null;
}

export type PscEntry = EntryBase &
  (
    | { type: 'individual'; person: PscPerson; holding: Holding }
    | { type: 'corporate'; entity: PscEntity; holding: Holding }
    | { type: 'legal-person'; entity: PscEntity; holding: Holding }
    | { type: 'super-secure' }
    | { type: 'statement'; statement: string }
    | { type: 'exemption' }
  );

/** An entry before it is numbered. */
type NewEntry = PscEntry extends infer E ? (E extends PscEntry ? Omit<E, 'slot'> : never) : never;

const PSC = labelSeed('psc-company');
const FRESH = labelSeed('psc-fresh-person');
const SERIAL = labelSeed('psc-serial-person');

/** Companies sharing a pool of serial owners. */
const NEIGHBOURHOOD = 10 * PSC_BLOCK;
/** Serial owners of a neighbourhood, and how many of them own most. */
const SERIAL_POOL = 250;
const SERIAL_TOP = 5;

/** A serial owner of `index`'s neighbourhood: a few of them own dozens of companies each. */
function serialPerson(seed: number, rng: Random, index: number): PscPerson {
  const rank = rng.chance(0.3) ? rng.int(0, SERIAL_TOP - 1) : rng.int(0, SERIAL_POOL - 1);
  return pscPerson(seed, SERIAL, Math.floor(index / NEIGHBOURHOOD), rank);
}

/** The top serial owner of the neighbourhood: the owner at the top of odd blocks' chains. */
function topSerialPerson(seed: number, index: number): PscPerson {
  return pscPerson(seed, SERIAL, Math.floor(index / NEIGHBOURHOOD), 0);
}

const STATEMENTS: readonly (readonly [string, number])[] = [
  ['no-individual-or-entity-with-signficant-control', 70],
  ['steps-to-find-psc-not-yet-completed', 8],
  ['psc-exists-but-not-identified', 8],
  ['psc-contacted-but-no-response', 6],
  ['psc-details-not-confirmed', 5],
  ['restrictions-notice-issued-to-psc', 3],
];

const CORPORATE_PARENT: Record<SyntheticCompany['size'], number> = {
  dormant: 0.15,
  micro: 0.04,
  small: 0.1,
  medium: 0.45,
  large: 0.65,
};

function whole(band: Band, rng: Random, via: Holding['via']): Holding {
  return {
    shares: band,
    votes: rng.chance(0.85) ? band : null,
    appoints: band !== '25-to-50' && rng.chance(0.4),
    influence: false,
    via,
  };
}

/** Trust and firm holdings are rare. */
function viaOf(rng: Random): Holding['via'] {
  const roll = rng.next();
  return roll < 0.02 ? 'trust' : roll < 0.03 ? 'firm' : null;
}

/** What each of `count` individual owners holds. */
function individualHoldings(rng: Random, count: number): Holding[] {
  const influence = (): Holding => ({ shares: null, votes: null, appoints: false, influence: true, via: null });
  if (count === 1) return [whole('75-to-100', rng, viaOf(rng))];
  if (count === 2) {
    return rng.chance(0.7)
      ? [whole('25-to-50', rng, viaOf(rng)), whole('25-to-50', rng, viaOf(rng))]
      : [whole('50-to-75', rng, viaOf(rng)), whole('25-to-50', rng, viaOf(rng))];
  }
  if (count === 3 && rng.chance(0.6)) return [0, 1, 2].map(() => whole('25-to-50', rng, viaOf(rng)));
  const holdings =
    count === 3 ? [whole('50-to-75', rng, null)] : [whole('25-to-50', rng, null), whole('25-to-50', rng, null)];
  while (holdings.length < count) holdings.push(influence());
  return holdings;
}

/** A registered office as a PSC's address is written: title case, absent parts left out. */
function officeAddress(office: RegisteredAddress): PscAddress {
  const address: PscAddress = {};
  if (office.address_line_1) address.address_line_1 = titleCase(office.address_line_1);
  if (office.address_line_2) address.address_line_2 = titleCase(office.address_line_2);
  if (office.country) address.country = titleCase(office.country);
  if (office.post_town) address.locality = titleCase(office.post_town);
  if (office.postcode) address.postal_code = office.postcode;
  if (office.county) address.region = titleCase(office.county);
  return address;
}

/** A UK company's parent as a PSC: its register name on the day it was notified, its identification. */
function ukParent(seed: number, rng: Random, parent: SyntheticCompany, notified: number): PscEntity {
  return {
    name: filedCompanyName(namesOnRegister(seed, parent, notified).name),
    identification: ukParentIdentification(rng, parent),
    address: officeAddress(registeredAddress(seed, parent, notified)),
    overseasCountry: null,
  };
}

/** The day the company's first PSCs were notified: the regime's start, or its incorporation. */
function firstNotified(rng: Random, company: SyntheticCompany): number {
  const incorporated = fastDayNumber(company.incorporated);
  if (incorporated < REGIME_DAY) return rng.chance(0.8) ? REGIME_DAY : REGIME_DAY + rng.int(1, 450);
  return rng.chance(0.7) ? incorporated : incorporated + rng.int(1, 60);
}

/** What the steps of companyPscEntries share: the company's draw and the entries so far. */
interface EntryList {
  readonly seed: number;
  readonly company: SyntheticCompany;
  readonly plan: BlockPlan;
  readonly rng: Random;
  readonly entries: PscEntry[];
  add(entry: NewEntry): void;
  /** An individual owner, a serial one (a person with many companies) 8% of the time. */
  individual(holding: Holding, notified: number, serial?: boolean): void;
}

function entryList(seed: number, company: SyntheticCompany, plan: BlockPlan): EntryList {
  const rng = Random.derive(seed, PSC, company.index);
  const entries: PscEntry[] = [];
  let slot = 0;
  const add = (entry: NewEntry) => {
    entries.push({ ...entry, slot: ++slot } as PscEntry);
  };
  const individual = (holding: Holding, notified: number, serial = rng.chance(0.08)) =>
    add({
      type: 'individual',
      person: serial ? serialPerson(seed, rng, company.index) : pscPerson(seed, FRESH, company.index, slot + 1),
      holding,
      notified,
      ceased: null,
    });
  return { seed, company, plan, rng, entries, add, individual };
}

/**
 * Every PSC, statement and exemption company `company` has had, in the order notified, with
 * cessations, some of them after any given snapshot date.
 */
export function companyPscEntries(seed: number, company: SyntheticCompany, plan: BlockPlan): PscEntry[] {
  const list = entryList(seed, company, plan);
  const first = firstNotified(list.rng, company);
  if (plannedRoleEntries(list, first)) return list.entries;
  const start = openingEntries(list, first);
  if (start === null) return list.entries;
  corporateParent(list, start);
  if (list.entries.every((e) => e.type === 'statement' || e.ceased !== null)) {
    const count = list.rng.weighted<number>([
      [1, 40],
      [2, 40],
      [3, 12],
      [4, 8],
    ]);
    for (const holding of individualHoldings(list.rng, count)) list.individual(holding, start);
  }
  laterChanges(list, start);
  return list.entries;
}

/** The PSCs of a company the block plan gives a role (a chain, a cycle, super-secure); false if none. */
function plannedRoleEntries({ seed, company, plan, rng, add, individual }: EntryList, start: number): boolean {
  const role = plan.roles.get(company.index);
  if (role?.type === 'chain') {
    const holding: Holding = { shares: '75-to-100', votes: '75-to-100', appoints: true, influence: false, via: null };
    if (role.parent !== null) {
      add({
        type: 'corporate',
        entity: ukParent(seed, rng, role.parent, start),
        holding,
        notified: start,
        ceased: null,
      });
    } else if (plan.block % 2 === 0) {
      add({
        type: 'corporate',
        entity: overseasEntity(seed, plan.block),
        holding,
        notified: start,
        ceased: null,
      });
    } else {
      add({ type: 'individual', person: topSerialPerson(seed, company.index), holding, notified: start, ceased: null });
    }
    return true;
  }
  if (role?.type === 'cycle') {
    const holding: Holding = { shares: '25-to-50', votes: '25-to-50', appoints: false, influence: false, via: null };
    add({
      type: 'corporate',
      entity: ukParent(seed, rng, role.partner, start),
      holding,
      notified: start,
      ceased: null,
    });
    individual({ shares: '50-to-75', votes: '50-to-75', appoints: true, influence: false, via: null }, start, false);
    return true;
  }
  if (role?.type === 'super-secure') {
    add({ type: 'super-secure', notified: start, ceased: null });
    return true;
  }
  return false;
}

/**
 * An exemption, an opening statement or a super-secure PSC, when the company has one; the day its
 * owners were notified, or null when it has none.
 */
function openingEntries({ company, rng, add }: EntryList, first: number): number | null {
  let start = first;
  // A listed company is exempt from keeping a PSC register.
  if (company.legalForm === 'plc' && rng.chance(0.3)) {
    add({ type: 'exemption', notified: start, ceased: null });
    return null;
  }
  // Some companies first said they had no PSC, and notified one later.
  if (company.incorporated < '2019-01-01' && rng.chance(0.1)) {
    const until = start + rng.int(30, 2000);
    add({
      type: 'statement',
      statement: 'no-individual-or-entity-with-signficant-control',
      notified: start,
      ceased: until,
    });
    start = until;
  } else if (rng.chance(0.05)) {
    // Others have no PSC to this day (or until a late notification).
    const later = rng.chance(0.3) ? start + rng.int(200, 3000) : null;
    add({ type: 'statement', statement: rng.weighted(STATEMENTS), notified: start, ceased: later });
    if (later === null) return null;
    start = later;
  }
  if (rng.chance(0.0005)) {
    add({ type: 'super-secure', notified: start, ceased: null });
    return null;
  }
  return start;
}

/** A corporate parent (a UK company, an overseas entity or a legal person), for some companies. */
function corporateParent({ seed, company, plan, rng, add }: EntryList, start: number): void {
  if (!rng.chance(company.group ? 0.3 : CORPORATE_PARENT[company.size])) return;
  const holding = whole('75-to-100', rng, null);
  const kind = rng.weighted<'uk' | 'overseas' | 'legal'>([
    ['uk', plan.parents.length > 0 ? 70 : 0],
    ['overseas', 25],
    ['legal', 5],
  ]);
  // A parent of the plan only takes a parent from before it in the plan: no cycles but the planned one.
  const parents = plan.parents.some((p) => p.index === company.index)
    ? plan.parents.filter((p) => p.index < company.index)
    : plan.parents;
  if (kind === 'uk') {
    const parent = parents.length > 0 ? rng.pick(parents) : null;
    if (parent !== null) {
      add({
        type: 'corporate',
        entity: ukParent(seed, rng, parent, start),
        holding,
        notified: start,
        ceased: null,
      });
    }
  } else if (kind === 'overseas') {
    // Overseas parents are shared by a few companies of the neighbourhood.
    const entity = overseasEntity(seed, Math.floor(company.index / NEIGHBOURHOOD), rng.int(0, 399));
    add({ type: 'corporate', entity, holding, notified: start, ceased: null });
  } else {
    add({ type: 'legal-person', entity: legalPerson(seed, rng.int(0, 199)), holding, notified: start, ceased: null });
  }
}

/** A change of control and a spell of unconfirmed details, for some companies. */
function laterChanges({ rng, entries, add, individual }: EntryList, start: number): void {
  // A change of control: an owner leaves on a day and a new one is notified the same day.
  if (rng.chance(0.3)) {
    const leaving = entries.find((e) => e.type === 'individual' && e.ceased === null);
    if (leaving?.type === 'individual') {
      const day = leaving.notified + rng.int(200, 3000);
      leaving.ceased = day;
      individual(leaving.holding, day);
    }
  }
  // A PSC whose details were not confirmed for a while.
  if (rng.chance(0.015)) {
    add({
      type: 'statement',
      statement: 'psc-details-not-confirmed',
      notified: start,
      ceased: start + rng.int(20, 400),
    });
  }
}
