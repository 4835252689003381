/** The latency figures every load benchmark records from an autocannon run, in ms. */
import type autocannon from 'autocannon';

export function latencyMs(result: autocannon.Result): { p50: number; p90: number; p99: number; max: number } {
  return { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max };
}
