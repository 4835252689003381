/**
 * What bench/full-scale asks of each endpoint: requests drawn with a fixed seed from the data in
 * the benchmark database, as callers would send them. One workload per REST operation, plus the
 * MCP endpoint calling a tool.
 */
import { TRIGGERS } from '../src/domain/triggers.ts';
import type { Sql } from '../src/ports/sql.ts';

interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface Workload {
  name: string;
  /** Whether it reads the search index (so its figures differ between the adapters). */
  search: boolean;
  /** The i-th request (i counts up across the run; each connection takes the next). */
  request(i: number): BenchRequest;
}

export interface Samples {
  numbers: string[];
  names: string[];
  postTowns: string[];
  sicPrefixes: string[];
}

/** Draw what the workloads need from the data: a repeatable sample of the register. */
export async function drawSamples(sql: Sql): Promise<Samples> {
  const rows = await sampled(sql, (from) =>
    sql.query<{ company_number: string; name: string; post_town: string | null; sic_codes: string[] }>(
      `SELECT company_number, name, post_town, sic_codes FROM companies ${from} WHERE status = 'Active' LIMIT 20000`,
    ),
  );
  const withAccounts = await sampled(sql, (from) =>
    sql.query<{ company_number: string }>(`SELECT DISTINCT company_number FROM accounts_history ${from} LIMIT 20000`),
  );
  if (rows.rows.length === 0) throw new Error('bench: the database has no active company to draw requests from');
  const count = (values: (string | null | undefined)[]) => {
    const seen = new Map<string, number>();
    for (const value of values) if (value) seen.set(value, (seen.get(value) ?? 0) + 1);
    return [...seen.entries()].sort((a, b) => b[1] - a[1]).map(([value]) => value);
  };
  return {
    numbers: [...withAccounts.rows.map((r) => r.company_number), ...rows.rows.map((r) => r.company_number)],
    names: rows.rows.map((r) => r.name),
    postTowns: count(rows.rows.map((r) => r.post_town)).slice(0, 200),
    sicPrefixes: count(rows.rows.flatMap((r) => (r.sic_codes ?? []).map((code) => code.slice(0, 2)))).slice(0, 40),
  };
}

const SORTS = ['-net_assets', 'net_assets', '-cash', '-turnover', '-employees', 'incorporated', 'name'];

/** A small deterministic generator: the same run asks the same things. */
function pick<T>(values: readonly T[], i: number, salt: number): T {
  let x = (i + 1) * 2654435761 + salt * 40503;
  x = (x ^ (x >>> 15)) * 2246822519;
  x ^= x >>> 13;
  return values[Math.abs(x) % values.length]!;
}

/** A search phrase as people type them: a whole name, its first word, or the start of one. */
function namePhrase(name: string, i: number): string {
  const words = name.split(/\s+/).filter((w) => /[A-Za-z]/.test(w));
  const kind = i % 4;
  if (kind === 0 || words.length === 0) return name;
  if (kind === 1) return words[0]!;
  if (kind === 2) return words[0]!.slice(0, 3 + (i % 3));
  return words
    .slice(0, 2)
    .join(' ')
    .slice(0, 4 + words[0]!.length);
}

export function workloads(s: Samples): Workload[] {
  const q = (params: Record<string, string | number>) =>
    Object.entries(params)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
  const filters = (i: number): Record<string, string | number> => {
    const chosen: Record<string, string | number> = {};
    if (i % 2 === 0) chosen.sic = pick(s.sicPrefixes, i, 1);
    if (i % 3 === 0) chosen.post_town = pick(s.postTowns, i, 2);
    if (i % 5 === 1) chosen.size = pick(['micro', 'small', 'medium'], i, 3);
    if (i % 7 === 2) chosen.min_net_assets = pick([0, 10_000, 100_000, 1_000_000], i, 4);
    if (i % 4 === 3) chosen.incorporated_from = `${pick([1990, 2005, 2015, 2020], i, 5)}-01-01`;
    return chosen;
  };
  // Stats take the register filters only (status, type, sic, post_town, incorporation dates).
  const registerFilters = (i: number): Record<string, string | number> => {
    const chosen: Record<string, string | number> = {};
    if (i % 2 === 0) chosen.sic = pick(s.sicPrefixes, i, 6);
    if (i % 3 === 0) chosen.post_town = pick(s.postTowns, i, 7);
    if (i % 4 === 3) chosen.incorporated_from = `${pick([1990, 2005, 2015, 2020], i, 8)}-01-01`;
    return chosen;
  };
  return [
    {
      name: 'lookup_company',
      search: false,
      request: (i) => ({ method: 'GET', path: `/v1/company?${q({ number: pick(s.numbers, i, 10), format: 'json' })}` }),
    },
    {
      name: 'search_by_name',
      search: true,
      request: (i) => ({
        method: 'GET',
        path: `/v1/search-by-name?${q({ name: namePhrase(pick(s.names, i, 11), i), format: 'json' })}`,
      }),
    },
    {
      name: 'search_companies',
      search: true,
      request: (i) => ({
        method: 'GET',
        path: `/v1/search?${q({ ...filters(i), sort: pick(SORTS, i, 12), format: 'json' })}`,
      }),
    },
    {
      name: 'compare_companies',
      search: false,
      request: (i) => ({
        method: 'GET',
        path: `/v1/compare?${q({ a: pick(s.numbers, i, 13), b: pick(s.numbers, i, 14), format: 'json' })}`,
      }),
    },
    {
      name: 'market_stats',
      search: true,
      request: (i) => ({ method: 'GET', path: `/v1/stats?${q({ ...registerFilters(i), format: 'json' })}` }),
    },
    {
      name: 'find_triggers',
      search: true,
      request: (i) => ({
        method: 'GET',
        path: `/v1/triggers?${q({ trigger: pick(TRIGGERS, i, 15), ...filters(i + 2), format: 'json' })}`,
      }),
    },
    {
      name: 'recent_changes',
      search: false,
      request: (i) => ({ method: 'GET', path: `/v1/recent-changes?${q({ days: 1 + (i % 90), format: 'json' })}` }),
    },
    {
      name: 'watch_list',
      search: false,
      request: () => ({ method: 'GET', path: '/v1/watchlist?format=json' }),
    },
    {
      name: 'get_alerts',
      search: false,
      request: () => ({ method: 'GET', path: '/v1/alerts?format=json' }),
    },
    {
      // Add then remove the same company: the watchlist stays within its limit however long the run.
      name: 'watch_add_remove',
      search: false,
      request: (i) => ({
        method: 'POST',
        path: i % 2 === 0 ? '/v1/watchlist/add' : '/v1/watchlist/remove',
        body: JSON.stringify({ company_numbers: [pick(s.numbers, Math.floor(i / 2), 16)] }),
      }),
    },
    {
      name: 'mcp_lookup_company',
      search: false,
      request: (i) => ({
        method: 'POST',
        path: '/mcp',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'lookup_company', arguments: { company_number: pick(s.numbers, i, 17) } },
        }),
      }),
    },
  ];
}

/**
 * A 0.5% sample of the table (repeatable), or the whole table when that sample is too small to
 * draw from: a database of a few thousand companies samples a handful of pages, or none.
 */
async function sampled<Row>(sql: Sql, read: (from: string) => Promise<{ rows: Row[] }>): Promise<{ rows: Row[] }> {
  const sample = await read('TABLESAMPLE SYSTEM (0.5) REPEATABLE (7)');
  return sample.rows.length >= 1000 ? sample : read('');
}
