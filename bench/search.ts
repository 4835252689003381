/**
 * bench/search: the search port at full size. On the database bench/search-data.ts prepares
 * (about 5.6 million synthetic companies with accounts history, in real PostgreSQL), it builds
 * each search index from the store through the real indexer — Elasticsearch (scripts/elasticsearch.sh)
 * and the Postgres adapter — timing the full build, then drives each with concurrent queries:
 * name search, criteria search, triggers and stats, and reports p50/p95/p99 latency and throughput.
 *
 *   npm run bench:search-data                         # once: the 5.6M-company database
 *   npm run bench:search                              # build both indexes, then query both
 *   npm run bench:search -- --skip-build              # query the indexes already built
 *   npm run bench:search -- --adapter elasticsearch   # one adapter
 *
 * Queries are drawn with a fixed seed from the data itself (names, post towns, SIC codes), asked
 * "as of" the snapshot date, by `--concurrency` clients at once (default 4) in this process.
 * Results are printed as Markdown and saved to bench/results/search-<adapter>.json, with the CPU
 * per query of this process (the adapter and the clients), of PostgreSQL's backends serving the
 * database and of Elasticsearch (bench/process-cpu.ts), and the machine's load average.
 *
 *   npm run bench:search -- --database ukcd_bench_small --min-companies 100000 --names-percent 2   # a smaller database
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../src/adapters/elasticsearch/es-search-index.ts';
import { createCompanyStore } from '../src/adapters/postgres/company-store.ts';
import { migrate } from '../src/adapters/postgres/migrate.ts';
import { createPgSearchIndex } from '../src/adapters/pg-search/pg-search-index.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { companyTypeKey } from '../src/domain/company-type.ts';
import type { CompanyFilters, CompanyQuery, SortOrder } from '../src/domain/criteria.ts';
import { SORT_FIELDS } from '../src/domain/criteria.ts';
import { RISK_BANDS } from '../src/domain/risk-band.ts';
import { SIZE_BANDS } from '../src/domain/size-band.ts';
import { SEARCH_SIGNALS, TRIGGERS } from '../src/domain/triggers.ts';
import type { SearchIndex } from '../src/ports/search-index.ts';
import { Random } from '../src/synthetic/random.ts';
import { indexSearch } from '../loaders/index-search.ts';
import { cpuByProcessUnavailable, cpuPerRequest, startCpuWindow } from './process-cpu.ts';

const root = resolve(import.meta.dirname, '..');
const AS_OF = '2024-06-01';
const ALIAS = 'companies_bench';

interface Workload {
  name: string;
  queries: (() => Promise<unknown>)[];
}

interface Latency {
  workload: string;
  queries: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  perSecond: number;
  cpu_ms_per_query: Record<string, number | null>;
  /** 1, 5 and 15 minutes, at the end of the measured run. */
  load_average: number[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      adapter: { type: 'string' },
      'skip-build': { type: 'boolean' },
      concurrency: { type: 'string', default: '4' },
      names: { type: 'string', default: '4000' },
      /** The share of the register (percent) the names are drawn from: raise it on a smaller database. */
      'names-percent': { type: 'string', default: '0.2' },
      /** Fewer queries of every kind (0–1): the Postgres adapter's slow queries would take too long. */
      scale: { type: 'string', default: '1' },
      /** Only the workloads whose name contains this (e.g. "name"). */
      only: { type: 'string' },
      /** The benchmark database: bench/search-data's (default), or bench/full-scale's ukcd_bench_full. */
      database: { type: 'string', default: 'ukcd_bench_search' },
      /** Refuse a database holding fewer companies: a half-built one would not be at full size. */
      'min-companies': { type: 'string', default: '1000000' },
    },
  });
  const noCpu = cpuByProcessUnavailable();
  if (noCpu) throw new Error(`${noCpu}: bench/search records the CPU of each process group`);
  const concurrency = Number(values.concurrency);
  const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  // Two statements per criteria query at once, and slow ones on the Postgres adapter: room to wait.
  const sql = createPgSql({
    connectionString: server.replace(/\/[^/]*$/, `/${values.database}`),
    max: 2 * concurrency + 2,
    connectionTimeoutMs: 600_000,
  });
  await migrate(sql);
  const store = createCompanyStore(sql);
  const { companies } = await store.counts();
  if (companies < Number(values['min-companies']))
    throw new Error(
      `${values.database} holds ${companies} companies, fewer than --min-companies ${values['min-companies']}: run npm run bench:search-data first`,
    );
  const esUrl = spawnSync('bash', [join(root, 'scripts', 'elasticsearch.sh')], { encoding: 'utf8' }).stdout.trim();
  const client = new Client({ node: esUrl, requestTimeout: 120_000 });

  const adapters: { name: string; index: SearchIndex; target: string }[] = [];
  if (!values.adapter || values.adapter === 'elasticsearch') {
    await ensureIndex({ client, alias: ALIAS });
    adapters.push({
      name: 'elasticsearch',
      index: createEsSearchIndex({ client, alias: ALIAS }),
      target: `elasticsearch:${ALIAS}`,
    });
  }
  if (!values.adapter || values.adapter === 'postgres') {
    adapters.push({ name: 'postgres', index: createPgSearchIndex(sql), target: 'postgres:company_search' });
  }

  const sample = await sampleData(sql, Number(values.names), Number(values['names-percent']));
  for (const adapter of adapters) {
    const report: Record<string, unknown> = { adapter: adapter.name, companies, asOf: AS_OF, concurrency };
    if (!values['skip-build']) {
      const before = esHeapAndDisk;
      const summary = await indexSearch(store, adapter, { full: true });
      report.build = {
        seconds: summary.seconds,
        documents: summary.documents,
        rate: summary.documents / summary.seconds,
      };
      if (adapter.name === 'elasticsearch') report.elasticsearch = await before(client);
    }
    const results: Latency[] = [];
    for (const workload of workloads(adapter.index, sample, Number(values.scale)).filter(
      (w) => !values.only || w.name.includes(values.only),
    )) {
      // A short warm-up, then the measured run.
      await drive(workload.queries.slice(0, 50), concurrency);
      results.push(await measure(workload, concurrency, values.database));
      process.stderr.write(`${adapter.name}: ${describe(results.at(-1)!)}\n`);
    }
    report.latency = results;
    writeFileSync(join(root, 'bench', 'results', `search-${adapter.name}.json`), JSON.stringify(report, null, 2));
    process.stdout.write(`\n### ${adapter.name}\n\n${markdown(report, results)}\n`);
  }
  await client.close();
  await sql.close();
}

