/**
 * The life of a synthetic company on the register after incorporation: spells of trouble
 * (a proposal to strike it off, liquidation, administration, a voluntary arrangement,
 * receivership), recoveries, and in the end, for some, dissolution.
 *
 * Every company files accounts in the accounts stream, so the synthetic population is the register
 * as it stood when trouble starts being simulated (`LIFE_START`): everyone is "Active" until then.
 * From then on companies fall into trouble at rates tuned so that a snapshot shows about the real
 * mix of statuses (some 95% Active, 3–4% proposed for striking off, 1–2% in liquidation, a few in
 * the rarer states). About 2.5% of companies a year are dissolved, fewer than on the real register;
 * a dissolved company publishes no accounts after the day it was dissolved (the accounts stream,
 * `filings.ts`, stops there). Most proposals to strike off are discontinued, as the registrar's
 * mostly are.
 *
 * The life is a chain of episodes, episode n drawn from (seed, index, n) alone, so it is the same
 * whatever date it is read on: a later snapshot sees the same story, further on.
 */
import type { Sector, SizeProfile, SyntheticCompany } from './companies.ts';
import type { LegalForm } from './company-names.ts';
import { fastDayNumber, fastFromDayNumber } from './dates.ts';
import { chargesOnRegister } from './register-charges.ts';
import { exponentialDays, labelSeed, Random } from './random.ts';

/** Statuses a live company can have, spelt as the register spells them. */
export const LIVE_STATUSES = [
  'Active',
  'Active - Proposal to Strike off',
  'Liquidation',
  'In Administration',
  'Voluntary Arrangement',
  'Live but Receiver Manager on at least one charge',
  'RECEIVERSHIP',
] as const;

export type CompanyStatus = (typeof LIVE_STATUSES)[number];

/** The date trouble starts being simulated; no company leaves the register before it. */
export const LIFE_START = '2022-01-01';

interface StatusSpell {
  status: CompanyStatus;
  /** ISO date the status took effect. */
  from: string;
}

export interface CompanyLife {
  /** Statuses in order, from incorporation, up to the date asked for. */
  spells: StatusSpell[];
  /** ISO date of dissolution, when it came on or before the date asked for. */
  dissolved: string | null;
}

type Trouble =
  | 'voluntary-strike-off'
  | 'compulsory-strike-off'
  | 'liquidation'
  | 'administration'
  | 'arrangement'
  | 'receiver-manager'
  | 'receivership';

type Outcome = Trouble | 'active' | 'dissolved';

interface Episode {
  status: CompanyStatus;
  /** Spell lengths in days: [[min, max], weight]. */
  days: readonly (readonly [readonly [number, number], number])[];
  then: readonly (readonly [Outcome, number])[];
  /** Base rate a year for an active company of ordinary size. */
  rate: number;
  /** Rate multipliers by size. */
  bySize: Record<SizeProfile, number>;
  /** Only a company with an outstanding charge can have a receiver appointed. */
  needsCharge?: boolean;
}

const EPISODES: Record<Trouble, Episode> = {
  // The directors apply to strike the company off: gazetted, then dissolved two months later.
  'voluntary-strike-off': {
    status: 'Active - Proposal to Strike off',
    days: [[[63, 100], 1]],
    then: [
      ['dissolved', 92],
      ['active', 8],
    ],
    rate: 0.008,
    bySize: { dormant: 1.8, micro: 1, small: 0.7, medium: 0.4, large: 0.3 },
  },
  // The registrar proposes it for overdue filings; many file and the action is discontinued, and
  // objections suspend it for months.
  'compulsory-strike-off': {
    status: 'Active - Proposal to Strike off',
    days: [
      [[60, 120], 50],
      [[120, 720], 50],
    ],
    then: [
      ['dissolved', 20],
      ['active', 80],
    ],
    rate: 0.06,
    bySize: { dormant: 1.6, micro: 1, small: 0.6, medium: 0.3, large: 0.2 },
  },
  liquidation: {
    status: 'Liquidation',
    days: [
      [[250, 700], 40],
      [[700, 1500], 60],
    ],
    then: [['dissolved', 1]],
    rate: 0.006,
    bySize: { dormant: 0.2, micro: 1, small: 1.2, medium: 1, large: 0.6 },
  },
  administration: {
    status: 'In Administration',
    days: [[[200, 540], 1]],
    then: [
      ['liquidation', 45],
      ['dissolved', 35],
      ['active', 20],
    ],
    rate: 0.0007,
    bySize: { dormant: 0.1, micro: 0.5, small: 1.5, medium: 5, large: 6 },
  },
  arrangement: {
    status: 'Voluntary Arrangement',
    days: [[[400, 1800], 1]],
    then: [
      ['active', 60],
      ['liquidation', 40],
    ],
    rate: 0.0004,
    bySize: { dormant: 0.1, micro: 0.5, small: 2, medium: 4, large: 3 },
  },
  'receiver-manager': {
    status: 'Live but Receiver Manager on at least one charge',
    days: [[[200, 900], 1]],
    then: [
      ['active', 50],
      ['liquidation', 50],
    ],
    rate: 0.0004,
    bySize: { dormant: 0.1, micro: 1, small: 1.5, medium: 3, large: 3 },
    needsCharge: true,
  },
  receivership: {
    status: 'RECEIVERSHIP',
    days: [[[200, 900], 1]],
    then: [
      ['liquidation', 50],
      ['dissolved', 30],
      ['active', 20],
    ],
    rate: 0.0002,
    bySize: { dormant: 0.1, micro: 1, small: 1.5, medium: 3, large: 3 },
    needsCharge: true,
  },
};

