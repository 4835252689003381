/**
 * The lock file that keeps a second process off the embedded store (and a second sync off its
 * downloads), with real files and real processes: what each state of the file found gives, that
 * the lock goes with its process however it ends (except kill -9, whose stale lock is taken over).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { acquireLock, LockHeldError } from '../../src/lock-file.ts';
import { repoRoot } from '../support/samples.ts';

const dir = mkdtempSync(join(tmpdir(), 'ukcd-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `case-${++n}.lock`);

/** A process that ran and is gone: its pid runs nothing now. */
const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
/** A process that runs for the whole test, and is not this one: the test runner. */
const livePid = process.ppid;

describe('taking a lock, by what its file holds', () => {
  // [case, the lock file found (null: none), the guard of a takeover found, what happens]
  const cases: [string, string | null, string | null, 'taken' | RegExp][] = [
    ['no lock file', null, null, 'taken'],
    [
      'a lock of a process that runs',
      `${livePid}\nukcd start\n`,
      null,
      new RegExp(`is held by process ${livePid} \\(ukcd start\\)$`),
    ],
    ['a lock of one pid only (an older ukcd sync), that runs', `${livePid}`, null, /is held by process \d+$/],
    ['a lock of a process that is gone (kill -9, a crash)', `${deadPid}\nukcd start\n`, null, 'taken'],
    [
      "a lock naming this process's pid, left by an earlier process that had it (a container's pid 1)",
      `${process.pid}\nukcd start\n`,
      null,
      'taken',
    ],
    ['an empty lock file (its process died between creating and writing it)', '', null, 'taken'],
    ['a lock file of something else', 'not a lock\n', null, 'taken'],
    [
      'a stale lock whose takeover by a process now gone was cut short',
      `${deadPid}\nukcd start\n`,
      `${deadPid}\n`,
      /takeover of the stale lock .* was cut short .*delete both files/,
    ],
    [
      'a stale lock whose takeover by a process that runs does not end',
      `${deadPid}\nukcd start\n`,
      `${livePid}\n`,
      /could not take the lock .*takeover of it .* did not end/,
    ],
  ];
  for (const [name, found, guard, want] of cases) {
    test(name, async () => {
      const path = freshPath();
      if (found !== null) writeFileSync(path, found);
      if (guard !== null) writeFileSync(`${path}.takeover`, guard);
      if (want === 'taken') {
        const lock = await acquireLock(path, 'ukcd keys issue');
        assert.equal(readFileSync(path, 'utf8'), `${process.pid}\nukcd keys issue\n`);
        assert.equal(existsSync(`${path}.takeover`), false, 'no takeover file left');
        await lock.release();
        assert.equal(existsSync(path), false, 'released: the file is gone');
      } else {
        await assert.rejects(acquireLock(path, 'ukcd keys issue'), want);
        assert.equal(readFileSync(path, 'utf8'), found, 'the lock found is left as it was');
      }
    });
  }
});

describe('holding a lock', () => {
  test('a second take in the same process is refused; once released it can be taken again', async () => {
    const path = freshPath();
    const lock = await acquireLock(path, 'ukcd start');
    const [second] = await Promise.allSettled([acquireLock(path, 'ukcd start')]);
    assert.equal(second.status, 'rejected');
    assert.ok(second.reason instanceof LockHeldError);
    assert.equal(second.reason.owner.pid, process.pid);
    await lock.release();
    await lock.release();
    const again = await acquireLock(path, 'ukcd start');
    await again.release();
  });

  test('two takes in the same process at once: one gets it, the other is refused', async () => {
    const path = freshPath();
    const results = await Promise.allSettled([acquireLock(path, 'a'), acquireLock(path, 'b')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected'],
    );
    await (results[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
  });

  test('release leaves alone a lock file that is no longer its own', async () => {
    const path = freshPath();
    const lock = await acquireLock(path, 'ukcd start');
    writeFileSync(path, `${livePid}\nsomeone else\n`);
    await lock.release();
    assert.equal(readFileSync(path, 'utf8'), `${livePid}\nsomeone else\n`);
  });
});

/** Runs `code` in a process of its own, with acquireLock and the lock's path in scope. */
function child(code: string, path: string) {
  const lockFile = join(repoRoot, 'src', 'lock-file.ts');
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { acquireLock } from ${JSON.stringify(lockFile)}; const path = ${JSON.stringify(path)}; ${code}`,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function output(
  process: ReturnType<typeof child>,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  let out = '';
  process.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  process.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((done) => process.once('exit', (code, signal) => done({ code, signal, out })));
}

describe('a lock and its process', () => {
  test('goes when the process exits without releasing it, or ends on an uncaught error', async () => {
    for (const ending of ['process.exit(0)', "throw new Error('boom')"]) {
      const path = freshPath();
      const run = await output(child(`await acquireLock(path, 'x'); console.log('taken'); ${ending};`, path));
      assert.match(run.out, /^taken/, run.out);
      assert.equal(existsSync(path), false, `${ending}: the lock is gone`);
    }
  });

  test('stays after kill -9, and the next process takes it over', async () => {
    const path = freshPath();
    const holder = child(
      `await acquireLock(path, 'ukcd start'); console.log('taken'); setInterval(() => {}, 1000);`,
      path,
    );
    const ended = output(holder);
    await new Promise<void>((taken) => holder.stdout.once('data', () => taken()));
    await assert.rejects(
      acquireLock(path, 'ukcd keys issue'),
      new RegExp(`held by process ${holder.pid} \\(ukcd start\\)`),
    );
    holder.kill('SIGKILL');
    assert.equal((await ended).signal, 'SIGKILL');
    assert.equal(readFileSync(path, 'utf8'), `${holder.pid}\nukcd start\n`, 'left behind');
    const lock = await acquireLock(path, 'ukcd keys issue');
    assert.equal(readFileSync(path, 'utf8'), `${process.pid}\nukcd keys issue\n`);
    await lock.release();
  });
});
