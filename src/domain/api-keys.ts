/**
 * API keys and plans, as the contract fixes them: a key is `ukcd_` and 32 letters or digits, it
 * is stored only as its SHA-256, operators know it by its first 13 characters, and the monthly
 * quota resets on the 1st of each month at 00:00 UTC.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface PlanLimits {
  monthly_quota: number;
  watchlist_limit: number;
  /** Webhook endpoints a key may register. */
  webhook_limit: number;
}

export const PLANS = {
  free: { monthly_quota: 50, watchlist_limit: 5, webhook_limit: 1 },
  pro: { monthly_quota: 5000, watchlist_limit: 50, webhook_limit: 10 },
} as const satisfies Record<string, PlanLimits>;

export type PlanName = keyof typeof PLANS;

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** Free keys one client address may obtain per hour (`POST /v1/keys/free`). */
export const FREE_KEYS_PER_IP_PER_HOUR = 10;

const API_KEY_PREFIX = 'ukcd_';
const RANDOM_LENGTH = 32;
/** `ukcd_` and 8 random characters: what operators see of a key. */
const KEY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The largest multiple of 62 a byte can hold: bytes from here up are dropped, so that every
// character is equally likely (a plain `byte % 62` would favour the first 8).
const UNBIASED_BYTE_LIMIT = 256 - (256 % ALPHABET.length);
const API_KEY = /^ukcd_[A-Za-z0-9]{32}$/;

/** A new random key: `ukcd_` and 32 characters of [A-Za-z0-9], about 190 bits. */
export function generateApiKey(): string {
  let key = API_KEY_PREFIX;
  while (key.length < API_KEY_PREFIX.length + RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      key += ALPHABET[byte % ALPHABET.length];
      if (key.length === API_KEY_PREFIX.length + RANDOM_LENGTH) break;
    }
  }
  return key;
}

/** What the store keeps of a key: the SHA-256 of the whole key, as lower-case hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The first 13 characters (`ukcd_` and 8 more), which name a key to operators. */
export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}

/** Whether `text` has the shape of a key (not whether such a key exists). */
export function looksLikeApiKey(text: string): boolean {
  return API_KEY.test(text);
}

/** The usage month `date` counts against, "YYYY-MM" in UTC. */
export function usageMonth(date: Date): string {
  checkDate(date);
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** When the quota of `date`'s month resets: the 1st of the next month, 00:00 UTC. */
export function nextMonthStart(date: Date): Date {
  checkDate(date);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

function checkDate(date: Date): void {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid date');
}

export type Plan = 'free' | 'pro';

export interface ApiKeyRecord {
  id: number;
  /** The first characters of the key (`ukcd_` and 8 more), shown to operators; never the key. */
  prefix: string;
  plan: Plan;
  email: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface QuotaTake {
  counted: boolean;
  left: number;
}
