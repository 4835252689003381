/**
 * bench/lookup-batch: POST /v1/companies (the batch lookup) against real PostgreSQL holding the
 * full-size synthetic register with accounts, the service in one process (bench/lookup-server.ts)
 * and the load generator (autocannon) in this one. Every request is a real authenticated call: the
 * key is checked by its hash and charged the batch's size in one statement, then the companies and
 * their histories are read in one statement and each profile computed.
 *
 * Each request asks for `--batch` (default 100) numbers drawn at random from the register, or,
 * with --filers, only from companies with accounts on file (every profile then has figures,
 * signals and a trajectory to compute: the heavier case). Keys rotate over enough pro keys that no
 * quota runs out.
 *
 *   npm run bench:lookup-batch -- --database ukcd_bench_batch                       # 30 s at 16 connections
 *   npm run bench:lookup-batch -- --database ukcd_bench_batch --filers --duration 20
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createKeyStore } from '../src/adapters/postgres/key-store.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../src/domain/api-keys.ts';
import { Random } from '../src/synthetic/random.ts';
import { sampleRss } from './process-rss.ts';
import { latencyMs } from './latency.ts';

const root = resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '30' },
      connections: { type: 'string', default: '16' },
      pool: { type: 'string', default: '16' },
      batch: { type: 'string', default: '100' },
      filers: { type: 'boolean' },
      markdown: { type: 'boolean' },
      database: { type: 'string', default: 'ukcd_bench_batch' },
      label: { type: 'string' },
    },
  });
  const batch = Number(values.batch);
  const duration = Number(values.duration);
  const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  const url = server.replace(/\/[^/]*$/, `/${values.database}`);
  const sql = createPgSql({ connectionString: url, max: 2 });
  const keys = createKeyStore(sql);
  // A fixed sample, so that runs draw from the same companies: the register's, or those that file.
  const sample = await sql.query<{ company_number: string }>(
    values.filers
      ? `SELECT DISTINCT company_number FROM accounts_history TABLESAMPLE SYSTEM (5) REPEATABLE (3) LIMIT 20000`
      : `SELECT company_number FROM companies TABLESAMPLE SYSTEM (0.5) REPEATABLE (3) LIMIT 20000`,
  );
  const numbers = sample.rows.map((r) => r.company_number);
  const sizes = await sql.query<{ companies: number; filers: number; history: number; filings: number }>(
    `SELECT (SELECT count(*) FROM companies)::int AS companies,
            (SELECT count(DISTINCT company_number) FROM accounts_history)::int AS filers,
            (SELECT count(*) FROM accounts_history)::int AS history,
            (SELECT count(*) FROM filings)::int AS filings`,
  );
  const onRegister = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM companies WHERE company_number = ANY($1::text[])`,
    [numbers],
  );
  // Enough pro keys (5,000 requests a month each) for 100 batches of `batch` a second.
  const apiKeys: string[] = [];
  for (let i = 0; i < Math.ceil(((duration + 10) * 100 * batch) / 4500) + 2; i++) {
    const key = generateApiKey();
    await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan: 'pro', email: null, clientIp: null });
    apiKeys.push(key);
  }
  await sql.close();

  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'bench', 'lookup-server.ts'), url, values.pool!],
    { stdio: ['ignore', 'ignore', 'pipe'] },
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
    const random = new Random(7);
    const path = `/v1/companies${values.markdown ? '' : '?format=json'}`;
    let turn = 0;
    const bodies = () => {
      const chosen = new Set<string>();
      while (chosen.size < batch) chosen.add(numbers[random.int(0, numbers.length - 1)]!);
      return JSON.stringify({ company_numbers: [...chosen] });
    };
    const next = () => ({ body: bodies(), key: apiKeys[turn++ % apiKeys.length]! });
    // Warm-up, then the measured run.
    await run(port, 5, Number(values.connections), path, next);
    const peak = sampleRss(child);
    const result = await run(port, duration, Number(values.connections), path, next);
    const rssMb = peak.stop();
    const report = {
      label: values.label ?? null,
      at: new Date().toISOString(),
      database: { ...sizes.rows[0]!, sampled: numbers.length, sampled_on_register: onRegister.rows[0]!.n },
      drawn_from: values.filers ? 'companies with accounts' : 'the register',
      batch,
      connections: Number(values.connections),
      duration,
      format: values.markdown ? 'markdown' : 'json',
      requests: result.requests.total,
      rps: result.requests.average,
      companies_per_s: Math.round(result.requests.average * batch),
      latency_ms: latencyMs(result),
      kb_per_answer: Math.round(result.throughput.average / Math.max(1, result.requests.average) / 1024),
      non2xx: result.non2xx,
      errors: result.errors,
      server_peak_rss_mb: rssMb,
    };
    mkdirSync(join(root, 'bench', 'results'), { recursive: true });
    writeFileSync(join(root, 'bench', 'results', 'lookup-batch.json'), JSON.stringify(report, null, 2));
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    child.kill('SIGTERM');
  }
}

function run(
  port: number,
  duration: number,
  connections: number,
  path: string,
  next: () => { body: string; key: string },
): Promise<autocannon.Result> {
  return new Promise((done, fail) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const { body, key } = next();
              return {
                ...request,
                path,
                body,
                headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
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
