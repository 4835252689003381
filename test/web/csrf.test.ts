import assert from 'node:assert/strict';
import { test } from 'node:test';
import { comesFromThisSite, csrfTokenMatches, newCsrfToken } from '../../src/web/csrf.ts';

const own = 'https://ukcd.example';

const origins: { name: string; secFetchSite?: string; origin?: string; want: boolean }[] = [
  { name: 'same-origin fetch metadata', secFetchSite: 'same-origin', origin: own, want: true },
  { name: 'a typed URL or bookmark (none)', secFetchSite: 'none', want: true },
  { name: 'another site, even with our Origin claimed', secFetchSite: 'cross-site', origin: own, want: false },
  { name: 'a sibling subdomain', secFetchSite: 'same-site', want: false },
  { name: 'no fetch metadata, our Origin', origin: own, want: true },
  { name: 'no fetch metadata, another Origin', origin: 'https://evil.example', want: false },
  { name: 'no fetch metadata, Origin null (sandboxed frame)', origin: 'null', want: false },
  { name: 'neither header: left to the token', want: true },
  { name: 'fetch metadata in capitals', secFetchSite: 'Same-Origin', want: true },
];

for (const c of origins)
  test(`comesFromThisSite: ${c.name}`, () => {
    assert.equal(comesFromThisSite({ secFetchSite: c.secFetchSite, origin: c.origin, ownOrigin: own }), c.want);
  });

const token = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const tokens: { name: string; expected: string; presented: unknown; want: boolean }[] = [
  { name: 'the same token', expected: token, presented: token, want: true },
  { name: 'one character different', expected: token, presented: `${token.slice(0, -1)}H`, want: false },
  { name: 'a prefix of it', expected: token, presented: token.slice(0, 10), want: false },
  { name: 'missing', expected: token, presented: undefined, want: false },
  { name: 'repeated field (an array)', expected: token, presented: [token, token], want: false },
  { name: 'empty expected never matches', expected: '', presented: '', want: false },
];

for (const c of tokens)
  test(`csrfTokenMatches: ${c.name}`, () => {
    assert.equal(csrfTokenMatches(c.expected, c.presented), c.want);
  });

test('newCsrfToken: 43 base64url characters, a new one each time', () => {
  const a = newCsrfToken();
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, newCsrfToken());
});
