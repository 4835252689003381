/**
 * The service on the embedded default, as an operator runs it: `ukcd start` and `npm start` in
 * processes of their own on one DATA_DIR, with `ukcd` commands run beside them.
 *
 * - It listens on 127.0.0.1 unless HOST says otherwise, and its banner says what it listens on.
 * - While it serves, every command that would open the same PGlite (keys, load, sync, index, a
 *   second start) is refused with what to do, exits 2 and writes nothing: a key revoked beside the
 *   service used to print success, keep answering 200, and be lost when the service stopped.
 * - Stopped, it leaves the store to the commands; a key revoked then stays revoked when the service
 *   starts again through `npm start`, whose SIGTERM stops the server too (it used to leave it
 *   running, orphaned, on its port).
 *
 * The store is made from the register sample, so that the service starts in seconds without the
 * sample dataset.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { keyPrefix } from '../../src/domain/api-keys.ts';
import { listeningUrl } from '../../src/composition/start-service.ts';
import { registerSamplesDir, repoRoot } from '../support/samples.ts';
import type { Service } from '../support/ukcd-start.ts';
import { startService } from '../support/ukcd-start.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-in-use-'));
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  PORT: '0',
  // Unset (empty counts as unset): the embedded store, search on it, the default HOST.
  DATABASE_URL: '',
  DATABASE_READ_URL: '',
  ELASTICSEARCH_URL: '',
  HOST: '',
  LOG_REQUESTS: 'false',
};
const sample = join(registerSamplesDir, 'basic-sample.csv');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function ukcd(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'bin', 'ukcd.mjs'), ...args],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        done({ status: error ? ((error.code as number | undefined) ?? -1) : 0, stdout, stderr }),
    );
  });
}

async function status(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/v1/search-by-name?name=limited&format=json`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await response.arrayBuffer();
  return response.status;
}

/** Whether something accepts connections at host:port. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Every file and folder under DATA_DIR but PGlite's own (which the service writes as it serves). */
function dataDirListing(): string[] {
  return readdirSync(dataDir, { recursive: true })
    .map(String)
    .filter((path) => path !== 'pglite' && !path.startsWith(`pglite/`))
    .sort();
}

const lockFile = join(dataDir, 'pglite.lock');
let service: Service | undefined;
let key: string;

before(async () => {
  const loaded = await ukcd('load', 'register', sample, '--snapshot-date', '2026-01-01', '--partial');
  assert.equal(loaded.status, 0, loaded.stderr);
  assert.equal(existsSync(lockFile), false, 'the load released the store');
  service = await startService(env);
  const response = await fetch(`${service.url}/v1/keys/free`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(response.status, 201, await response.clone().text());
  key = ((await response.json()) as { api_key: string }).api_key;
});

after(() => {
  service?.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the service on the embedded store', { concurrency: false }, () => {
  test('listens on 127.0.0.1 by default, and its banner says so', async () => {
    const url = new URL(service!.url);
    assert.equal(url.hostname, '127.0.0.1', service!.output.join(''));
    assert.equal(await status(service!.url, key), 200);
    const port = Number(url.port);
    // Not reachable on this machine's other addresses (there may be none in a sandbox).
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal && address.family === 'IPv4');
    for (const address of others) assert.equal(await answers(address!.address, port), false, address!.address);
  });

  test('an IPv6 address is written in brackets in the URL', () => {
    assert.equal(listeningUrl({ address: '::1', port: 3000 }), 'http://[::1]:3000');
    assert.equal(listeningUrl({ address: '0.0.0.0', port: 80 }), 'http://0.0.0.0:80');
  });

  test('while it serves, every command that would open its store is refused, says what to do and writes nothing', async () => {
    const pid = service!.child.pid!;
    const before = dataDirListing();
    const commands = [
      ['keys', 'issue'],
      ['keys', 'revoke', keyPrefix(key)],
      ['load', 'register', sample, '--snapshot-date', '2026-02-01', '--partial'],
      ['index', '--full'],
      ['sync', '--base-url', 'http://127.0.0.1:9/'],
      ['start'],
    ];
    const runs = await Promise.all(commands.map((args) => ukcd(...args)));
    for (const [i, run] of runs.entries()) {
      const name = `ukcd ${commands[i]!.join(' ')}`;
      assert.equal(run.status, 2, `${name}: ${run.stderr}`);
      assert.match(
        run.stderr,
        new RegExp(
          `^refused: the embedded store in ${dataDir} is open in another process: pid ${pid} \\(ukcd start\\)\\.`,
        ),
        name,
      );
      assert.match(
        run.stderr,
        /Stop that process .* and run this command again; or run the service on PostgreSQL \(DATABASE_URL\)/,
      );
      assert.doesNotMatch(run.stderr, /\n\s+at /, `${name}: no stack trace`);
      assert.equal(run.stdout, '', `${name}: no key, no listing`);
    }
    assert.deepEqual(dataDirListing(), before, 'nothing written: no report, no download, no sample');
    assert.equal(readFileSync(lockFile, 'utf8'), `${pid}\nukcd start\n`, 'the lock names the service');
    assert.equal(await status(service!.url, key), 200, 'the key the refused revoke named still works');
  });

  test('stopped, it releases the store; a key revoked then stays revoked under `npm start`, which SIGTERM stops whole', async () => {
    service!.child.kill('SIGTERM');
    assert.equal(await service!.exited, 0, service!.output.join(''));
    service = undefined;
    assert.equal(existsSync(lockFile), false, 'the lock went with the service');

    const revoked = await ukcd('keys', 'revoke', keyPrefix(key));
    assert.equal(revoked.status, 0, revoked.stderr);

    // Its own process group, so that whatever npm starts can be found (and cleaned up) afterwards.
    const npm = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: { ...process.env, ...env, npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    const group = npm.pid!;
    const npmExited = new Promise<number | null>((done) => npm.once('exit', (code) => done(code)));
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not serve:\n${output}`)), 60_000);
        npm.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          const m = /serving on (http:\/\/\S+?) /.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        void npmExited.then(() => reject(new Error(`npm start exited:\n${output}`)));
      });
      assert.equal(await status(url, key), 401, 'the revocation made while the service was stopped holds');

      process.kill(group, 'SIGTERM');
      await npmExited;
      // The server shuts down gracefully, maybe just after npm; one left orphaned never does.
      for (let waited = 0; groupAlive(group) && waited < 15_000; waited += 100) await sleep(100);
      assert.equal(groupAlive(group), false, 'no process of npm start is left running');
      const port = Number(new URL(url).port);
      assert.equal(await answers('127.0.0.1', port), false, `nothing serves port ${port} any more`);
      assert.equal(existsSync(lockFile), false, 'the server released the store');
    } finally {
      if (groupAlive(group)) process.kill(-group, 'SIGKILL');
    }
  });
});

/** Whether any process of the process group `id` still runs. */
function groupAlive(id: number): boolean {
  try {
    process.kill(-id, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
