/**
 * Which URLs webhooks may be sent to. A webhook is a request our servers make to an address a
 * caller chose, so without a policy a caller could make us reach what only we can reach: the
 * loopback interface, the private network, a cloud's metadata service (169.254.169.254). So a URL
 * must be https, carry no credentials, and every address its host resolves to must be a public
 * unicast address; the operator's allowPrivate (WEBHOOK_ALLOW_PRIVATE, for tests and closed
 * networks) lifts the address rule and allows http.
 *
 * The check runs at registration and again before every send, after DNS resolution, because a
 * name's addresses can change after it was registered. The sender should connect to one of the
 * addresses this check returns rather than resolve the name again, so that a name cannot resolve
 * to a public address for the check and a private one for the connection.
 *
 * Ranges come from ipaddr.js: an address is acceptable only when it is plain unicast there, so
 * anything it classes otherwise (loopback, private, carrier-grade NAT, link-local, unspecified,
 * broadcast, multicast, unique-local, documentation and reserved blocks, and the IPv6 forms that
 * carry an IPv4 address: 6to4, Teredo, NAT64) is refused. IPv4-mapped IPv6 addresses are judged
 * as the IPv4 address they map.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Longer URLs are refused: no receiver needs one, and they end up in logs and listings. */
export const MAX_URL_LENGTH = 2048;

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (node:dns lookup with `all`). */
export type Lookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface AddressPolicyOptions {
  /** Allow http and addresses that are not public (tests, closed networks). */
  allowPrivate: boolean;
  /** How host names are resolved; node:dns lookup of every address by default. */
  lookup?: Lookup;
}

export type UrlVerdict =
  | { ok: true; url: URL; addresses: ResolvedAddress[] }
  /** `reason` is for the caller who registered the URL: it names what is wrong. */
  | { ok: false; reason: string };

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The range that makes `address` (an IPv4 or IPv6 address in text) unacceptable as a webhook
 * destination, by ipaddr.js's name for it ('loopback', 'private', 'linkLocal', …); null for a
 * public unicast address. Throws when `address` is not an IP address.
 */
export function refusedRange(address: string): string | null {
  const version = isIP(address);
  if (version === 0) throw new Error(`refusedRange: ${address} is not an IP address`);
  let parsed: ReturnType<typeof ipaddr.parse>;
  try {
    parsed = ipaddr.parse(version === 6 ? hexTail(address) : address);
  } catch {
    // An address node accepts and ipaddr.js cannot read is refused: the check fails closed.
    return 'unrecognised';
  }
  if (parsed instanceof ipaddr.IPv6) {
    if (parsed.isIPv4MappedAddress()) return refusedRange(parsed.toIPv4Address().toString());
    const range = parsed.range();
    if (range !== 'unicast') return range;
    // ::a.b.c.d, the deprecated IPv4-compatible form (ipaddr.js calls it unicast): never a real
    // destination, and some stacks would carry it to the IPv4 address.
    return parsed.parts.slice(0, 6).every((part) => part === 0) ? 'ipv4Compatible' : null;
  }
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

/**
 * An IPv6 address with its last 32 bits as a dotted IPv4 address (`::127.0.0.1`), written with
 * two hex groups instead (`::7f00:1`), so that ipaddr.js classifies the address itself: it reads
 * the dotted tail of `::a.b.c.d` as if it were IPv4-mapped (`::ffff:a.b.c.d`).
 */
function hexTail(address: string): string {
  return address.replace(
    /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/,
    (_, a: string, b: string, c: string, d: string) => {
      const group = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16);
      return `${group(a, b)}:${group(c, d)}`;
    },
  );
}

/**
 * Whether `text` may be registered or sent to: its shape first (https, no credentials), then the
 * addresses its host resolves to. Resolves, never rejects: a name that does not resolve is a
 * refusal with a reason.
 */
export async function checkWebhookUrl(text: string, options: AddressPolicyOptions): Promise<UrlVerdict> {
  if (text.length > MAX_URL_LENGTH) return refuse(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('The URL is not a valid absolute URL.');
  }
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return refuse(options.allowPrivate ? 'The URL must use https or http.' : 'The URL must use https.');
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('The URL must not contain a user name or password; use the signing secret to authenticate.');
  }
  // The URL parser has already normalised the host: IPv4 in dotted decimal, IPv6 in brackets.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return refuse('The URL has no host.');

  let addresses: ResolvedAddress[];
  try {
    addresses = [...(await (options.lookup ?? systemLookup)(host))];
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return refuse(`The host ${host} does not resolve${typeof code === 'string' ? ` (${code})` : ''}.`);
  }
  if (addresses.length === 0) return refuse(`The host ${host} does not resolve.`);
  if (!options.allowPrivate) {
    // Every address, not the first: a name with one public and one private address would let the
    // connection pick the private one.
    for (const { address } of addresses) {
      const range = refusedRange(address);
      if (range !== null) {
        return refuse(
          `The host ${host} resolves to ${address}, which is not a public address (${range}); webhooks are sent to public addresses only.`,
        );
      }
    }
  }
  return { ok: true, url, addresses };
}

function refuse(reason: string): UrlVerdict {
  return { ok: false, reason };
}
