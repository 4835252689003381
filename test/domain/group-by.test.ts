import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupBy, groupByEach } from '../../src/domain/group-by.ts';

test('groupBy keeps the groups in the order their first item came, and the items in theirs', () => {
  const groups = groupBy(['b1', 'a1', 'b2', 'c1', 'a2'], (item) => item[0]);
  assert.deepEqual(
    [...groups],
    [
      ['b', ['b1', 'b2']],
      ['a', ['a1', 'a2']],
      ['c', ['c1']],
    ],
  );
  assert.deepEqual([...groupBy([], (item: string) => item)], []);
});

test('groupByEach puts an item in the group of each of its keys, and in none when it has none', () => {
  const keys = [['x', 'y'], [], ['y']];
  const groups = groupByEach(['first', 'second', 'third'], (_, i) => keys[i]!);
  assert.deepEqual(
    [...groups],
    [
      ['x', ['first']],
      ['y', ['first', 'third']],
    ],
  );
});
