/**
 * bench/load: the loaders end to end into a real PostgreSQL server (scripts/postgres.sh), each run
 * in a fresh database, through the `ukcd` command exactly as an operator runs it, with the peak
 * RSS of the whole process (worker threads included) from GNU time, and the CPU used: the loader
 * process's user + system time (GNU time, worker threads included) and PostgreSQL's over the load
 * (every `postgres` process, and what the postmaster reaped from backends that ended;
 * bench/process-cpu.ts). An accounts load is preceded by a load of an empty folder into another
 * fresh database, measured the same way: its CPU (Node's start, migrations, the parse workers'
 * start, the alerts pass) is taken off before the CPU-ms per filing are worked out.
 *
 *   npm run bench:load -- accounts --corpus bench/results/corpus-80000 [--no-index]   # parse-bench corpus (npm run bench:parse makes it)
 *   npm run bench:load -- register --file PATH                                        # a register snapshot zip or CSV
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import type { Sql } from '../src/ports/sql.ts';
import { cpuByProcessUnavailable, startCpuWindow } from './process-cpu.ts';

const root = resolve(import.meta.dirname, '..');

interface TimedLoad {
  /** The loader's summary lines and GNU time's. */
  lines: string[];
  wall_s: number;
  /** The `ukcd` process's user + system CPU, worker threads included. */
  loader_s: number;
  /** Every postgres process's CPU over the load (the server is shared: anything else it served too). */
  postgres_s: number;
  /** The machine's busy CPU-seconds over the load, all cores: beyond loader + PostgreSQL, others ran. */
  machine_busy_s: number;
}

/** `ukcd load ...args` into a fresh database under GNU time, PostgreSQL's CPU measured around it. */
async function timedLoad(
  admin: Sql,
  server: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  inspect: (url: string) => Promise<void>,
): Promise<TimedLoad> {
  const name = `ukcd_bench_${Date.now().toString(36)}`;
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = server.replace(/\/[^/]*$/, `/${name}`);
  try {
    const started = Date.now();
    const cpuWindow = startCpuWindow({ postgres: { comm: 'postgres' } });
    const run = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        'peak RSS %M KB, %e s wall, %U s user, %S s system',
        process.execPath,
        join(root, 'bin', 'ukcd.mjs'),
        ...args,
      ],
      {
        env: { ...env, DATABASE_URL: url },
        encoding: 'utf8',
        stdio: ['ignore', 'inherit', 'pipe'],
        maxBuffer: 64 << 20,
      },
    );
    const postgresUse = cpuWindow.stop();
    const wall_s = (Date.now() - started) / 1000;
    const lines = run.stderr.trim().split('\n');
    const time = /peak RSS \d+ KB, [\d.]+ s wall, ([\d.]+) s user, ([\d.]+) s system/.exec(lines.at(-1) ?? '');
    if (run.status !== 0 || !time) throw new Error(`ukcd ${args.join(' ')} failed:\n${lines.slice(-20).join('\n')}`);
    const postgres_s = postgresUse.groups.postgres;
    if (postgres_s === null || postgres_s === undefined) throw new Error('no postgres process ran during the load');
    await inspect(url);
    return {
      lines: lines.filter((l) => /^(accounts|register|peak RSS)/.test(l)),
      wall_s,
      loader_s: Number(time[1]) + Number(time[2]),
      postgres_s,
      machine_busy_s: postgresUse.machine.busy_s,
    };
  } finally {
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function describeDatabase(url: string): Promise<string> {
  const db = createPgSql({ connectionString: url, max: 1 });
  const size = await db.query<{ size: string }>(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`);
  const counts = await db.query(
    `SELECT (SELECT count(*) FROM companies) AS companies, (SELECT count(*) FROM filings) AS filings, (SELECT count(*) FROM accounts_history) AS history`,
  );
  await db.close();
  return `database ${size.rows[0]!.size}; ${JSON.stringify(counts.rows[0])}`;
}

const ms = (seconds: number, filings: number) => Math.round((seconds * 1e6) / filings) / 1000;
const s = (seconds: number) => Math.round(seconds * 100) / 100;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      corpus: { type: 'string' },
      file: { type: 'string' },
      workers: { type: 'string' },
      'no-index': { type: 'boolean', default: false },
    },
  });
  const what = positionals[0];
  const input = what === 'accounts' ? values.corpus : values.file;
  if ((what !== 'accounts' && what !== 'register') || !input) {
    throw new Error('usage: bench/load.ts accounts --corpus DIR [--no-index] | register --file PATH [--no-index]');
  }
  const noCpu = cpuByProcessUnavailable();
  if (noCpu) throw new Error(`${noCpu}: bench/load records PostgreSQL's CPU during the load`);
  const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  const admin = createPgSql({ connectionString: server, max: 1 });
  const env = {
    ...process.env,
    DATA_DIR: join(root, 'bench', 'results', 'data'),
    ...(values.workers ? { UKCD_WORKERS: values.workers } : {}),
  };
  const flags = [...(what === 'register' ? ['--complete'] : []), ...(values['no-index'] ? ['--no-index'] : [])];
  const empty = mkdtempSync(join(tmpdir(), 'ukcd-bench-empty-'));
  try {
    // The start-up, measured as the load is: an empty folder into a fresh database.
    const startup =
      what === 'accounts' ? await timedLoad(admin, server, ['load', what, empty, ...flags], env, async () => {}) : null;
    let database = '';
    const load = await timedLoad(admin, server, ['load', what, input, ...flags], env, async (url) => {
      database = await describeDatabase(url);
    });
    process.stdout.write(`${load.lines.join('\n')}\nwall ${load.wall_s.toFixed(1)} s; ${database}\n`);
    const cpu: Record<string, unknown> = {
      loader_s: s(load.loader_s),
      postgres_s: s(load.postgres_s),
      machine_busy_s: s(load.machine_busy_s),
    };
    if (startup) {
      const summary = /accounts: \d+ of (\d+) filings loaded/.exec(load.lines.join('\n'));
      if (!summary) throw new Error(`the loader's summary line is missing: cannot tell how many filings it read`);
      const filings = Number(summary[1]);
      cpu.startup = {
        loader_s: s(startup.loader_s),
        postgres_s: s(startup.postgres_s),
        machine_busy_s: s(startup.machine_busy_s),
      };
      cpu.filings = filings;
      if (filings > 0) {
        const loader = ms(load.loader_s - startup.loader_s, filings);
        const postgres = ms(load.postgres_s - startup.postgres_s, filings);
        cpu.ms_per_filing = { loader, postgres, together: Math.round((loader + postgres) * 1000) / 1000 };
      }
    }
    process.stdout.write(
      `CPU: loader = the ukcd process, worker threads included (GNU time); PostgreSQL = every postgres process` +
        ` on the server and the backends that ended during the load; machine = all cores busy, whoever ran` +
        (startup
          ? `; the start-up (an empty load into its own fresh database) taken off per filing`
          : ', start-up included') +
        `\ncpu: ${JSON.stringify(cpu)}\n`,
    );
  } finally {
    rmSync(empty, { recursive: true, force: true });
    await admin.close();
  }
}

await main();
