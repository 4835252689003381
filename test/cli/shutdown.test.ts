/**
 * `ukcd start` stops when told, whatever became of its log's reader: SIGTERM with stdout and
 * stderr piped to a reader that goes away at once (Ctrl-C on `npm start | tee run.log`), or to one
 * that stops reading. It exits within the grace period with the code that says how it ended,
 * releases the embedded store's lock, and the next start succeeds. It used to close its port and
 * then never exit, writing its request log to the broken pipe forever.
 *
 * The store is made from the register sample, so that the service starts in seconds.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { registerSamplesDir, repoRoot } from '../support/samples.ts';
import { startService } from '../support/ukcd-start.ts';

const GRACE_MS = 5_000;
const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-shutdown-'));
const lockFile = join(dataDir, 'pglite.lock');
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  PORT: '0',
  DATABASE_URL: '',
  DATABASE_READ_URL: '',
  ELASTICSEARCH_URL: '',
  HOST: '',
  LOG_REQUESTS: 'true',
  SHUTDOWN_GRACE_MS: String(GRACE_MS),
};
const children: ChildProcess[] = [];

before(async () => {
  const sample = join(registerSamplesDir, 'basic-sample.csv');
  await new Promise<void>((done, fail) =>
    execFile(
      process.execPath,
      [join(repoRoot, 'bin/ukcd.mjs'), 'load', 'register', sample, '--snapshot-date', '2026-01-01', '--partial'],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (error, _stdout, stderr) => (error ? fail(new Error(stderr)) : done()),
    ),
  );
});

after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** `ukcd start` with stdout and stderr piped to this process; resolves once it serves. */
async function startPiped() {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/ukcd.mjs'), 'start'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: string | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  let stderr = '';
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const m = /serving on (http:\/\/\S+?) /.exec(stderr);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`the service exited:\n${stderr}`)));
  });
  return { child, url, exited, stdout: () => stdout };
}

/** The exit, or a failure once the grace period and a margin for closing the store are past. */
function exitWithinGrace(exited: Promise<{ code: number | null; signal: string | null }>) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`still running ${GRACE_MS + 5_000} ms after SIGTERM`)), GRACE_MS + 5_000);
  });
  return Promise.race([exited, late]).finally(() => clearTimeout(timer));
}

async function requests(url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await (await fetch(`${url}/healthz?n=${i}`)).arrayBuffer();
}

/** Resolves once `predicate` holds of what the child wrote to stdout. */
function stdoutShows(service: Awaited<ReturnType<typeof startPiped>>, predicate: (text: string) => boolean) {
  return new Promise<void>((done) => {
    if (predicate(service.stdout())) return done();
    const check = () => {
      if (!predicate(service.stdout())) return;
      service.child.stdout!.off('data', check);
      done();
    };
    service.child.stdout!.on('data', check);
  });
}

describe(
  'ukcd start stops when told, whatever became of its log reader',
  { concurrency: false, timeout: 180_000 },
  () => {
    test('SIGTERM with the reader of stdout and stderr gone at once: exits 0 in the grace period, lock released, starts again', async () => {
      const service = await startPiped();
      assert.equal(existsSync(lockFile), true, 'the running service holds the lock');
      await requests(service.url, 40);
      // The request lines reach the pipe: the service writes its log there as it runs.
      await stdoutShows(service, (text) => text.includes('"message":"request"'));
      await requests(service.url, 5);
      service.child.kill('SIGTERM');
      service.child.stdout!.destroy();
      service.child.stderr!.destroy();
      const { code, signal } = await exitWithinGrace(service.exited);
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
      assert.equal(existsSync(lockFile), false, 'the lock is released');

      const again = await startService(env);
      children.push(again.child);
      const response = await fetch(`${again.url}/healthz`);
      assert.equal(response.status, 200);
      again.child.kill('SIGTERM');
      assert.equal(await exitWithinGrace(again.exited.then((code) => ({ code, signal: null }))).then((r) => r.code), 0);
      assert.equal(existsSync(lockFile), false);
    });

    test('SIGTERM with a reader that has stopped reading (a full pipe): exits in the grace period, lock released', async () => {
      const service = await startPiped();
      await requests(service.url, 40);
      await stdoutShows(service, (text) => text.includes('"message":"request"'));
      // Stop reading stdout: the pipe fills (64 KiB) with request lines and stays full.
      service.child.stdout!.pause();
      await requests(service.url, 600);
      service.child.kill('SIGTERM');
      const { code, signal } = await exitWithinGrace(service.exited);
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
      assert.equal(existsSync(lockFile), false, 'the lock is released');
    });
  },
);
