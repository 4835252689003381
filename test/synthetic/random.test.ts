/** The seeded generator: reproducible, and its helpers stay in range. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { labelSeed, mixSeed, Random } from '../../src/synthetic/random.ts';

function draws(seed: number, count: number): number[] {
  const rng = new Random(seed);
  return Array.from({ length: count }, () => rng.next());
}

describe('Random', () => {
  test('the same seed gives the same sequence; another seed another one', () => {
    assert.deepEqual(draws(42, 100), draws(42, 100));
    assert.notDeepEqual(draws(42, 100), draws(43, 100));
  });

  const ranges: { name: string; draw: (rng: Random) => number; min: number; max: number; integer: boolean }[] = [
    { name: 'next is in [0, 1)', draw: (r) => r.next(), min: 0, max: 0.999999999, integer: false },
    { name: 'int includes both ends', draw: (r) => r.int(-3, 3), min: -3, max: 3, integer: true },
    { name: 'uniform is in [min, max)', draw: (r) => r.uniform(10, 20), min: 10, max: 19.99999999, integer: false },
    { name: 'logNormal is positive', draw: (r) => r.logNormal(50_000, 0.8), min: 1e-9, max: Infinity, integer: false },
  ];
  for (const { name, draw, min, max, integer } of ranges) {
    test(name, () => {
      const rng = new Random(7);
      const seen = new Set<number>();
      for (let i = 0; i < 5000; i++) {
        const value = draw(rng);
        assert.ok(value >= min && value <= max, `${value} out of [${min}, ${max}]`);
        if (integer) assert.ok(Number.isInteger(value));
        seen.add(value);
      }
      if (integer) assert.equal(seen.size, max - min + 1, 'every integer in the range comes up');
    });
  }

  test('normal has about the mean and spread asked for', () => {
    const rng = new Random(3);
    const values = Array.from({ length: 20_000 }, () => rng.normal(5, 2));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    assert.ok(Math.abs(mean - 5) < 0.05, `mean ${mean}`);
    assert.ok(Math.abs(sd - 2) < 0.05, `sd ${sd}`);
  });

  test('pick, weighted and chance follow their odds', () => {
    const rng = new Random(9);
    const counts = { a: 0, b: 0 };
    let hits = 0;
    for (let i = 0; i < 20_000; i++) {
      counts[
        rng.weighted<'a' | 'b'>([
          ['a', 3],
          ['b', 1],
        ])
      ]++;
      if (rng.chance(0.2)) hits++;
      assert.ok(['x', 'y', 'z'].includes(rng.pick(['x', 'y', 'z'])));
    }
    assert.ok(Math.abs(counts.a / 20_000 - 0.75) < 0.02);
    assert.ok(Math.abs(hits / 20_000 - 0.2) < 0.02);
    assert.throws(() => rng.pick([]), /no items/);
  });

  test('derived streams depend on every part and on the order of parts', () => {
    assert.equal(mixSeed(1, 2, 3), mixSeed(1, 2, 3));
    assert.notEqual(mixSeed(1, 2, 3), mixSeed(3, 2, 1));
    assert.notEqual(mixSeed(1, 2), mixSeed(1, 2, 0));
    assert.notEqual(labelSeed('figures'), labelSeed('render'));
    assert.deepEqual(
      draws(mixSeed(5, 6), 10),
      (() => {
        const r = Random.derive(5, 6);
        return Array.from({ length: 10 }, () => r.next());
      })(),
    );
  });
});
