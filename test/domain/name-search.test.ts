import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  allowedEdits,
  editDistance,
  nearMatchDistance,
  nearMatches,
  wordStartSuffixes,
} from '../../src/domain/name-search.ts';

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

test('editDistance: letters wrong, missing, added, or two neighbours swapped are one edit each', () => {
  const cases: [a: string, b: string, bound: number, want: number][] = [
    ['TESCO', 'TESCO', 2, 0],
    ['TESOC', 'TESCO', 2, 1],
    ['TSECO', 'TESCO', 2, 1],
    ['TESC', 'TESCO', 2, 1],
    ['TESCOS', 'TESCO', 2, 1],
    ['TEXCO', 'TESCO', 2, 1],
    ['SAINSBRYS', 'SAINSBURY', 2, 2],
    ['TESCOS', 'ATESCO', 2, 2],
    ['ABC', 'XYZ', 1, 2],
    ['A', 'ABCDEF', 2, 3],
    ['', 'AB', 2, 2],
  ];
  for (const [a, b, bound, want] of cases) assert.equal(editDistance(a, b, bound), want, `${a} ${b}`);
});

test('allowedEdits: none up to two letters, one up to five, two from six (Elasticsearch AUTO)', () => {
  assert.deepEqual(['J', 'AB', 'ABC', 'TESCO', 'TESCOS', 'SAINSBURY'].map(allowedEdits), [0, 0, 1, 1, 2, 2]);
});

test('nearMatchDistance: every word starts a name word or is within its edits of one; a word match is no near match', () => {
  const cases: [name: string, query: string, want: number | null][] = [
    ['TESCO', 'TESOC', 1],
    ['J SAINSBURY', 'SAINSBRYS', 2],
    ['MARKS AND SPENCER GROUP', 'MARKS AND SPENSER', 1],
    ['MARKS AND SPENCER GROUP', 'MARK AND SPENSER', 1],
    ['MARKS AND SPENCER GROUP', 'MARKS SPENSR GROPU', 3],
    ['TESCO', 'TESC', null],
    ['TESCO STORES', 'TSECO STORSE', 2],
    ['TESCO', 'TSOC', null],
    ['AB', 'AC', null],
    ['TESCO', 'TESOC ZEBRA', null],
  ];
  for (const [name, query, want] of cases)
    assert.equal(nearMatchDistance(name, query.split(' ')), want, `${name} / ${query}`);
});

test('nearMatches: fewest edits, then active, then shorter name, then company number; limited', () => {
  const hit = (company_number: string, name: string, status = 'Active') => ({
    company_number,
    name,
    status,
    type: 'Private Limited Company',
    post_town: null,
    incorporated: null,
    sic_codes: [],
  });
  const candidates = [
    hit('4', 'ATESCO TRADING LTD'),
    hit('3', 'TESCO STORES LTD', 'Dissolved'),
    hit('2', 'TESCO STORES LTD'),
    hit('1', 'TESCO PLC'),
    hit('5', 'TESCOS'),
    hit('6', 'ZEBRA'),
  ];
  assert.deepEqual(
    nearMatches(candidates, ['TESCOS'], 10).map((h) => h.company_number),
    ['1', '2', '3', '4'],
  );
  assert.deepEqual(
    nearMatches(candidates, ['TESCOS'], 2).map((h) => h.company_number),
    ['1', '2'],
  );
});
