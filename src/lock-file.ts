/**
 * An exclusive lock between processes, held through a file that names its owner: its pid on the
 * first line, what it is (say `ukcd start`) on the second. The file is created exclusively
 * (O_EXCL), so of two processes only one gets it; the owner removes it when it releases the lock,
 * and when the process exits. A process killed outright (kill -9, a crash, a power cut) leaves the
 * file behind: a lock whose pid no longer runs is stale and is taken over.
 *
 * Whether the owner lives is asked of the operating system (its pid), never read from a time stamp
 * the owner must keep fresh: PGlite can hold the event loop for minutes (a large load), and a lock
 * that must be refreshed would then look abandoned while its owner still writes.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LockOwner {
  pid: number;
  /** What the owner said it is, for messages (may be empty). */
  holder: string;
}

/** The lock is held by a process that runs (this one included). */
export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';
  constructor(
    readonly path: string,
    readonly owner: LockOwner,
  ) {
    super(`${path} is held by process ${owner.pid}${owner.holder ? ` (${owner.holder})` : ''}`);
  }
}

export interface HeldLock {
  readonly path: string;
  /** Removes the lock file (if it is still this lock's); idempotent. */
  release(): Promise<void>;
}

/** Locks this process holds or is taking, by path, with the content of their files. */
const heldHere = new Map<string, string>();
let exitHookInstalled = false;

/**
 * Takes the lock at `path` (an absolute path in an existing folder), or throws LockHeldError
 * naming the process that holds it. A stale lock (its process is gone) is taken over.
 */
export async function acquireLock(path: string, holder: string): Promise<HeldLock> {
  const mine = heldHere.get(path);
  if (mine !== undefined) throw new LockHeldError(path, parseOwner(mine) ?? { pid: process.pid, holder: '' });
  const content = `${process.pid}\n${holder.replace(/\s+/g, ' ').slice(0, 200)}\n`;
  // Claimed at once, before any await: a second acquire in this process is refused, never taken
  // for an earlier process of the same pid.
  heldHere.set(path, content);
  installExitHook();
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      if (await createExclusive(path, content)) return { path, release: () => release(path, content) };
      const seen = await readSettled(path);
      if (seen === null) continue; // released between our try and our look: try again
      const owner = parseOwner(seen);
      if (owner && isRunning(owner.pid)) throw new LockHeldError(path, owner);
      await takeOver(path, seen);
    }
    throw new Error(
      `could not take the lock ${path}: it kept changing hands, or another process's takeover of it (${path}.takeover) did not end`,
    );
  } catch (error) {
    heldHere.delete(path);
    throw error;
  }
}

/**
 * Removes a stale lock file, so that the next try can create it. Two processes may find the same
 * stale lock at once, and the second must not remove the lock the first then creates: so removals
 * take turns through an exclusive `<path>.takeover` file, and a lock is removed only if it still
 * holds what was judged stale. That file lives for microseconds; one left behind means a process
 * died in that instant, and is refused with the way out rather than guessed about.
 */
async function takeOver(path: string, stale: string): Promise<void> {
  const guard = `${path}.takeover`;
  if (!(await createExclusive(guard, `${process.pid}\n`))) {
    const other = parseOwner((await readSettled(guard)) ?? '');
    if (other && isRunning(other.pid)) {
      await sleep(50);
      return;
    }
    if ((await readSettled(guard)) === null) return;
    throw new Error(
      `a takeover of the stale lock ${path} was cut short (${guard} is left by a process that no longer runs); ` +
        'if nothing uses this lock now, delete both files and try again',
    );
  }
  try {
    if ((await readSettled(path)) === stale) await rm(path, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

/** True when this process created the file; false when it exists. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * The file's content, or null when there is none. A file is written just after it is created, so
 * content that is not yet a lock is read again for a moment before it counts as what it is.
 */
async function readSettled(path: string): Promise<string | null> {
  for (let tries = 0; ; tries++) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (parseOwner(text) || tries === 5) return text;
    await sleep(50);
  }
}

/** The owner a lock file names, or null when it names none. */
function parseOwner(text: string): LockOwner | null {
  const match = /^(\d+)(?:\n([^\n]*))?/.exec(text);
  if (!match) return null;
  const pid = Number(match[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, holder: match[2] ?? '' } : null;
}

/**
 * Whether a process with this pid runs. This process's own pid counts as not running here: a lock
 * this process holds is in heldHere, so a file naming it is left by an earlier process that had the
 * same pid (in a container, the service is often pid 1 at every start).
 */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function release(path: string, content: string): Promise<void> {
  if (heldHere.get(path) !== content) return;
  heldHere.delete(path);
  if ((await readFile(path, 'utf8').catch(() => null)) === content) await rm(path, { force: true });
}

/** On exit, however it comes (process.exit, an uncaught error), the locks still held are removed. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [path, content] of heldHere) {
      try {
        if (readFileSync(path, 'utf8') === content) unlinkSync(path);
      } catch {
        // Gone already, or unreadable: nothing to release.
      }
    }
  });
}
