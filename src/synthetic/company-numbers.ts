/**
 * Company numbers and the incorporation dates they imply.
 *
 * Companies House numbers are issued in sequence, so a number dates its company: 00225951 is a
 * pre-war company, 14033910 was incorporated in 2022. Each register (England and Wales digits,
 * SC Scotland, NI Northern Ireland, OC limited liability partnerships) has its own sequence. We
 * give every company index its own number, never reused (a bijection per register), and read the
 * incorporation date back off a timeline of how the sequences advanced.
 *
 * The timelines follow the real sequences to early 2024 and run on at about the recent rate to
 * late 2028, so that a snapshot of any day until then lists companies incorporated in the two years
 * before it (the young_and_funded trigger looks for them). A number issued after a snapshot's day
 * is not on that snapshot.
 */
import { isoDate, lastDayOfMonth } from './dates.ts';

export type Register = 'england-wales' | 'scotland' | 'northern-ireland' | 'llp';

interface NumberSpace {
  register: Register;
  prefix: '' | 'SC' | 'NI' | 'OC';
  low: number;
  size: number;
  /** Multiplier of the index permutation; coprime with `size`. */
  stride: number;
  /** [number, fractional year] points the sequence passed through. */
  timeline: readonly (readonly [number, number])[];
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** A number space from its first and last numbers (`high` not issued) and the timeline it follows. */
function space({
  register,
  prefix,
  low,
  high,
  timeline,
}: Pick<NumberSpace, 'register' | 'prefix' | 'low' | 'timeline'> & { high: number }): NumberSpace {
  const size = high - low;
  // A stride near the golden ratio of the range scatters consecutive indices across the sequence.
  let stride = Math.floor(size * 0.6180339887);
  while (gcd(stride, size) !== 1) stride++;
  return { register, prefix, low, size, stride, timeline };
}

const ENGLAND_WALES = space({
  register: 'england-wales',
  prefix: '',
  low: 100_000,
  high: 19_000_000,
  timeline: [
    [100_000, 1912],
    [500_000, 1951.5],
    [1_000_000, 1971],
    [1_500_000, 1980.5],
    [2_000_000, 1985.6],
    [2_500_000, 1990.4],
    [3_000_000, 1995],
    [3_500_000, 1998],
    [4_000_000, 2000.4],
    [5_000_000, 2003.9],
    [6_000_000, 2006.9],
    [7_000_000, 2009.6],
    [8_000_000, 2012.3],
    [9_000_000, 2014.4],
    [10_000_000, 2016.2],
    [11_000_000, 2017.8],
    [12_000_000, 2019.4],
    [13_000_000, 2020.9],
    [14_000_000, 2022.2],
    [15_000_000, 2023.6],
    [15_400_000, 2024.2],
    [16_200_000, 2025.2],
    [19_000_000, 2028.9],
  ],
});
const SCOTLAND = space({
  register: 'scotland',
  prefix: 'SC',
  low: 20_000,
  high: 960_000,
  timeline: [
    [20_000, 1945],
    [100_000, 1986.5],
    [200_000, 1999.6],
    [300_000, 2006.2],
    [400_000, 2011.3],
    [500_000, 2015.1],
    [600_000, 2018.4],
    [700_000, 2021.3],
    [800_000, 2024.2],
    [960_000, 2028.9],
  ],
});
const NORTHERN_IRELAND = space({
  register: 'northern-ireland',
  prefix: 'NI',
  low: 20_000,
  high: 733_000,
  timeline: [
    [20_000, 1986],
    [60_000, 2006.5],
    [600_000, 2009.5],
    [620_000, 2013.8],
    [650_000, 2018.4],
    [680_000, 2021.4],
    [700_000, 2024.2],
    [733_000, 2028.9],
  ],
});
const LLP = space({
  register: 'llp',
  prefix: 'OC',
  low: 300_000,
  high: 473_000,
  timeline: [
    [300_000, 2001.3],
    [350_000, 2009.6],
    [400_000, 2015.6],
    [437_000, 2021.3],
    [450_000, 2024],
    [473_000, 2028.9],
  ],
});

/**
 * Out of every hundred consecutive indices: 86 English and Welsh companies, 7 Scottish, 3 from
 * Northern Ireland, 4 LLPs. Interleaved so that any run of indices has the mix.
 */
const SLOTS: readonly NumberSpace[] = (() => {
  const slots: NumberSpace[] = [];
  for (let i = 0; i < 100; i++) {
    if (i % 14 === 3) slots.push(SCOTLAND);
    else if (i % 33 === 16) slots.push(NORTHERN_IRELAND);
    else if (i % 25 === 11) slots.push(LLP);
    else slots.push(ENGLAND_WALES);
  }
  return slots;
})();

const SLOT_RANK: readonly number[] = SLOTS.map((s, i) => SLOTS.slice(0, i).filter((t) => t === s).length);
const SLOT_COUNT = new Map<NumberSpace, number>(
  [ENGLAND_WALES, SCOTLAND, NORTHERN_IRELAND, LLP].map((s) => [s, SLOTS.filter((t) => t === s).length]),
);

export interface IssuedNumber {
  companyNumber: string;
  register: Register;
  incorporated: string;
}

/**
 * The number of company `index` under `seed`, and when it was incorporated. Distinct indices get
 * distinct numbers up to several million companies per register.
 */
export function issueNumber(seed: number, index: number, dayJitter: number): IssuedNumber {
  const slot = index % 100;
  const numberSpace = SLOTS[slot]!;
  const ordinal = Math.floor(index / 100) * SLOT_COUNT.get(numberSpace)! + SLOT_RANK[slot]!;
  const offset =
    (numberSpace.stride * (ordinal % numberSpace.size) + ((seed >>> 0) % numberSpace.size)) % numberSpace.size;
  const value = numberSpace.low + offset;
  const digits = numberSpace.prefix === '' ? 8 : 6;
  return {
    companyNumber: numberSpace.prefix + String(value).padStart(digits, '0'),
    register: numberSpace.register,
    incorporated: dateOnTimeline(numberSpace.timeline, value, dayJitter),
  };
}

function dateOnTimeline(timeline: NumberSpace['timeline'], value: number, dayJitter: number): string {
  let year = timeline[timeline.length - 1]![1];
  for (let i = 1; i < timeline.length; i++) {
    const [n1, y1] = timeline[i]!;
    if (value <= n1) {
      const [n0, y0] = timeline[i - 1]!;
      year = y0 + ((value - n0) / (n1 - n0)) * (y1 - y0);
      break;
    }
  }
  const whole = Math.floor(year);
  const dayOfYear = Math.min(364, Math.max(0, Math.floor((year - whole) * 365) + dayJitter));
  const month0 = Math.min(11, Math.floor(dayOfYear / 30.5));
  const day = Math.min(lastDayOfMonth(whole, month0 + 1), Math.max(1, dayOfYear - Math.floor(month0 * 30.5) + 1));
  return isoDate(whole, month0 + 1, day);
}
