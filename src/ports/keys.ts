/**
 * API keys and their monthly usage: the keys operators and the sign-up page create, and the quota
 * every API call counts. Adapter: src/adapters/postgres/key-store.ts.
 */
import type { ApiKeyRecord, Plan, QuotaTake } from '../domain/api-keys.ts';

/** The keys themselves: created, found, listed and revoked. */
interface KeyRegistry {
  /**
   * Store a new key by its hash. With `freeLimit`, a free key for `clientIp` is refused (null)
   * when that address already received `freeLimit.count` keys since `freeLimit.since`; the check
   * and the insert are one atomic step. `createdAt` (ISO date-time) is when the key is created by
   * the caller's clock, the one `freeLimit.since` is read on; the database's clock when omitted.
   */
  createKey(input: {
    hash: string;
    prefix: string;
    plan: Plan;
    email: string | null;
    clientIp: string | null;
    createdAt?: string;
    freeLimit?: { count: number; since: string };
  }): Promise<ApiKeyRecord | null>;
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** Keys whose prefix starts with `prefix` (all without), with their usage in `month` ("2026-11"). */
  listKeys(month: string, prefix?: string): Promise<(ApiKeyRecord & { used: number })[]>;
  /** Revoke the keys whose prefix starts with `prefix`; returns those revoked now. */
  revokeKeys(prefix: string): Promise<ApiKeyRecord[]>;
}

/** The monthly quota each call counts against its key. */
interface KeyUsage {
  /**
   * Count one request against the key's quota for `month`, atomically: of N concurrent calls on a
   * key with R requests left, exactly min(N, R) succeed. Returns the count after this request, or
   * null (nothing counted) when the quota was already used up.
   */
  consumeRequest(keyId: number, month: string, limit: number): Promise<number | null>;
  /**
   * Count `count` requests at once (a batch call), all or none, in one atomic statement: a key
   * with fewer than `count` left has nothing counted. `left` is what remains after counting, or,
   * when refused, what the statement found left.
   */
  consumeRequests(keyId: number, month: string, limit: number, count: number): Promise<QuotaTake>;
  /** Give back `count` (default 1) requests counted for a call that then failed on our side. */
  refundRequest(keyId: number, month: string, count?: number): Promise<void>;
  /**
   * findByHash and consumeRequests in one atomic statement, one round trip (every API call makes
   * both): the key with this hash, or null; and, only when it is not revoked, `count` requests
   * counted against its plan's limit in `limits` for `month`, all or none (`take` null for a
   * revoked key, which has nothing counted).
   */
  identifyAndConsume(
    hash: string,
    month: string,
    limits: Readonly<Record<Plan, number>>,
    count: number,
  ): Promise<{ key: ApiKeyRecord; take: QuotaTake | null } | null>;
}

export interface KeyStore extends KeyRegistry, KeyUsage {}
