/**
 * A PostgreSQL server and an Elasticsearch node of their own for the outage tests, which stop and
 * freeze them: the servers every other test shares are never touched. Started by the project's
 * scripts (on other ports and directories), stopped by them, frozen with SIGSTOP.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './samples.ts';

const run = promisify(execFile);

export const OUTAGE_POSTGRES_ENV = {
  UKCD_PG_PORT: '54339',
  UKCD_PG_DIR: '/var/tmp/ukcd-pg-outage',
  UKCD_PG_DB: 'ukcd_outage',
};
export const OUTAGE_ELASTICSEARCH_ENV = {
  UKCD_ES_PORT: '9399',
  UKCD_ES_DIR: '/var/tmp/ukcd-es-outage',
  UKCD_ES_HEAP: '512m',
};

async function script(name: string, env: Record<string, string>, ...args: string[]): Promise<string> {
  const { stdout } = await run('bash', [join(repoRoot, 'scripts', name), ...args], {
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
  return stdout.trim().split('\n').at(-1) ?? '';
}

export const outagePostgres = {
  start: () => script('postgres.sh', OUTAGE_POSTGRES_ENV),
  stop: () => script('postgres.sh', OUTAGE_POSTGRES_ENV, 'stop'),
  /** The postmaster and every backend: a host that stopped answering, connections left open. */
  async processes(): Promise<number[]> {
    const pidFile = await readFile(join(OUTAGE_POSTGRES_ENV.UKCD_PG_DIR, 'data', 'postmaster.pid'), 'utf8');
    const postmaster = Number(pidFile.split('\n')[0]);
    const { stdout } = await run('pgrep', ['-P', String(postmaster)]).catch(() => ({ stdout: '' }));
    return [postmaster, ...stdout.split('\n').filter(Boolean).map(Number)];
  },
  async freeze(): Promise<void> {
    for (const pid of (await this.processes()).reverse()) process.kill(pid, 'SIGSTOP');
  },
  async thaw(): Promise<void> {
    for (const pid of await this.processes()) process.kill(pid, 'SIGCONT');
  },
};

export const outageElasticsearch = {
  start: () => script('elasticsearch.sh', OUTAGE_ELASTICSEARCH_ENV),
  stop: () => script('elasticsearch.sh', OUTAGE_ELASTICSEARCH_ENV, 'stop'),
  async pid(): Promise<number> {
    return Number((await readFile(join(OUTAGE_ELASTICSEARCH_ENV.UKCD_ES_DIR, 'es.pid'), 'utf8')).trim());
  },
  async freeze(): Promise<void> {
    process.kill(await this.pid(), 'SIGSTOP');
  },
  async thaw(): Promise<void> {
    process.kill(await this.pid(), 'SIGCONT');
  },
};
