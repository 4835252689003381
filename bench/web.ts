/**
 * bench/web: the web pages for people under concurrent load, as `ukcd start` serves them.
 *
 *   npm run bench:web                                   # ukcd_bench_full, index companies_full, 20 s at 16 connections
 *   npm run bench:web -- --database h16c_web --index h16c_companies --people-index h16c_people --duration 10
 *   npm run bench:web -- --search postgres              # search on the Postgres adapter instead of Elasticsearch
 *
 * Three workloads, each a 3 s warm-up then `--duration` seconds at `--connections` (autocannon),
 * anonymous as a visitor would be:
 *
 *   search_page   GET /search?name=…          the search page, with the phrases people type on the way to
 *                                              real names (1–5 letters, the first word, the word and the
 *                                              start of the next; bench/web-workloads.ts)
 *   suggest       GET /search/suggest?name=…  the as-you-type suggestions search.js asks for, same phrases
 *   company_page  GET /company/{number}       companies on the register with accounts
 *
 * Each records requests/s, the client's latency (p50/p90/p99/max), the server's own time from
 * every answer's `Server-Timing: app;dur=` header (p50/p90/p99/max), the statuses, and how many
 * answers found nothing (a search without a match, a company page without a chart), into
 * bench/results/web.json, with the CPU each process group used over the measured run (`cpu_s`:
 * the service, PostgreSQL, Elasticsearch, this process, the machine's busy and idle time; and
 * `cpu_ms_per_request`; bench/process-cpu.ts). Anonymous pages are limited per address: the
 * service is started with WEB_ANON_RATE_PER_MINUTE raised (`--anon-rate`, default its maximum), as
 * an operator would set it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import type { WebWorkload } from './web-workloads.ts';
import { drawWebSamples, typedPhrases, webWorkloads } from './web-workloads.ts';
import { startService, stopService } from './ukcd-service.ts';
import { latencyMs } from './latency.ts';
import { cpuByProcessUnavailable, cpuPerRequest, serviceCpuGroups, startCpuWindow } from './process-cpu.ts';

const root = resolve(import.meta.dirname, '..');
const results = join(root, 'bench', 'results');

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'ukcd_bench_full' },
    index: { type: 'string', default: 'companies_full' },
    // The service brings the people index up to date at start: the default is the one
    // bench/full-scale's service uses (ELASTICSEARCH_PEOPLE_INDEX unset), so that it is current.
    'people-index': { type: 'string', default: 'people' },
    search: { type: 'string', default: 'elasticsearch' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '16' },
    'anon-rate': { type: 'string', default: '1000000' },
    only: { type: 'string' },
    report: { type: 'string', default: join(results, 'web.json') },
  },
});

const duration = positive('duration');
const connections = positive('connections');
const anonRate = positive('anon-rate');
if (values.search !== 'elasticsearch' && values.search !== 'postgres')
  throw new Error(`--search is elasticsearch or postgres, not ${values.search}`);

function positive(option: 'duration' | 'connections' | 'anon-rate'): number {
  const value = Number(values[option]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${option} must be a whole number ≥ 1`);
  return value;
}

const serverUrl = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
const databaseUrl = serverUrl.replace(/\/[^/]*$/, `/${values.database}`);
const elasticsearchUrl =
  values.search === 'elasticsearch'
    ? spawnSync('bash', [join(root, 'scripts', 'elasticsearch.sh')], { encoding: 'utf8' }).stdout.trim()
    : '';

/** The server's milliseconds from an answer's headers (autocannon gives them as sent, any case). */
function serverMs(headers: Record<string, unknown>): number | null {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'server-timing') {
      const match = /(?:^|,)\s*app;dur=([\d.]+)/.exec(String(value));
      return match ? Number(match[1]) : null;
    }
  return null;
}

/** The q-th quantile of sorted values (nearest rank), rounded to 0.1 ms; null when there are none. */
function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return Math.round(value * 10) / 10;
}

