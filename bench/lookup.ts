/**
 * bench/lookup: GET /v1/company against real PostgreSQL holding the full-size synthetic register
 * with accounts history (bench/search-data.ts builds it), the service in one process and the load
 * generator (autocannon) in this one. Every request is a real authenticated call: the key is
 * checked by its hash and counted against its quota, then the company and its history are read.
 * Company numbers are drawn at random from the register; keys rotate over enough pro keys that no
 * quota runs out.
 *
 *   npm run bench:lookup                                      # 30 s at 64 connections, JSON
 *   npm run bench:lookup -- --duration 60 --connections 32 --markdown
 *   npm run bench:lookup -- --database ukcd_bench_small       # another database made by the loaders
 *
 * The CPU of the service, of PostgreSQL's backends serving the database and of this process over
 * the measured run is recorded per request (bench/process-cpu.ts), with the machine's load
 * average: the machine is shared, so the rate alone does not compare runs.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createKeyStore } from '../src/adapters/postgres/key-store.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../src/domain/api-keys.ts';
import { cpuByProcessUnavailable, cpuPerRequest, serviceCpuGroups, startCpuWindow } from './process-cpu.ts';
import { sampleRss } from './process-rss.ts';
import { latencyMs } from './latency.ts';

const root = resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '30' },
      connections: { type: 'string', default: '64' },
      pool: { type: 'string', default: '16' },
      markdown: { type: 'boolean' },
      /** The benchmark database: bench/search-data's (default), or bench/full-scale's ukcd_bench_full. */
      database: { type: 'string', default: 'ukcd_bench_search' },
    },
  });
  const noCpu = cpuByProcessUnavailable();
  if (noCpu) throw new Error(`${noCpu}: bench/lookup records the CPU of each process group`);
  const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  const url = server.replace(/\/[^/]*$/, `/${values.database}`);
  const sql = createPgSql({ connectionString: url, max: 2 });
  const keys = createKeyStore(sql);
  const sample = await sql.query<{ company_number: string }>(
    `SELECT company_number FROM companies TABLESAMPLE SYSTEM (0.5) REPEATABLE (3) LIMIT 20000`,
  );
  const numbers = sample.rows.map((r) => r.company_number);
  const withHistory = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM accounts_history WHERE company_number = ANY($1::text[])`,
    [numbers],
  );
  const duration = Number(values.duration);
  // Enough pro keys (5,000 requests a month each) for 3,000 requests a second for the whole run.
  const apiKeys: string[] = [];
  for (let i = 0; i < Math.ceil((duration * 3000) / 4000) + 2; i++) {
    const key = generateApiKey();
    await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan: 'pro', email: null, clientIp: null });
    apiKeys.push(key);
  }
  await sql.close();

  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'bench', 'lookup-server.ts'), url, values.pool!],
    {
      // The request log (stdout) is written and discarded, as a log shipper would take it.
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const port = await new Promise<number>((ready, fail) => {
    child.stderr!.on('data', (data: Buffer) => {
      const match = /port (\d+)/.exec(data.toString());
      if (match) ready(Number(match[1]));
      else process.stderr.write(data);
    });
    child.once('exit', (code) => fail(new Error(`server exited ${code}`)));
  });
  try {
    const format = values.markdown ? '' : '&format=json';
    let turn = 0;
    // Warm-up, then the measured run.
    await run(port, 5, Number(values.connections), numbers, apiKeys, format, () => turn++);
    const peak = sampleRss(child);
    const cpuWindow = startCpuWindow(serviceCpuGroups(child.pid!, values.database, false));
    const result = await run(port, duration, Number(values.connections), numbers, apiKeys, format, () => turn++);
    const cpu = cpuPerRequest(cpuWindow.stop(), result.requests.total);
    const rssMb = peak.stop();
    const report = {
      companies_sampled: numbers.length,
      history_rows_of_sample: withHistory.rows[0]!.n,
      connections: Number(values.connections),
      duration,
      format: values.markdown ? 'markdown' : 'json',
      requests: result.requests.total,
      rps: result.requests.average,
      latency_ms: latencyMs(result),
      non2xx: result.non2xx,
      errors: result.errors,
      server_peak_rss_mb: rssMb,
      ...cpu,
      // 1, 5 and 15 minutes, at the end of the measured run.
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    };
    writeFileSync(join(root, 'bench', 'results', 'lookup.json'), JSON.stringify(report, null, 2));
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    child.kill('SIGTERM');
  }
}

function run(
  port: number,
  duration: number,
  connections: number,
  numbers: readonly string[],
  apiKeys: readonly string[],
  format: string,
  next: () => number,
): Promise<autocannon.Result> {
  return new Promise((done, fail) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => {
              const i = next();
              return {
                ...request,
                path: `/v1/company?number=${numbers[i % numbers.length]}${format}`,
                headers: { authorization: `Bearer ${apiKeys[i % apiKeys.length]}` },
              };
            },
          },
        ],
      },
      (error, result) => (error ? fail(error) : done(result)),
    );
  });
}

await main();
