/**
 * Who is calling and whether they may: the bearer key, checked by its hash, and the monthly quota,
 * counted atomically in the store. Shared by the REST routes, the MCP tools and the signed-in web
 * pages, which answer the same refusals in their own way.
 */
import { hashApiKey, nextMonthStart, PLANS, usageMonth } from '../domain/api-keys.ts';
import { AppError, INVALID_KEY, MISSING_KEY } from '../errors.ts';
import type { CallContext } from '../operations/operation.ts';
import type { ApiKeyRecord, QuotaTake } from '../domain/api-keys.ts';
import type { KeyStore } from '../ports/keys.ts';
import { givesRequestsBack } from './errors.ts';
import type { CallMetrics, Channel } from './metrics.ts';

export interface Caller {
  key: ApiKeyRecord;
}

/** The key a request presents, or an AppError saying why there is none. */
export async function identifyCaller(keys: KeyStore, authorization: string | undefined): Promise<Caller> {
  const key = await keys.findByHash(presentedKeyHash(authorization));
  if (!key || key.revoked_at !== null) throw new AppError('UNAUTHORIZED', INVALID_KEY);
  return { key };
}

/** The hash of the bearer key an Authorization header presents, or the 401 for a header with none. */
function presentedKeyHash(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  if (!authorization?.trim()) throw new AppError('UNAUTHORIZED', MISSING_KEY);
  if (token === null) throw new AppError('UNAUTHORIZED', INVALID_KEY);
  return hashApiKey(token);
}

/**
 * The credentials a request presents, as an Authorization header: the header itself, or the
 * `?key=` query parameter for clients that cannot send headers (the public service accepts it too).
 * A key in the URL ends up in browser histories and proxy logs, so the header stays the way to
 * send it; the request log never writes query strings. Both at once must agree, or the request has
 * no one key and is refused as unauthorised (401).
 */
export function presentedAuthorization(ctx: {
  get(name: string): string;
  query: Record<string, string | string[] | undefined>;
}): string | undefined {
  const header = ctx.get('authorization') || undefined;
  const key = ctx.query.key;
  if (key === undefined) return header;
  if (Array.isArray(key)) throw new AppError('UNAUTHORIZED', 'Parameter "key" is given more than once: send one key.');
  const fromQuery = `Bearer ${key}`;
  if (header !== undefined && bearerToken(header) !== key)
    throw new AppError(
      'UNAUTHORIZED',
      'Two different keys: send the key once, in the Authorization header or as ?key=.',
    );
  return fromQuery;
}

/** The token of an `Authorization: Bearer <token>` header, or null when it is not one. */
export function bearerToken(authorization: string | undefined): string | null {
  return /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;
}

export interface QuotaState {
  limit: number;
  remaining: number;
  /** Epoch seconds of the next 1st of the month, 00:00 UTC. */
  reset: number;
}

export function quotaHeaders(state: QuotaState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
}

/** How a call is counted: who asks, on which channel, for how many requests, and when. */
interface Count {
  caller: Caller;
  channel: Channel;
  /** Requests of the quota the call takes: one, or one per company of a batch. */
  cost: number;
  now: Date;
}

type CountDeps = { keys: KeyStore; metrics: Pick<CallMetrics, 'quotaRefused'> };

/**
 * Count the call's requests for the caller (one, or `cost` for a batch), or refuse it when this
 * month's quota has fewer left (nothing is counted then). The refusal carries the contract's body
 * and headers, and is counted in the metrics here, where REST and MCP both pass, by the channel it
 * came in on. A batch refused says how many it needed and how many are left.
 */
async function countRequest(deps: CountDeps, count: Count): Promise<QuotaState> {
  const limit = PLANS[count.caller.key.plan].monthly_quota;
  const taken = await deps.keys.consumeRequests(count.caller.key.id, usageMonth(count.now), limit, count.cost);
  return quotaAfter(deps, count, taken);
}

/**
 * identifyCaller and countRequest in one statement, one round trip to the store instead of two
 * (REST calls; the same refusals, in the same order: no key or an unknown or revoked one is a 401,
 * with nothing counted, before the quota is looked at).
 */
