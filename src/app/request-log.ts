/**
 * One structured log line per request: time, method, path, operation, status, latency and the
 * key's prefix — never the key itself, nor the query string (it can carry what callers search for).
 */
import type { Context, Next } from 'koa';
import { keyPrefix, looksLikeApiKey } from '../domain/api-keys.ts';
import { bearerToken } from '../call/access.ts';
import { requestOperation } from './metrics.ts';

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The operation or MCP tool run, else the route's name (`healthz`, …), else `unmatched` or `preflight`. */
  operation: string;
  status: number;
  ms: number;
  key: string | null;
}

export function requestLog(log: (entry: RequestLogEntry) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const key = ctx.query.key;
      const bearer = typeof key === 'string' ? key : bearerToken(ctx.get('authorization'));
      log({
        method: ctx.method,
        path: ctx.path,
        operation: requestOperation(ctx),
        status: ctx.status,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        key: bearer && looksLikeApiKey(bearer) ? keyPrefix(bearer) : null,
      });
    }
  };
}