const TROUBLES = Object.keys(EPISODES) as Trouble[];
const LIFE = labelSeed('register-life');
const LIFE_START_DAY = fastDayNumber(LIFE_START);
/** A company is left alone in its first year. */
const GRACE_DAYS = 365;
/** Bounds the episodes followed, whatever the rates. */
const MOST_EPISODES = 64;

interface RateTable {
  /** Rate a year of each trouble, for `Random.weighted`. */
  rates: readonly (readonly [Trouble, number])[];
  /** Their sum: the rate of trouble of any kind. */
  total: number;
}

function computeRates(company: Pick<SyntheticCompany, 'size' | 'sector' | 'legalForm'>): RateTable {
  const rates = TROUBLES.map((trouble) => {
    const episode = EPISODES[trouble];
    let rate = episode.rate * episode.bySize[company.size];
    if (trouble === 'liquidation' && company.sector === 'construction') rate *= 1.6;
    if (trouble === 'liquidation' && company.sector === 'property') rate *= 0.7;
    if (trouble === 'compulsory-strike-off' && company.sector === 'holding') rate *= 0.6;
    if (trouble === 'voluntary-strike-off' && company.legalForm === 'plc') rate *= 0.3;
    return [trouble, rate] as const;
  });
  return { rates, total: rates.reduce((sum, [, rate]) => sum + rate, 0) };
}

const SIZES: readonly SizeProfile[] = ['dormant', 'micro', 'small', 'medium', 'large'];
const SECTORS: readonly Sector[] = ['services', 'trade', 'construction', 'manufacturing', 'property', 'holding'];
const FORMS: readonly LegalForm[] = ['private-limited', 'llp', 'plc'];

// How likely each trouble is, a year: one table per size, sector and legal form, made once.
const RATES = Object.fromEntries(
  SIZES.map((size) => [
    size,
    Object.fromEntries(
      SECTORS.map((sector) => [
        sector,
        Object.fromEntries(FORMS.map((legalForm) => [legalForm, computeRates({ size, sector, legalForm })])),
      ]),
    ),
  ]),
) as Record<SizeProfile, Record<Sector, Record<LegalForm, RateTable>>>;

/** A company's standing on one day. */
export interface StatusOnDay {
  /** Status on the day asked for; null when not yet incorporated or dissolved by then. */
  status: CompanyStatus | null;
  dissolvedDay: number | null;
}

const NOT_YET: StatusOnDay = { status: null, dissolvedDay: null };

/** What happens to the company up to `day`; `onSpell` hears each status as it starts. */
function walk(
  seed: number,
  company: SyntheticCompany,
  day: number,
  onSpell?: (status: CompanyStatus, from: number) => void,
): StatusOnDay {
  const incorporated = fastDayNumber(company.incorporated);
  if (day < incorporated) return NOT_YET;
  let status: CompanyStatus = 'Active';
  onSpell?.(status, incorporated);
  const { rates, total } = RATES[company.size][company.sector][company.legalForm];
  let t = Math.max(incorporated + GRACE_DAYS, LIFE_START_DAY);
  for (let n = 0; n < MOST_EPISODES; n++) {
    const rng = Random.derive(seed, company.index, LIFE, n);
    t += exponentialDays(rng, total);
    if (t > day) break;
    let trouble: Trouble | null = rng.weighted(rates);
    while (trouble !== null) {
      const episode: Episode = EPISODES[trouble];
      if (episode.needsCharge && chargesOnRegister(seed, company, t).outstanding === 0) break;
      status = episode.status;
      onSpell?.(status, t);
      const [min, max] = rng.weighted(episode.days);
      t += rng.int(min, max);
      if (t > day) return { status, dissolvedDay: null };
      const outcome: Outcome = rng.weighted(episode.then);
      if (outcome === 'dissolved') return { status: null, dissolvedDay: t };
      if (outcome === 'active') {
        status = 'Active';
        onSpell?.(status, t);
        trouble = null;
      } else {
        trouble = outcome;
      }
    }
  }
  return { status, dissolvedDay: null };
}

/** The company's statuses from incorporation up to `until` (ISO), and its dissolution if it came. */
export function companyLife(seed: number, company: SyntheticCompany, until: string): CompanyLife {
  const spells: StatusSpell[] = [];
  const walked = walk(seed, company, fastDayNumber(until), (status, from) => {
    spells.push({ status, from: fastFromDayNumber(from) });
  });
  return { spells, dissolved: walked.dissolvedDay === null ? null : fastFromDayNumber(walked.dissolvedDay) };
}

/**
 * The company's status on `day` (days since 1970-01-01): null when it is not on the register that
 * day, not yet incorporated or already dissolved (then `dissolvedDay` says when).
 */
export function statusOnDay(seed: number, company: SyntheticCompany, day: number): StatusOnDay {
  return walk(seed, company, day);
}
