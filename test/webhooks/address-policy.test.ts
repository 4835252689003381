import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MAX_URL_LENGTH,
  checkWebhookUrl,
  refusedRange,
  type Lookup,
  type ResolvedAddress,
} from '../../src/webhooks/address-policy.ts';

describe('refusedRange', () => {
  const cases: [address: string, want: string | null][] = [
    // Public unicast: acceptable.
    ['8.8.8.8', null],
    ['93.184.215.14', null],
    ['172.15.255.255', null],
    ['172.32.0.1', null],
    ['100.63.255.255', null],
    ['100.128.0.1', null],
    ['169.253.255.255', null],
    ['2606:4700:4700::1111', null],
    ['2001:4860:4860::8888', null],
    ['::ffff:8.8.8.8', null],
    // IPv4.
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['240.0.0.1', 'reserved'],
    // IPv6.
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    // IPv6 forms that carry an IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:100.64.0.1', 'carrierGradeNat'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::ffff:0:127.0.0.1', 'rfc6145'],
    ['64:ff9b::10.0.0.1', 'rfc6052'],
    ['fe80::1%eth0', 'linkLocal'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::1', '6to4'],
    ['2001:0:a00:1::1', 'teredo'],
  ];
  for (const [address, want] of cases) {
    test(`${address}: ${want ?? 'public'}`, () => assert.equal(refusedRange(address), want));
  }

  for (const text of ['example.com', '127.1', '0x7f.0.0.1', '']) {
    test(`${JSON.stringify(text)} is not an address`, () => {
      assert.throws(() => refusedRange(text), /not an IP address/);
    });
  }
});

describe('checkWebhookUrl', () => {
  /** A resolver that answers from a table, for names; throws ENOTFOUND for the rest. */
  const fakeDns =
    (table: Record<string, string[]>): Lookup =>
    async (hostname) => {
      const addresses = table[hostname];
      if (addresses === undefined)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const dns = fakeDns({
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'sneaky.example.com': ['93.184.215.14', '10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'empty.example.com': [],
  });

  const cases: {
    name: string;
    url: string;
    allowPrivate?: boolean;
    /** Literal addresses go through the system resolver, which answers them without DNS. */
    lookup?: Lookup;
    /** The addresses accepted, or a pattern of the reason refused. */
    want: string[] | RegExp;
  }[] = [
    { name: 'https to a public IPv4 literal', url: 'https://8.8.8.8/hook', want: ['8.8.8.8'] },
    {
      name: 'https to a public IPv6 literal',
      url: 'https://[2606:4700:4700::1111]:8443/h',
      want: ['2606:4700:4700::1111'],
    },
    {
      name: 'a name resolving to public addresses only',
      url: 'https://hooks.example.com/ukcd?x=1',
      lookup: dns,
      want: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    },
    { name: 'http', url: 'http://8.8.8.8/hook', want: /must use https\.$/ },
    { name: 'ftp', url: 'ftp://8.8.8.8/hook', want: /must use https\.$/ },
    { name: 'a user name and password', url: 'https://user:pw@8.8.8.8/hook', want: /user name or password/ },
    { name: 'a user name alone', url: 'https://user@8.8.8.8/hook', want: /user name or password/ },
    { name: 'not a URL', url: 'hooks.example.com/ukcd', want: /not a valid absolute URL/ },
    { name: 'too long', url: `https://8.8.8.8/${'a'.repeat(MAX_URL_LENGTH)}`, want: /longer than 2048/ },
    { name: 'loopback', url: 'https://127.0.0.1/hook', want: /resolves to 127\.0\.0\.1, .*\(loopback\)/ },
    { name: 'loopback written as one number', url: 'https://2130706433/hook', want: /127\.0\.0\.1.*\(loopback\)/ },
    { name: 'loopback written in hex', url: 'https://0x7f.1/hook', want: /127\.0\.0\.1.*\(loopback\)/ },
    { name: 'IPv6 loopback', url: 'https://[::1]/hook', want: /\(loopback\)/ },
    { name: 'IPv4-mapped loopback', url: 'https://[::ffff:127.0.0.1]/hook', want: /\(loopback\)/ },
    { name: 'RFC 1918', url: 'https://192.168.0.10/hook', want: /\(private\)/ },
    { name: 'carrier-grade NAT', url: 'https://100.100.100.100/hook', want: /\(carrierGradeNat\)/ },
    { name: 'the metadata address', url: 'http://169.254.169.254/latest/meta-data/', want: /must use https/ },
    { name: 'the metadata address over https', url: 'https://169.254.169.254/latest/', want: /\(linkLocal\)/ },
    {
      name: 'a name for the metadata address',
      url: 'https://metadata.example.com/',
      lookup: dns,
      want: /\(linkLocal\)/,
    },
    { name: '0.0.0.0', url: 'https://0.0.0.0/hook', want: /\(unspecified\)/ },
    { name: 'IPv6 unique local', url: 'https://[fd00::1]/hook', want: /\(uniqueLocal\)/ },
    { name: 'IPv6 link-local', url: 'https://[fe80::1]/hook', want: /\(linkLocal\)/ },
    {
      name: 'a name with one public and one private address',
      url: 'https://sneaky.example.com/',
      lookup: dns,
      want: /resolves to 10\.0\.0\.5, .*\(private\)/,
    },
    {
      name: 'a name that does not resolve',
      url: 'https://nowhere.example.com/',
      lookup: dns,
      want: /nowhere\.example\.com does not resolve \(ENOTFOUND\)/,
    },
    { name: 'a name with no address', url: 'https://empty.example.com/', lookup: dns, want: /does not resolve\.$/ },
    // The operator's flag: http and private addresses, but still no credentials or other schemes.
    {
      name: 'allowPrivate: http to loopback',
      url: 'http://127.0.0.1:8080/hook',
      allowPrivate: true,
      want: ['127.0.0.1'],
    },
    { name: 'allowPrivate: IPv6 loopback', url: 'https://[::1]:8443/', allowPrivate: true, want: ['::1'] },
    {
      name: 'allowPrivate: a private name',
      url: 'https://sneaky.example.com/',
      allowPrivate: true,
      lookup: dns,
      want: ['93.184.215.14', '10.0.0.5'],
    },
    {
      name: 'allowPrivate: credentials still refused',
      url: 'http://u:p@127.0.0.1/',
      allowPrivate: true,
      want: /user name or password/,
    },
    { name: 'allowPrivate: ftp still refused', url: 'ftp://127.0.0.1/', allowPrivate: true, want: /https or http/ },
  ];

  for (const { name, url, allowPrivate = false, lookup, want } of cases) {
    test(name, async () => {
      const verdict = await checkWebhookUrl(url, { allowPrivate, ...(lookup ? { lookup } : {}) });
      if (want instanceof RegExp) {
        assert.equal(verdict.ok, false, `${url} is refused`);
        if (!verdict.ok) assert.match(verdict.reason, want);
      } else {
        assert.equal(verdict.ok, true, `${url} is accepted: ${verdict.ok ? '' : verdict.reason}`);
        if (verdict.ok) {
          assert.deepEqual(
            verdict.addresses.map((a) => a.address),
            want,
          );
          assert.equal(verdict.url.href, new URL(url).href);
        }
      }
    });
  }

  test('localhost, resolved by the system, is refused; with allowPrivate it is accepted', async () => {
    const refused = await checkWebhookUrl('https://localhost/hook', { allowPrivate: false });
    assert.equal(refused.ok, false);
    if (!refused.ok) assert.match(refused.reason, /localhost resolves to (127\.0\.0\.1|::1), .*\(loopback\)/);
    const allowed = await checkWebhookUrl('http://localhost:9/hook', { allowPrivate: true });
    assert.equal(allowed.ok, true);
    if (allowed.ok) {
      assert.ok(allowed.addresses.length > 0);
      for (const { address } of allowed.addresses) assert.equal(refusedRange(address), 'loopback');
    }
  });
});
