/**
 * bench/shared-load: one accounts corpus loaded by 1, 2, … `ukcd load accounts` processes at once
 * into one fresh database each time (docs/shared-loads.md), through the `ukcd` command as
 * operators run it. Reports the wall time from the first start to the last exit, the filings/s of
 * the whole, the CPU seconds the loaders used (user + system, from GNU time), and what each process
 * says it loaded.
 *
 *   npx tsx bench/shared-load.ts --corpus DIR [--processes 1,2] [--workers N]
 *
 * The corpus: any folder of accounts bulk zips, e.g.
 *   node bin/ukcd.mjs generate accounts --out bench/results/shared-corpus --companies 100000 --years 1 --from 2024-01-01 --until 2024-03-01
 */
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';

const root = resolve(import.meta.dirname, '..');

interface Finished {
  stderr: string;
  code: number | null;
}

function runLoader(corpus: string, env: NodeJS.ProcessEnv, workers: string | undefined): Promise<Finished> {
  const args = [
    '-f',
    'cpu %U user %S system',
    process.execPath,
    join(root, 'bin', 'ukcd.mjs'),
    'load',
    'accounts',
    corpus,
    '--no-index',
  ];
  if (workers) args.push('--workers', workers);
  const child = spawn('/usr/bin/time', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.once('exit', (code) => done({ stderr, code })));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      processes: { type: 'string', default: '1,2' },
      workers: { type: 'string' },
    },
  });
  if (!values.corpus) throw new Error('usage: bench/shared-load.ts --corpus DIR [--processes 1,2] [--workers N]');
  const corpus = resolve(values.corpus);
  const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  const admin = createPgSql({ connectionString: server, max: 1 });
  try {
    for (const processes of values.processes.split(',').map(Number)) {
      const name = `ukcd_bench_shared_${Date.now().toString(36)}`;
      await admin.exec(`CREATE DATABASE ${name}`);
      const url = server.replace(/\/[^/]*$/, `/${name}`);
      try {
        const env = { ...process.env, DATABASE_URL: url, DATA_DIR: join(root, 'bench', 'results', 'data') };
        // The schema first, so that the time is the load's alone.
        spawnSync(process.execPath, [join(root, 'bin', 'ukcd.mjs'), 'keys', 'list'], { env, stdio: 'ignore' });
        const started = Date.now();
        const runs = await Promise.all(Array.from({ length: processes }, () => runLoader(corpus, env, values.workers)));
        const seconds = (Date.now() - started) / 1000;
        const db = createPgSql({ connectionString: url, max: 1 });
        const filings = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM filings`)).rows[0]!.n);
        await db.close();
        let cpu = 0;
        for (const run of runs) {
          if (run.code !== 0) throw new Error(`a loader exited ${run.code}:\n${run.stderr}`);
          const [, user, system] = /cpu ([\d.]+) user ([\d.]+) system/.exec(run.stderr) ?? [];
          cpu += Number(user) + Number(system);
        }
        process.stdout.write(
          `${processes} process(es)${values.workers ? `, ${values.workers} worker(s) each` : ''}: ${filings} filings in ` +
            `${seconds.toFixed(1)} s wall = ${Math.round(filings / seconds)} filings/s; loaders' CPU ${cpu.toFixed(1)} s ` +
            `(${((cpu * 1000) / filings).toFixed(2)} ms a filing)\n` +
            runs.map((run) => `  ${/accounts: \d+ of \d+ filings loaded.*/.exec(run.stderr)?.[0] ?? '?'}\n`).join(''),
        );
      } finally {
        await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    }
  } finally {
    await admin.close();
  }
}

await main();
