/**
 * bench/psc: the ownership (PSC) targets of issue 14 at full size. Stages (all, or some with
 * --stages; each adds its figures to bench/results/psc.json, so a long run can be done in parts):
 *
 *   generate         the synthetic PSC snapshot of the full-size register (same seed, companies
 *                    and date as the register loaded in the database), one zip in the real format
 *   load             `ukcd load psc <zip> --no-index`: time and peak memory (GNU time); with --empty
 *                    into an empty psc table (the first load), else over what is there (the daily case)
 *   index-people-es  `ukcd index` into Elasticsearch's people index (ELASTICSEARCH_PEOPLE_INDEX)
 *   index-people-pg  `ukcd index` into the Postgres people_search table
 *   ownership        GET /v1/ownership (direction both, depth 5) under autocannon
 *   search-people    GET /v1/search-people on Elasticsearch under autocannon
 *
 *   npm run bench:psc                                              # every stage
 *   npm run bench:psc -- --stages index-people-es --index-limit 15 # stop the build at 15 min, keep what it wrote
 *   npm run bench:psc -- --stages ownership,search-people --duration 30 --connections 16
 *
 * generate calls writePscSnapshot, the code behind `ukcd generate psc`, in this process.
 *
 * The database is `ukcd_bench_psc` on the server of scripts/postgres.sh, holding the register of
 * `ukcd generate register --seed 1 --companies 7000000 --snapshot-date 2026-11-01` (bench/full-scale
 * load-register); Elasticsearch is scripts/elasticsearch.sh's node.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createKeyStore } from '../src/adapters/postgres/key-store.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../src/domain/api-keys.ts';
import { writePscSnapshot } from '../src/synthetic/psc-files.ts';
import { sampleRss } from './process-rss.ts';
import { ownershipRequests, peopleRequests, drawOwnershipSamples, drawPeopleSamples } from './psc-workloads.ts';
import type { Service } from './ukcd-service.ts';
import { startServiceProcess } from './ukcd-service.ts';
import { latencyMs } from './latency.ts';

const root = resolve(import.meta.dirname, '..');
const results = join(root, 'bench', 'results');
const STAGES = ['generate', 'load', 'index-people-es', 'index-people-pg', 'ownership', 'search-people'];

const { values } = parseArgs({
  options: {
    stages: { type: 'string', default: STAGES.join(',') },
    database: { type: 'string', default: 'ukcd_bench_psc' },
    seed: { type: 'string', default: '1' },
    companies: { type: 'string', default: '7000000' },
    'snapshot-date': { type: 'string', default: '2026-11-01' },
    out: { type: 'string', default: join(results, 'psc-snapshot') },
    /** Deflate level of the generated zip (1 fastest to 9 smallest). */
    level: { type: 'string', default: '6' },
    'people-index': { type: 'string', default: 'people_bench' },
    /**
     * Stop an index-people stage after this many minutes, recording how far it got (the
     * Elasticsearch build is then left behind its alias, refreshed, for search-people to read).
     */
    'index-limit': { type: 'string' },
    'companies-index': { type: 'string', default: 'companies_bench_psc' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '16' },
    report: { type: 'string', default: join(results, 'psc.json') },
    /** load: empty the psc table (and psc_person_moves) first, as for a first load. */
    empty: { type: 'boolean', default: false },
    /** A folder for a CPU profile of the service under the ownership or search-people load. */
    profile: { type: 'string' },
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
const load = () => loadavg().map((n) => Math.round(n * 100) / 100);
const record = (stage: string, figures: unknown, loadBefore: number[]) => {
  report[stage] = { ...(figures as object), load_average_before: loadBefore, load_average_after: load() };
  (report[stage] as Record<string, unknown>).at = new Date().toISOString();
  mkdirSync(results, { recursive: true });
  writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${stage}: ${JSON.stringify(report[stage])}\n`);
};
const snapshotDate = values['snapshot-date'];
const snapshotZip = join(values.out, `persons-with-significant-control-snapshot-${snapshotDate}.zip`);

async function generate(): Promise<Record<string, unknown>> {
  const started = Date.now();
  const written = await writePscSnapshot({
    seed: Number(values.seed),
    companies: Number(values.companies),
    snapshotDate,
    outDir: values.out,
    compressionLevel: Number(values.level),
  });
  return {
    seed: Number(values.seed),
    companies: Number(values.companies),
    snapshot_date: snapshotDate,
    files: written.files.map((file) => relative(root, file)),
    lines: written.lines,
    ...written.counts,
    zip_mb: Math.round(written.bytes / 2 ** 20),
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

const baseEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: join(results, 'psc-data') };
const withEs = {
  ...baseEnv,
  ELASTICSEARCH_URL: elasticsearchUrl,
  ELASTICSEARCH_INDEX: values['companies-index'],
  ELASTICSEARCH_PEOPLE_INDEX: values['people-index'],
};
const withoutEs = { ...baseEnv, ELASTICSEARCH_URL: '' };

/** A command under GNU time: wall seconds, CPU seconds, peak RSS of the process and its worker threads. */
function timed(
  args: string[],
  env: NodeJS.ProcessEnv,
): { seconds: number; cpu_seconds: number; peak_rss_mb: number; tail: string[] } {
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e s wall, %U s user, %S s sys, %M KB peak', ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 256 << 20,
  });
  const lines = run.stderr.trim().split('\n');
  const time = /TIME ([\d.]+) s wall, ([\d.]+) s user, ([\d.]+) s sys, (\d+) KB peak/.exec(
    lines.find((l) => l.startsWith('TIME')) ?? '',
  );
  if (run.status !== 0 || !time) throw new Error(`${args.join(' ')} failed:\n${lines.slice(-20).join('\n')}`);
  return {
    seconds: Number(time[1]),
    cpu_seconds: Math.round(Number(time[2]) + Number(time[3])),
    peak_rss_mb: Math.round(Number(time[4]) / 1024),
    // The command's own summary (progress bars redraw with carriage returns: keep the last state).
    tail: lines
      .slice(-8, -1)
      .map((l) => l.split('\r').at(-1)!.trim())
      .filter(Boolean),
  };
}

const ukcd = (...args: string[]) => [process.execPath, join(root, 'bin', 'ukcd.mjs'), ...args];

async function pscCounts(): Promise<Record<string, number>> {
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const result = await sql.query<Record<string, number>>(
    `SELECT count(*)::int AS psc_rows, count(*) FILTER (WHERE kind_class = 'statement')::int AS statements,
            count(*) FILTER (WHERE registered_company_number IS NOT NULL)::int AS resolved_corporate,
            count(*) FILTER (WHERE ceased)::int AS ceased, count(DISTINCT person_key)::int AS people,
            (SELECT count(*)::int FROM companies) AS companies
     FROM psc`,
  );
  await sql.close();
  return result.rows[0]!;
}

/** bench/psc-server.ts: the service's app, without its start-up indexing (see that file). */
function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  // --profile DIR: the service writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = values.profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(values.profile)] : [];
  return startServiceProcess([...profile, '--import', 'tsx', join(root, 'bench', 'psc-server.ts')], env);
}

/** Pro keys (5,000 requests a month each) for `requests` requests spread evenly. */
async function issueKeys(requests: number): Promise<string[]> {
  const sql = createPgSql({ connectionString: databaseUrl, max: 2 });
  const keys = createKeyStore(sql);
  const issued: string[] = [];
  for (let i = 0; i < Math.ceil(requests / 4000) + 2; i++) {
    const key = generateApiKey();
    await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan: 'pro', email: null, clientIp: null });
    issued.push(key);
  }
  await sql.close();
  return issued;
}

function measure(
  url: string,
  path: (i: number) => string,
  keys: readonly string[],
  duration: number,
  connections: number,
): Promise<autocannon.Result> {
  let turn = 0;
  return new Promise((done, fail) => {
    autocannon(
      {
        url,
        connections,
        duration,
        timeout: 60,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => {
              const i = turn++;
              return { ...request, path: path(i), headers: { authorization: `Bearer ${keys[i % keys.length]}` } };
            },
          },
        ],
      },
      (error, result) => (error ? fail(error) : done(result)),
    );
  });
}

/** One endpoint under load: a warm-up, then the measured run; the service's CPU and peak memory. */
async function latency(
  env: NodeJS.ProcessEnv,
  path: (i: number) => string,
  samples: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const keys = await issueKeys((duration + 10) * 3000);
  const service = await startService(env);
  try {
    // Warm-up, then the measured run (the requests continue where the warm-up stopped).
    const warm = await measure(service.url, path, keys, 10, connections);
    const peak = sampleRss(service.child);
    const cpuBefore = processCpuSeconds(service.child.pid!);
    const result = await measure(service.url, path, keys, duration, connections);
    const cpu = processCpuSeconds(service.child.pid!) - cpuBefore;
    return {
      ...samples,
      connections,
      duration_s: duration,
      requests: result.requests.total,
      rps: result.requests.average,
      latency_ms: latencyMs(result),
      status_codes: Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]),
      ),
      errors: result.errors + result.timeouts,
      warm_up_requests: warm.requests.total,
      service_cpu_ms_per_request: Math.round((cpu * 1000 * 100) / Math.max(1, result.requests.total)) / 100,
      service_peak_rss_mb: peak.stop(),
    };
  } finally {
    service.child.kill('SIGTERM');
  }
}

/** User and system CPU seconds of a process so far (/proc/PID/stat, clock ticks of 1/100 s). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const stages = values.stages.split(',');
for (const stage of stages)
  if (!STAGES.includes(stage)) throw new Error(`unknown stage ${stage}; stages: ${STAGES.join(', ')}`);
if (stages.includes('generate')) {
  const before = load();
  record('generate', await generate(), before);
}
if (stages.includes('load')) {
  if (values.empty) {
    const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
    await sql.exec('TRUNCATE psc, psc_person_moves');
    await sql.close();
  }
  const before = load();
  record(
    'load',
    {
      file: snapshotZip.slice(root.length + 1),
      into: values.empty ? 'an empty psc table' : 'the psc table as it was',
      ...timed(ukcd('load', 'psc', snapshotZip, '--no-index'), withoutEs),
      ...(await pscCounts()),
    },
    before,
  );
}
/** The people index alone (`ukcd index` would first bring the companies index up to date). */
const indexPeopleOnly = [process.execPath, '--import', 'tsx', join(root, 'bench', 'psc-index-people.ts')];

/** The newest `<alias>_vN` index (the one a rebuild writes), and what it holds. */
async function newestPeopleIndex(): Promise<{ index: string; indexed: number; docs: number } | null> {
  const alias = values['people-index'];
  const stats = (await (await fetch(`${elasticsearchUrl}/${alias}_v*/_stats/indexing,docs`)).json()) as {
    indices?: Record<string, { primaries: { indexing: { index_total: number }; docs: { count: number } } }>;
  };
  const [index] = Object.keys(stats.indices ?? {}).sort((a, b) => version(b) - version(a));
  if (!index) return null;
  const primaries = stats.indices![index]!.primaries;
  return { index, indexed: primaries.indexing.index_total, docs: primaries.docs.count };
}
const version = (index: string) => Number(/_v(\d+)$/.exec(index)?.[1] ?? 0);

/**
 * The Elasticsearch people index build, as `timed`, stopped after --index-limit minutes when
 * given: then how many people it had written by then (sampled each minute), and that partial
 * index refreshed and put behind the alias, so that search-people reads it (said in its record).
 */
async function indexPeopleEs(): Promise<Record<string, unknown>> {
  const limit = values['index-limit'] ? Number(values['index-limit']) * 60_000 : null;
  const people = await countPeople();
  if (limit === null) return { people_in_store: people, ...timed(indexPeopleOnly, withEs) };
  const started = Date.now();
  const child = spawn('/usr/bin/time', ['-f', 'TIME %e s wall, %M KB peak', ...indexPeopleOnly], {
    env: withEs,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  const progress: { minutes: number; people_indexed: number }[] = [];
  const sampler = setInterval(() => {
    void newestPeopleIndex().then((newest) => {
      if (newest)
        progress.push({ minutes: Math.round((Date.now() - started) / 6000) / 10, people_indexed: newest.indexed });
    });
  }, 60_000);
  const finished = await new Promise<boolean>((done) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      done(false);
    }, limit);
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
  clearInterval(sampler);
  const seconds = Math.round((Date.now() - started) / 1000);
  const tail = output
    .trim()
    .split('\n')
    .slice(-4)
    .map((l) => l.split('\r').at(-1)!.trim());
  if (finished) return { people_in_store: people, seconds, completed: true, progress, tail };
  const newest = await newestPeopleIndex();
  if (!newest) throw new Error(`the people index build wrote nothing in ${seconds} s:\n${output}`);
  // The partial index, searchable: refreshed, and behind the alias the service reads.
  await fetch(`${elasticsearchUrl}/${newest.index}/_refresh`, { method: 'POST' });
  const alias = values['people-index'];
  const current = (await (await fetch(`${elasticsearchUrl}/_alias/${alias}`)).json()) as Record<string, unknown>;
  await fetch(`${elasticsearchUrl}/_aliases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      actions: [
        ...Object.keys(current)
          .filter((index) => index !== newest.index)
          .map((index) => ({ remove: { index, alias } })),
        { add: { index: newest.index, alias } },
      ],
    }),
  });
  const indexed = (await newestPeopleIndex())!;
  return {
    people_in_store: people,
    completed: false,
    stopped_after_s: seconds,
    people_indexed: indexed.indexed,
    people_searchable: indexed.docs,
    rate_per_s: Math.round(indexed.indexed / seconds),
    whole_build_estimate_min: Math.round(people / (indexed.indexed / seconds) / 60),
    progress,
    tail,
  };
}

