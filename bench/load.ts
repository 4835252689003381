/**
 * bench/load: the loaders end to end into a real PostgreSQL server (scripts/postgres.sh), each run
 * in a fresh database, through the `ukcd` command exactly as an operator runs it, with the peak
 * RSS of the whole process (worker threads included) from GNU time.
 *
 *   npm run bench:load -- accounts --corpus bench/results/corpus-80000   # parse-bench corpus (npm run bench:parse makes it)
 *   npm run bench:load -- register --file PATH                            # a register snapshot zip or CSV
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';

const root = resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { corpus: { type: 'string' }, file: { type: 'string' }, workers: { type: 'string' } },
  });
  const what = positionals[0];
  const input = what === 'accounts' ? values.corpus : values.file;
  if ((what !== 'accounts' && what !== 'register') || !input) {
    throw new Error('usage: bench/load.ts accounts --corpus DIR | register --file PATH');
  }
  const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  const admin = createPgSql({ connectionString: server, max: 1 });
  const name = `ukcd_bench_${Date.now().toString(36)}`;
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = server.replace(/\/[^/]*$/, `/${name}`);
  try {
    const args = [join(root, 'bin', 'ukcd.mjs'), 'load', what, input, ...(what === 'register' ? ['--complete'] : [])];
    const env = {
      ...process.env,
      DATABASE_URL: url,
      DATA_DIR: join(root, 'bench', 'results', 'data'),
      ...(values.workers ? { UKCD_WORKERS: values.workers } : {}),
    };
    const started = Date.now();
    const run = spawnSync(
      '/usr/bin/time',
      ['-f', 'peak RSS %M KB, %e s wall, %U s user, %S s system', process.execPath, ...args],
      {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'inherit', 'pipe'],
        maxBuffer: 64 << 20,
      },
    );
    const seconds = (Date.now() - started) / 1000;
    const lines = run.stderr.trim().split('\n');
    const db = createPgSql({ connectionString: url, max: 1 });
    const size = await db.query<{ size: string }>(
      `SELECT pg_size_pretty(pg_database_size(current_database())) AS size`,
    );
    const counts = await db.query(
      `SELECT (SELECT count(*) FROM companies) AS companies, (SELECT count(*) FROM filings) AS filings, (SELECT count(*) FROM accounts_history) AS history`,
    );
    await db.close();
    process.stdout.write(
      `${lines.filter((l) => /^(accounts|register|peak RSS)/.test(l)).join('\n')}\n` +
        `wall ${seconds.toFixed(1)} s; database ${size.rows[0]!.size}; ${JSON.stringify(counts.rows[0])}\n`,
    );
  } finally {
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  }
}

await main();