async function identifyAndCount(
  deps: CountDeps,
  authorization: string | undefined,
  count: Omit<Count, 'caller'>,
): Promise<{ caller: Caller; quota: QuotaState }> {
  const hash = presentedKeyHash(authorization);
  const found = await deps.keys.identifyAndConsume(hash, usageMonth(count.now), PLAN_QUOTAS, count.cost);
  if (!found || found.take === null) throw new AppError('UNAUTHORIZED', INVALID_KEY);
  const caller = { key: found.key };
  return { caller, quota: quotaAfter(deps, { ...count, caller }, found.take) };
}

const PLAN_QUOTAS = Object.fromEntries(
  Object.entries(PLANS).map(([plan, limits]) => [plan, limits.monthly_quota]),
) as Record<keyof typeof PLANS, number>;

/** The quota after a take, or the refusal (counted in the metrics) when nothing was counted. */
function quotaAfter(deps: { metrics: Pick<CallMetrics, 'quotaRefused'> }, count: Count, taken: QuotaTake): QuotaState {
  const { caller, now } = count;
  const state = {
    limit: PLANS[caller.key.plan].monthly_quota,
    remaining: taken.left,
    reset: Math.floor(nextMonthStart(now).getTime() / 1000),
  };
  if (taken.counted) return state;
  deps.metrics.quotaRefused(caller.key.plan, count.channel);
  throw quotaRefusal(state, count);
}

/** The 429 of a call over quota: when it resets, and for a batch what it needed and what is left. */
function quotaRefusal(state: QuotaState, { cost, now }: Count): AppError {
  const resetsAt = nextMonthStart(now);
  const left = state.remaining;
  return new AppError(
    'QUOTA_EXCEEDED',
    cost === 1
      ? 'Monthly quota exceeded'
      : `Monthly quota exceeded: this call needs ${cost} requests and ${left} ${left === 1 ? 'is' : 'are'} left`,
    {
      resets_at: `${resetsAt.toISOString().slice(0, 10)}T00:00:00Z`,
      ...(cost === 1 ? {} : { requests_needed: cost, requests_left: left }),
    },
    {
      headers: {
        ...quotaHeaders(state),
        'Retry-After': String(Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000))),
      },
    },
  );
}

/** How one counted call is made: who asks, on which channel, for how many requests. */
export interface CountedCall {
  /** The caller identified already (MCP, a signed-in page), or the key it presents (REST). */
  who: Caller | { authorization: string | undefined };
  channel: Channel;
  /** Told the quota after the call is counted, before the work. */
  counted: (quota: QuotaState) => void;
  /** Requests of the quota the call takes; one unless a batch. */
  cost?: number;
}

/**
 * One counted call, for every surface alike: count it (`cost` requests, one unless a batch), or
 * refuse it over quota, uncounted; tell the surface the quota after it, then do the work; a failure
 * of ours (5xx, or anything not an AppError) gives the requests back, so that only answers the
 * caller caused are counted. Given the presented key rather than a caller already identified (a
 * REST call), the key is identified and the call counted in one round trip (identifyAndCount).
 */
export async function runCounted<T>(
  deps: CountDeps & { clock: () => Date },
  call: CountedCall,
  work: (context: CallContext) => Promise<T>,
): Promise<T> {
  const { who, channel, cost = 1 } = call;
  const now = deps.clock();
  const { caller, quota } =
    'key' in who
      ? { caller: who, quota: await countRequest(deps, { caller: who, channel, cost, now }) }
      : await identifyAndCount(deps, who.authorization, { channel, cost, now });
  call.counted(quota);
  try {
    return await work({ keyId: caller.key.id, plan: caller.key.plan, today: now.toISOString().slice(0, 10), now });
  } catch (error) {
    if (givesRequestsBack(error)) await deps.keys.refundRequest(caller.key.id, usageMonth(now), cost).catch(() => {});
    throw error;
  }
}

export function quotaExceededText(error: AppError): string {
  return `${error.message}. It resets at ${String(error.extra.resets_at)}.`;
}