interface Measured {
  result: autocannon.Result;
  /** The server time of every answer that carried one. */
  server: number[];
  /** Answers without a Server-Timing header. */
  untimed: number;
  /** 200 answers that found nothing (workload.foundNothing). */
  empty: number;
}

/**
 * `seconds` of `workload` from its request number `from.turn` on, which it counts up: the run after
 * a warm-up asks what the warm-up did not (the name search cache would otherwise answer it all).
 */
function measure(url: string, workload: WebWorkload, seconds: number, from: { turn: number }): Promise<Measured> {
  const server: number[] = [];
  let untimed = 0;
  let empty = 0;
  return new Promise((done, fail) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        timeout: 60,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              method: 'GET',
              path: workload.path(from.turn++),
              headers: { accept: 'text/html,application/json' },
            }),
            onResponse: (status, body, _context, headers) => {
              if (status === 200 && workload.foundNothing(body)) empty++;
              const ms = serverMs(headers as Record<string, unknown>);
              if (ms === null) untimed++;
              else server.push(ms);
            },
          },
        ],
      },
      (error, result) => (error ? fail(error) : done({ result, server, untimed, empty })),
    );
  });
}

async function main(): Promise<void> {
  const noCpu = cpuByProcessUnavailable();
  if (noCpu) throw new Error(`${noCpu}: bench/web records the CPU of each process group`);
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const samples = await drawWebSamples(sql);
  const counts = await sql.query<{ companies: number; filers: number }>(
    `SELECT (SELECT count(*) FROM companies)::int AS companies,
            (SELECT count(DISTINCT company_number) FROM accounts_history)::int AS filers`,
  );
  await sql.close();
  const service = await startService({
    ...process.env,
    DATABASE_URL: databaseUrl,
    ELASTICSEARCH_URL: elasticsearchUrl,
    ELASTICSEARCH_INDEX: values.index,
    ELASTICSEARCH_PEOPLE_INDEX: values['people-index'],
    DATA_DIR: join(results, 'web-data'),
    WEB_UI: 'true',
    WEB_ANON_RATE_PER_MINUTE: String(anonRate),
  });
  const figures: Record<string, unknown> = {};
  const cpuGroups = serviceCpuGroups(service.child.pid!, values.database, values.search === 'elasticsearch');
  try {
    const only = values.only?.split(',');
    for (const workload of webWorkloads(samples)) {
      if (only && !only.includes(workload.name)) continue;
      const counter = { turn: 0 };
      const warm = await measure(service.url, workload, 3, counter);
      const cpuWindow = startCpuWindow(cpuGroups);
      const { result, server, untimed, empty } = await measure(service.url, workload, duration, counter);
      const cpu = cpuPerRequest(cpuWindow.stop(), result.requests.total);
      server.sort((a, b) => a - b);
      figures[workload.name] = {
        requests: result.requests.total,
        rps: result.requests.average,
        latency_ms: latencyMs(result),
        server_ms: {
          p50: quantile(server, 0.5),
          p90: quantile(server, 0.9),
          p99: quantile(server, 0.99),
          max: quantile(server, 1),
          answers: server.length,
          without_header: untimed,
        },
        status_codes: Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]),
        ),
        found_nothing: empty,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        warm_up_requests: warm.result.requests.total,
        ...cpu,
      };
      process.stdout.write(`${workload.name}: ${JSON.stringify(figures[workload.name])}\n`);
    }
  } finally {
    await stopService(service);
  }
  const report = {
    at: new Date().toISOString(),
    database: values.database,
    search: values.search,
    index: values.search === 'elasticsearch' ? values.index : null,
    companies: counts.rows[0]?.companies,
    companies_with_accounts: counts.rows[0]?.filers,
    sampled: {
      names: samples.names.length,
      typed_phrases: samples.names.flatMap(typedPhrases).length,
      companies_with_accounts: samples.withAccounts.length,
    },
    duration_s: duration,
    connections,
    web_anon_rate_per_minute: anonRate,
    pages: figures,
  };
  mkdirSync(results, { recursive: true });
  writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`written to ${values.report}\n`);
}

await main();