interface Sample {
  names: string[];
  postTowns: string[];
  sics: string[];
}

async function sampleData(sql: ReturnType<typeof createPgSql>, count: number, namesPercent: number): Promise<Sample> {
  // A fixed sample: the same companies every run (setseed), spread over the whole register.
  await sql.query(`SELECT setseed(0.42)`);
  const names = await sql.query<{ name: string }>(
    `SELECT name FROM companies TABLESAMPLE BERNOULLI ($2) REPEATABLE (42) LIMIT $1`,
    [count, namesPercent],
  );
  const towns = await sql.query<{ post_town: string }>(
    `SELECT upper(post_town) AS post_town FROM companies TABLESAMPLE SYSTEM (1) REPEATABLE (7)
     WHERE post_town IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 60`,
  );
  const sics = await sql.query<{ sic: string }>(
    `SELECT left(s, 5) AS sic FROM companies TABLESAMPLE SYSTEM (1) REPEATABLE (9), unnest(sic_codes) s
     WHERE s ~ '^[0-9]{5}' GROUP BY 1 ORDER BY count(*) DESC LIMIT 80`,
  );
  return {
    names: names.rows.map((r) => r.name),
    postTowns: towns.rows.map((r) => r.post_town),
    sics: sics.rows.map((r) => r.sic),
  };
}

/** What people type: a whole name, its first word, the start of a word, two word starts. */
function nameQueries(names: readonly string[], rng: Random): string[] {
  return names.map((name) => {
    const words = name.split(/\s+/).filter((w) => /[A-Z0-9]/i.test(w));
    const first = words[0] ?? name;
    switch (rng.int(0, 3)) {
      case 0:
        return name;
      case 1:
        return first;
      case 2:
        return first.slice(0, Math.max(1, Math.min(first.length, rng.int(3, 5))));
      default:
        return words.length > 1 ? `${first} ${words[1]!.slice(0, 3)}` : first.slice(0, 4);
    }
  });
}

