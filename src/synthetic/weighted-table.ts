/**
 * A weighted choice made many times over the same long list (post towns, SIC codes): the
 * cumulative weights are summed once and each pick is a binary search, where `Random.weighted`
 * walks the whole list on every call. Each pick takes exactly one draw, as `weighted` does.
 */
import type { Random } from './random.ts';

export class WeightedTable<T> {
  private readonly values: T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    if (entries.length === 0) throw new Error('WeightedTable: no entries');
    this.values = entries.map(([value]) => value);
    this.cumulative = new Float64Array(entries.length);
    let total = 0;
    entries.forEach(([, weight], i) => {
      total += weight;
      this.cumulative[i] = total;
    });
    this.total = total;
  }

  pick(rng: Random): T {
    const roll = rng.next() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.cumulative[mid]! > roll) high = mid;
      else low = mid + 1;
    }
    return this.values[low]!;
  }
}
