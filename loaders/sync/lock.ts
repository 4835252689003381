/**
 * One sync at a time per data directory: two overlapping runs (a slow one and the next cron tick)
 * would download the same files into the same `.part` and load them twice. The lock file holds the
 * owner's pid; a lock whose process is gone is taken over (src/lock-file.ts).
 */
import { acquireLock } from '../../src/lock-file.ts';

export { LockHeldError } from '../../src/lock-file.ts';

export async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = await acquireLock(path, 'ukcd sync');
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
