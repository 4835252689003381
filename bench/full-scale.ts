/**
 * bench/full-scale: the whole service at full size, from files in the real formats to answers
 * under load. Stages (run all, or some with --stages; each adds its figures to
 * bench/results/full-scale.json, so a long run can be done in parts):
 *
 *   load-register   `ukcd load register` of a register snapshot zip: time and peak memory
 *   load-accounts   `ukcd load accounts` of a folder of daily bulk zips: time and peak memory
 *   index-es        `ukcd index --full` into Elasticsearch
 *   index-pg        `ukcd index --full` into the Postgres search table
 *   disk            PostgreSQL by table, and the Elasticsearch index
 *   endpoints-es    every endpoint under concurrent load (autocannon), search on Elasticsearch
 *   endpoints-pg    the same with search on PostgreSQL
 *                   (each endpoint also records the CPU-seconds of the service, PostgreSQL,
 *                   Elasticsearch and this process over its measured run, and per request:
 *                   bench/process-cpu.ts)
 *
 *   npm run bench:full-scale -- --register bench/results/register-full/BasicCompanyDataAsOneFile-2024-06-01.zip \
 *     --accounts bench/results/accounts-full
 *   npm run bench:full-scale -- --stages endpoints-es,endpoints-pg --duration 20 --connections 16
 *
 * The loaders and `ukcd start` run as the operator runs them (`bin/ukcd.mjs`, under GNU time for
 * peak RSS); the database is `ukcd_bench_full` on the server of scripts/postgres.sh, the index
 * `companies_full` on scripts/elasticsearch.sh's node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { createKeyStore } from '../src/adapters/postgres/key-store.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../src/domain/api-keys.ts';
import type { Workload } from './endpoint-workloads.ts';
import { drawSamples, workloads } from './endpoint-workloads.ts';
import { startService } from './ukcd-service.ts';
import { cpuByProcessUnavailable, cpuPerRequest, serviceCpuGroups, startCpuWindow } from './process-cpu.ts';

const root = resolve(import.meta.dirname, '..');
const results = join(root, 'bench', 'results');
const STAGES = ['load-register', 'load-accounts', 'index-es', 'index-pg', 'disk', 'endpoints-es', 'endpoints-pg'];

const { values } = parseArgs({
  options: {
    stages: { type: 'string', default: STAGES.join(',') },
    database: { type: 'string', default: 'ukcd_bench_full' },
    index: { type: 'string', default: 'companies_full' },
    register: { type: 'string' },
    accounts: { type: 'string' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '16' },
    only: { type: 'string' },
    report: { type: 'string', default: join(results, 'full-scale.json') },
  },
});

const serverUrl = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
const databaseUrl = serverUrl.replace(/\/[^/]*$/, `/${values.database}`);
const elasticsearchUrl = spawnSync('bash', [join(root, 'scripts', 'elasticsearch.sh')], {
  encoding: 'utf8',
}).stdout.trim();
const report: Record<string, unknown> = existsSync(values.report)
  ? JSON.parse(readFileSync(values.report, 'utf8'))
  : {};
const record = (stage: string, figures: unknown) => {
  report[stage] = { ...(figures as object), at: new Date().toISOString() };
  mkdirSync(results, { recursive: true });
  writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${stage}: ${JSON.stringify(figures)}\n`);
};

const baseEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  DATA_DIR: join(results, 'full-scale-data'),
  ELASTICSEARCH_INDEX: values.index,
};
const withEs = { ...baseEnv, ELASTICSEARCH_URL: elasticsearchUrl };
const withoutEs = { ...baseEnv, ELASTICSEARCH_URL: '' };

/** `ukcd …` under GNU time: wall seconds, peak RSS of the process and its worker threads. */
function timedUkcd(args: string[], env: NodeJS.ProcessEnv): { seconds: number; peak_rss_mb: number; tail: string[] } {
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', 'TIME %e s wall, %M KB peak', process.execPath, join(root, 'bin', 'ukcd.mjs'), ...args],
    { env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 256 << 20 },
  );
  const lines = run.stderr.trim().split('\n');
  const time = /TIME ([\d.]+) s wall, (\d+) KB peak/.exec(lines.find((l) => l.startsWith('TIME')) ?? '');
  if (run.status !== 0 || !time) throw new Error(`ukcd ${args.join(' ')} failed:\n${lines.slice(-20).join('\n')}`);
  return { seconds: Number(time[1]), peak_rss_mb: Math.round(Number(time[2]) / 1024), tail: lines.slice(-6, -1) };
}

async function ensureDatabase(): Promise<void> {
  const admin = createPgSql({ connectionString: serverUrl, max: 1 });
  const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [values.database]);
  if (exists.rowCount === 0) await admin.exec(`CREATE DATABASE ${values.database}`);
  await admin.close();
}