function workloads(index: SearchIndex, sample: Sample, scale: number): Workload[] {
  const rng = new Random(20_261_122);
  const pick = <T>(list: readonly T[]): T => list[rng.int(0, list.length - 1)]!;
  const filters = (): CompanyFilters => {
    const f: CompanyFilters = { status: rng.chance(0.85) ? 'active' : 'any' };
    if (rng.chance(0.4)) f.sic = pick(sample.sics).slice(0, rng.int(2, 5));
    if (rng.chance(0.3)) f.post_town = pick(sample.postTowns);
    if (rng.chance(0.15)) f.type = companyTypeKey(pick(['ltd', 'plc', 'llp']));
    if (rng.chance(0.2)) f.incorporated_from = `${rng.int(1990, 2022)}-01-01`;
    if (rng.chance(0.3)) f.figures = { net_assets: { min: pick([0, 10_000, 100_000, 1_000_000]) } };
    if (rng.chance(0.15)) f.figures = { ...f.figures, employees: { min: pick([5, 10, 50]) } };
    if (rng.chance(0.15)) f.size = pick(SIZE_BANDS);
    if (rng.chance(0.15)) f.risk_band = pick(RISK_BANDS);
    if (rng.chance(0.15)) f.signal = pick(SEARCH_SIGNALS);
    return f;
  };
  // The sorts the benchmark has always measured: total_assets, a later name, is left out.
  const sortFields = SORT_FIELDS.filter((f): f is Exclude<typeof f, 'total_assets'> => f !== 'total_assets');
  const sort = (): SortOrder => ({ field: pick(sortFields), descending: rng.chance(0.7) });
  const criteria = (extra: Partial<CompanyQuery> = {}): CompanyQuery => ({
    filters: filters(),
    sort: sort(),
    limit: 20,
    asOf: AS_OF,
    ...extra,
  });
  const n = (count: number) => Math.max(20, Math.round(count * scale));
  return [
    {
      name: 'name search',
      queries: nameQueries(sample.names.slice(0, n(sample.names.length)), rng).map(
        (q) => () => index.searchByName(q, 20),
      ),
    },
    {
      name: 'criteria search',
      queries: Array.from({ length: n(600) }, () => criteria()).map((q) => () => index.findCompanies(q)),
    },
    {
      name: 'triggers',
      queries: Array.from({ length: n(400) }, () => criteria({ trigger: pick(TRIGGERS) })).map(
        (q) => () => index.findCompanies(q),
      ),
    },
    {
      name: 'stats',
      queries: Array.from({ length: n(200) }, (_, i) => (i % 10 === 0 ? { status: 'active' as const } : filters())).map(
        (f) => () => index.stats(f, AS_OF),
      ),
    },
  ];
}

async function drive(queries: readonly (() => Promise<unknown>)[], concurrency: number): Promise<number[]> {
  const timings: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const query = queries[next++]!;
        const started = process.hrtime.bigint();
        await query();
        timings.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }),
  );
  return timings;
}

async function measure(workload: Workload, concurrency: number, database: string): Promise<Latency> {
  const cpuWindow = startCpuWindow({
    bench: 'self',
    // Only the backends serving this database (their process title names it), not other sessions'.
    postgres_this_db: { comm: 'postgres', cmdline: ` ${database} ` },
    elasticsearch: { cmdline: 'org.elasticsearch' },
  });
  const started = Date.now();
  const timings = (await drive(workload.queries, concurrency)).sort((a, b) => a - b);
  const seconds = (Date.now() - started) / 1000;
  const cpu = cpuPerRequest(cpuWindow.stop(), timings.length);
  const at = (p: number) => timings[Math.min(timings.length - 1, Math.floor(p * timings.length))]!;
  return {
    workload: workload.name,
    queries: timings.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: timings.at(-1)!,
    perSecond: timings.length / seconds,
    cpu_ms_per_query: cpu.cpu_ms_per_request,
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

async function esHeapAndDisk(client: Client): Promise<Record<string, unknown>> {
  const stats = await client.indices.stats({ index: ALIAS, metric: ['store', 'docs'] });
  const nodes = await client.nodes.stats({ metric: ['jvm', 'process'] });
  const node = Object.values(nodes.nodes)[0];
  return {
    store_bytes: stats._all.primaries?.store?.size_in_bytes,
    docs: stats._all.primaries?.docs?.count,
    heap_max_bytes: node?.jvm?.mem?.heap_max_in_bytes,
    heap_used_bytes: node?.jvm?.mem?.heap_used_in_bytes,
    // Resident memory of the Elasticsearch JVM, as the OS sees it (heap, off-heap and mapped pages).
    process_rss_bytes:
      Number(
        spawnSync('ps', ['-o', 'rss=', '-u', 'ukcd-es'], { encoding: 'utf8' })
          .stdout.split('\n')
          .reduce((sum, line) => sum + (Number(line.trim()) || 0), 0),
      ) * 1024,
  };
}

function describe(l: Latency): string {
  return `${l.workload}: ${l.queries} queries, p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(0)} ms, ${l.perSecond.toFixed(0)}/s`;
}

function markdown(report: Record<string, unknown>, results: Latency[]): string {
  const build = report.build as { seconds: number; documents: number; rate: number } | undefined;
  const lines = [
    build
      ? `Full build: ${build.documents.toLocaleString('en-GB')} companies in ${(build.seconds / 60).toFixed(1)} min (${Math.round(build.rate).toLocaleString('en-GB')}/s)\n`
      : '',
    '| workload | queries | p50 ms | p95 ms | p99 ms | max ms | queries/s | CPU-ms a query: bench, PostgreSQL, Elasticsearch | load average |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...results.map((l) => {
      const cpu = l.cpu_ms_per_query;
      const ms = (v: number | null | undefined) => (v === null || v === undefined ? '–' : v.toFixed(2));
      return `| ${l.workload} | ${l.queries} | ${l.p50.toFixed(1)} | ${l.p95.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.max.toFixed(0)} | ${l.perSecond.toFixed(0)} | ${ms(cpu.bench)}, ${ms(cpu.postgres_this_db)}, ${ms(cpu.elasticsearch)} | ${l.load_average.join(', ')} |`;
    }),
  ];
  return lines.join('\n');
}

await main();