async function countPeople(): Promise<number> {
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const result = await sql.query<{ n: number }>(
    `SELECT count(DISTINCT person_key)::int AS n FROM psc WHERE person_key IS NOT NULL`,
  );
  await sql.close();
  return result.rows[0]!.n;
}

if (stages.includes('index-people-es')) {
  const before = load();
  record('index-people-es', { index: values['people-index'], ...(await indexPeopleEs()) }, before);
}
if (stages.includes('index-people-pg')) {
  const before = load();
  record('index-people-pg', { index: 'people_search', ...timed(indexPeopleOnly, withoutEs) }, before);
}
if (stages.includes('ownership')) {
  const before = load();
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const samples = await drawOwnershipSamples(sql);
  await sql.close();
  record(
    'ownership',
    await latency(withEs, ownershipRequests(samples), {
      request: 'GET /v1/ownership?number=…&direction=both&depth=5&format=json',
      companies_sampled: samples.numbers.length,
      sample_mix: samples.mix,
    }),
    before,
  );
}
if (stages.includes('search-people')) {
  const before = load();
  const sql = createPgSql({ connectionString: databaseUrl, max: 1 });
  const samples = await drawPeopleSamples(sql);
  await sql.close();
  record(
    'search-people',
    await latency(withEs, peopleRequests(samples), {
      request: 'GET /v1/search-people?name=…&format=json (Elasticsearch)',
      names_sampled: samples.names.length,
      people_in_index: (await newestPeopleIndex())?.docs ?? null,
    }),
    before,
  );
}