async function counts(): Promise<Record<string, number>> {
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const result = await sql.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM companies) AS companies, (SELECT count(*) FROM filings) AS filings,
            (SELECT count(*) FROM accounts_history) AS history, (SELECT count(*) FROM parse_failures) AS failures`,
  );
  await sql.close();
  return result.rows[0]!;
}

async function disk(): Promise<Record<string, unknown>> {
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const database = await sql.query<{ bytes: number }>(`SELECT pg_database_size(current_database()) AS bytes`);
  const tables = await sql.query<{ name: string; bytes: number }>(
    `SELECT relname AS name, pg_total_relation_size(oid) AS bytes FROM pg_class
     WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 2 DESC LIMIT 12`,
  );
  await sql.close();
  const indices = (await (
    await fetch(`${elasticsearchUrl}/_cat/indices/${values.index}*?format=json&bytes=b`)
  ).json()) as {
    index: string;
    'store.size': string;
    'docs.count': string;
  }[];
  const gb = (bytes: number) => Math.round((bytes / 1e9) * 100) / 100;
  return {
    postgres_gb: gb(database.rows[0]!.bytes),
    postgres_tables_gb: Object.fromEntries(tables.rows.map((t) => [t.name, gb(t.bytes)])),
    elasticsearch: indices.map((i) => ({
      index: i.index,
      docs: Number(i['docs.count']),
      gb: gb(Number(i['store.size'])),
    })),
  };
}

async function issueKeys(count: number): Promise<string[]> {
  const sql = createPgSql({ connectionString: databaseUrl, max: 2 });
  const keys = createKeyStore(sql);
  const issued: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = generateApiKey();
    await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan: 'pro', email: null, clientIp: null });
    issued.push(key);
  }
  await sql.close();
  return issued;
}

function measure(
  url: string,
  workload: Workload,
  keys: readonly string[],
  duration: number,
  connections: number,
  from = 0,
) {
  let turn = from;
  return new Promise<autocannon.Result>((done, fail) => {
    autocannon(
      {
        url,
        connections,
        duration,
        timeout: 120,
        requests: [
          {
            setupRequest: (request) => {
              const i = turn++;
              const asked = workload.request(i);
              return {
                ...request,
                method: asked.method,
                path: asked.path,
                ...(asked.body ? { body: asked.body } : {}),
                headers: {
                  authorization: `Bearer ${keys[Math.floor(i / 2) % keys.length]}`,
                  ...(asked.body ? { 'content-type': 'application/json' } : {}),
                  ...(asked.path === '/mcp' ? { accept: 'application/json, text/event-stream' } : {}),
                },
              };
            },
          },
        ],
      },
      (error, result) => (error ? fail(error) : done(result)),
    );
  });
}

/** Where the warm-up's requests start in each workload's sequence (the measured run starts at 0). */
const WARM_UP_FROM = 1_000_000;

async function endpoints(adapter: 'elasticsearch' | 'postgres'): Promise<Record<string, unknown>> {
  const noCpu = cpuByProcessUnavailable();
  if (noCpu) throw new Error(`${noCpu}: the endpoint stages record the CPU of each process group`);
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const samples = await drawSamples(sql);
  await sql.close();
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  // Pro keys allow 5,000 requests a month each, and every workload spreads its requests evenly
  // over all the keys: enough keys for every workload at up to 2,500 requests/s.
  const keys = await issueKeys(Math.ceil((workloads(samples).length * (duration + 3) * 2500) / 5000) + 10);
  const service = await startService(adapter === 'elasticsearch' ? withEs : withoutEs);
  const figures: Record<string, unknown> = {};
  const cpuGroups = serviceCpuGroups(service.child.pid!, values.database, adapter === 'elasticsearch');
  try {
    // Every key watches five companies, so that the watchlist and alerts read something.
    for (const [n, key] of keys.entries()) {
      await fetch(`${service.url}/v1/watchlist/add`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ company_numbers: samples.numbers.slice(n * 5, n * 5 + 5) }),
      });
    }
    const only = values.only?.split(',');
    for (const workload of workloads(samples)) {
      if (only && !only.includes(workload.name)) continue;
      // The warm-up asks other things than the measured run (requests drawn from far along the
      // sequence), so that a cache in the service cannot answer the run with what the warm-up asked.
      const warm = await measure(service.url, workload, keys, 3, connections, WARM_UP_FROM);
      const cpuWindow = startCpuWindow(cpuGroups);
      const result = await measure(service.url, workload, keys, duration, connections);
      const cpu = cpuPerRequest(cpuWindow.stop(), result.requests.total);
      figures[workload.name] = {
        requests: result.requests.total,
        rps: result.requests.average,
        p50_ms: result.latency.p50,
        p90_ms: result.latency.p90,
        p99_ms: result.latency.p99,
        max_ms: result.latency.max,
        non2xx: result.non2xx,
        status_codes: Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]),
        ),
        errors: result.errors + result.timeouts,
        warm_up_requests: warm.requests.total,
        ...cpu,
      };
      process.stdout.write(`  ${adapter} ${workload.name}: ${JSON.stringify(figures[workload.name])}\n`);
    }
  } finally {
    service.child.kill('SIGTERM');
  }
  return { adapter, duration_s: duration, connections, endpoints: figures };
}

const stages = values.stages.split(',');
for (const stage of stages)
  if (!STAGES.includes(stage)) throw new Error(`unknown stage ${stage}; stages: ${STAGES.join(', ')}`);
if (stages.includes('load-register')) {
  if (!values.register) throw new Error('load-register needs --register FILE');
  await ensureDatabase();
  record('load-register', {
    ...timedUkcd(['load', 'register', values.register, '--complete', '--no-index'], withoutEs),
    ...(await counts()),
  });
}
if (stages.includes('load-accounts')) {
  if (!values.accounts) throw new Error('load-accounts needs --accounts DIR');
  await ensureDatabase();
  record('load-accounts', {
    ...timedUkcd(['load', 'accounts', values.accounts, '--no-index'], withoutEs),
    ...(await counts()),
  });
}
if (stages.includes('index-es')) record('index-es', timedUkcd(['index', '--full'], withEs));
if (stages.includes('index-pg')) record('index-pg', timedUkcd(['index', '--full'], withoutEs));
if (stages.includes('disk')) record('disk', await disk());
if (stages.includes('endpoints-es')) record('endpoints-es', await endpoints('elasticsearch'));
if (stages.includes('endpoints-pg')) record('endpoints-pg', await endpoints('postgres'));
