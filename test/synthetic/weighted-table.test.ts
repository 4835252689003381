/** WeightedTable: picks in proportion to weight, one draw a pick, like Random.weighted. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Random } from '../../src/synthetic/random.ts';
import { WeightedTable } from '../../src/synthetic/weighted-table.ts';

describe('WeightedTable', () => {
  const cases: { name: string; entries: [string, number][] }[] = [
    {
      name: 'two values',
      entries: [
        ['a', 1],
        ['b', 3],
      ],
    },
    {
      name: 'a value of weight zero is never picked',
      entries: [
        ['a', 2],
        ['never', 0],
        ['c', 2],
      ],
    },
    { name: 'many values', entries: Array.from({ length: 40 }, (_, i): [string, number] => [`v${i}`, i + 1]) },
  ];
  for (const { name, entries } of cases) {
    test(`picks in proportion to weight: ${name}`, () => {
      const table = new WeightedTable(entries);
      const rng = new Random(11);
      const counts = new Map<string, number>();
      const draws = 200_000;
      for (let i = 0; i < draws; i++) {
        const value = table.pick(rng);
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      for (const [value, weight] of entries) {
        const got = (counts.get(value) ?? 0) / draws;
        assert.ok(Math.abs(got - weight / total) < 0.01, `${value}: ${got} vs ${weight / total}`);
      }
    });
  }

  test('takes one draw a pick, as Random.weighted does', () => {
    const a = new Random(3);
    const b = new Random(3);
    new WeightedTable([
      ['x', 1],
      ['y', 1],
    ]).pick(a);
    b.next();
    assert.equal(a.next(), b.next());
  });

  test('refuses an empty table', () => {
    assert.throws(() => new WeightedTable([]), /no entries/);
  });
});
