/**
 * Servers of their own for the tests that stop and freeze them — a PostgreSQL server and an
 * Elasticsearch node for the outage tests, a primary and its hot standby for the read-replica
 * test: the servers every other test shares are never touched. Started by the project's scripts
 * (on other ports and directories), stopped by them, frozen with SIGSTOP.
 */
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './samples.ts';

const run = promisify(execFile);

const OUTAGE_POSTGRES_ENV = {
  UKCD_PG_PORT: '54339',
  UKCD_PG_DIR: '/var/tmp/ukcd-pg-outage',
  UKCD_PG_DB: 'ukcd_outage',
};
const OUTAGE_ELASTICSEARCH_ENV = {
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

const REPLICA_PRIMARY_ENV = {
  UKCD_PG_PORT: '54349',
  UKCD_PG_DIR: '/var/tmp/ukcd-pg-replica-primary',
  UKCD_PG_DB: 'ukcd_replicated',
};
const REPLICA_STANDBY_ENV = {
  UKCD_PG_PORT: '54350',
  UKCD_PG_DIR: '/var/tmp/ukcd-pg-replica-standby',
  UKCD_PG_DB: 'ukcd_replicated',
  UKCD_PG_REPLICA_OF: REPLICA_PRIMARY_ENV.UKCD_PG_PORT,
};

/**
 * A primary and a streaming hot standby of it, made fresh (a standby copied from an earlier
 * primary could not follow a new one); `remove` stops both and deletes their clusters.
 */
export const replicaPair = {
  async start(): Promise<{ primary: string; standby: string }> {
    await this.remove();
    const primary = await script('postgres.sh', REPLICA_PRIMARY_ENV);
    const standby = await script('postgres.sh', REPLICA_STANDBY_ENV);
    return { primary, standby };
  },
  stopStandby: () => script('postgres.sh', REPLICA_STANDBY_ENV, 'stop'),
  startStandby: () => script('postgres.sh', REPLICA_STANDBY_ENV),
  async remove(): Promise<void> {
    await script('postgres.sh', REPLICA_STANDBY_ENV, 'stop');
    await script('postgres.sh', REPLICA_PRIMARY_ENV, 'stop');
    await rm(REPLICA_STANDBY_ENV.UKCD_PG_DIR, { recursive: true, force: true });
    await rm(REPLICA_PRIMARY_ENV.UKCD_PG_DIR, { recursive: true, force: true });
  },
};
