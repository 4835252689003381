/**
 * Standard Webhooks 1.0 signatures (the scheme of Svix, Supabase, Kong and others), so that any of
 * their verification libraries checks ours. Pure: no clock, no I/O; randomness only in
 * newWebhookSecret, and injectable there.
 *
 * A secret is `whsec_` and the base64 of its key bytes. The signature of one attempt is the base64
 * HMAC-SHA256, keyed by those bytes, of `<webhook-id>.<webhook-timestamp>.<body>`, sent as
 * `v1,<signature>`; while a secret is being rotated the old and the new one both sign, and the
 * header carries both signatures separated by a space.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** Bytes of key in a secret we issue: 32, the size of the HMAC-SHA256 block's hash. */
export const SECRET_BYTES = 32;

/**
 * Key sizes a secret may decode to. The Standard Webhooks specification asks for 24 to 64 bytes;
 * a shorter key is a mistake to refuse, not a secret to sign with.
 */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A new secret: `whsec_` and the base64 of 32 random bytes. Shown to its owner once. */
export function newWebhookSecret(random: (size: number) => Uint8Array = randomBytes): string {
  const bytes = random(SECRET_BYTES);
  if (bytes.length !== SECRET_BYTES) throw new Error(`newWebhookSecret: the source gave ${bytes.length} bytes`);
  return SECRET_PREFIX + Buffer.from(bytes).toString('base64');
}

/** The HMAC key of a secret: the bytes its base64 after `whsec_` stands for. Throws on a malformed secret. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error(`A webhook secret starts with ${SECRET_PREFIX}.`);
  const encoded = secret.slice(SECRET_PREFIX.length);
  // Buffer.from(…, 'base64') skips what is not base64 silently; a typo must not become another key.
  if (!BASE64.test(encoded)) throw new Error('A webhook secret is whsec_ and standard base64.');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES) {
    throw new Error(`A webhook secret's key is ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes; this one is ${key.length}.`);
  }
  return key;
}

/** What one attempt is signed over. `timestamp` is whole seconds since the epoch, as sent in `webhook-timestamp`. */
export interface SignedMessage {
  id: string;
  timestamp: number;
  /** The exact body sent: the signature covers these characters, so the body must not be re-serialised after. */
  body: string;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under one secret. */
export function signature(secret: string, message: SignedMessage): string {
  if (!Number.isSafeInteger(message.timestamp) || message.timestamp < 0) {
    throw new Error(`A webhook timestamp is whole seconds since the epoch, not ${message.timestamp}.`);
  }
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${message.id}.${message.timestamp}.${message.body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The `webhook-signature` header: one signature per secret, in the order given (the current
 * secret first, then the one being rotated out), separated by spaces.
 */
export function signatureHeader(secrets: readonly string[], message: SignedMessage): string {
  if (secrets.length === 0) throw new Error('signatureHeader: no secret to sign with');
  return secrets.map((secret) => signature(secret, message)).join(' ');
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(
  secrets: readonly string[],
  message: SignedMessage,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': signatureHeader(secrets, message),
  };
}

/** `webhook-timestamp` for an attempt made at `at`: whole seconds since the epoch. */
export function webhookTimestamp(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}
