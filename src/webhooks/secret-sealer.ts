/**
 * Webhook signing secrets at rest. The sender needs each secret itself to sign with (an HMAC key
 * cannot be checked against a hash the way an API key is), so secrets are stored encrypted:
 * AES-256-GCM under a 32-byte key the operator holds outside the database. A copy of the
 * database, a backup or a replica then holds no usable secret.
 *
 * Sealed text: `v1.` and the base64url of a fresh 12-byte nonce, the ciphertext and the 16-byte
 * tag. A context string (the endpoint's id) is bound in as associated data, so a sealed secret
 * copied onto another endpoint's row does not open there.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretSealer {
  /** Encrypt `plain`, bound to `context`; a new nonce each time, so sealing twice gives two texts. */
  seal(plain: string, context: string): string;
  /** Decrypt what `seal` gave with the same key and context; throws on any other text, key or context. */
  open(sealed: string, context: string): string;
}

/** A sealer under `key`, which must be 32 bytes (from parseSealerKey, or random in tests). */
export function createSecretSealer(key: Uint8Array): SecretSealer {
  if (key.length !== KEY_BYTES)
    throw new Error(`The webhook secret key must be ${KEY_BYTES} bytes, not ${key.length}.`);
  // A copy: the caller's buffer may be reused or zeroed later.
  const ownKey = Buffer.from(key);
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', ownKey, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, encoded, ...rest] = sealed.split('.');
      if (version !== VERSION || encoded === undefined || rest.length > 0) {
        throw new Error('Not a sealed webhook secret.');
      }
      const bytes = Buffer.from(encoded, 'base64url');
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('Not a sealed webhook secret.');
      const decipher = createDecipheriv('aes-256-gcm', ownKey, bytes.subarray(0, NONCE_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch (error) {
        // GCM says only "unable to authenticate": the key, the context or the text is not the one sealed.
        throw new Error('A sealed webhook secret does not open with this key (another key, or altered).', {
          cause: error,
        });
      }
    },
  };
}

/**
 * The operator's key as configured: the base64 (standard or url-safe) of 32 bytes, e.g. from
 * `openssl rand -base64 32`. Throws with a message for the operator otherwise.
 */
export function parseSealerKey(text: string): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    throw new Error(`The webhook secret key must be the base64 of ${KEY_BYTES} bytes (openssl rand -base64 32).`);
  }
  const key = Buffer.from(trimmed, trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`The webhook secret key must be ${KEY_BYTES} bytes; this one is ${key.length}.`);
  }
  return key;
}
