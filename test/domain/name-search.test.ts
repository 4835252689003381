import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordStartSuffixes } from '../../src/domain/name-search.ts';

test('wordStartSuffixes: the name from each word to its end', () => {
  const cases: [string, string[]][] = [
    ['', []],
    ['tesco', ['tesco']],
    ['tesco stores', ['tesco stores', 'stores']],
    ['hawthorn home care', ['hawthorn home care', 'home care', 'care']],
    ['a b c d', ['a b c d', 'b c d', 'c d', 'd']],
    ['3m uk', ['3m uk', 'uk']],
  ];
  for (const [name, suffixes] of cases) assert.deepEqual(wordStartSuffixes(name), suffixes, name);
});

test('wordStartSuffixes: a phrase is a prefix of a suffix exactly when the name contains it at a word start', () => {
  const name = 'north west home care';
  const containsAtWordStart = (phrase: string) => ` ${name}`.includes(` ${phrase}`);
  for (const phrase of [
    'west home',
    'west ho',
    'home care',
    'est home',
    'north west home care',
    'care x',
    'h',
    'west  home',
  ])
    assert.equal(
      wordStartSuffixes(name).some((suffix) => suffix.startsWith(phrase)),
      containsAtWordStart(phrase),
      phrase,
    );
});
