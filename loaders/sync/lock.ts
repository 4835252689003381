/**
 * One sync at a time per data directory: two overlapping runs (a slow one and the next cron tick)
 * would download the same files into the same `.part` and load them twice. The lock file holds the
 * owner's pid; a lock whose process is gone is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';

export class LockHeldError extends Error {}

export async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  await acquire(path);
  try {
    return await work();
  } finally {
    await rm(path, { force: true });
  }
}

async function acquire(path: string): Promise<void> {
  for (let tries = 0; tries < 2; tries++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
      throw new LockHeldError(`another sync (pid ${owner}) is running; its lock is ${path}`);
    }
    await rm(path, { force: true });
  }
  throw new LockHeldError(`could not take the lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
