/**
 * A small seeded pseudo-random generator for the synthetic data: the same seed always gives the
 * same sequence, on every platform, so generated filings are reproducible byte for byte.
 *
 * The core is mulberry32 (32-bit state, period 2^32), which is plenty for picking words and
 * shaping figures and costs a handful of integer operations per draw. Independent streams are
 * derived with `mixSeed` rather than by sharing one generator, so that adding a draw in one place
 * (say the name of a company) never shifts the figures of another.
 */

/** Combine numbers into one well-mixed 32-bit seed (murmur3-style finalisation of each step). */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    // Fold doubles (and negatives) into 32 bits without losing their high digits.
    let k = (part | 0) ^ Math.floor(part / 4294967296);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a short label, to name a derived stream ("names", "figures"). */
export function labelSeed(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A mulberry32 stream with the helpers the generator needs. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A derived generator, independent of this one's future draws. */
  static derive(...parts: number[]): Random {
    return new Random(mixSeed(...parts));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform real in [min, max). */
  uniform(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick: no items to pick from');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of `entries`, with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal by Box-Muller; no cached spare, so every call costs exactly two draws. */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and log-scale spread: the shape of company sizes. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(this.normal(0, sigma));
  }
}

/**
 * The wait, in whole days (at least one), until the next of events that come at random at
 * `perYear` a year: the exponential gap of a Poisson process, one draw.
 */
export function exponentialDays(rng: Random, perYear: number): number {
  return Math.max(1, Math.ceil((-Math.log(1 - rng.next()) / perYear) * 365.25));
}
