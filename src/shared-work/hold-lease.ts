/**
 * Keeping a claim on shared work (docs/shared-loads.md): the lease is renewed every third of its
 * length, so two renewals can fail (a slow moment of the database, a long pause of this process)
 * before it runs out. A renewal that finds the claim taken over by another process marks it lost,
 * and the work in hand stops at its next step instead of writing on beside the new holder.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isRunning } from '../lock-file.ts';

export interface HeldLease {
  /** True once a renewal found the claim no longer this process's. */
  lost(): boolean;
  /** Stop renewing (waits for a renewal under way). */
  stop(): Promise<void>;
}

/** This process's name in claims and the journal: host, pid, and a tag that tells apart reused pids. */
export function leaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * Whether `holder` names a process of this machine that no longer runs (killed, or stopped with
 * Ctrl-C): its leases need not be waited out. Only this machine's processes can be asked about;
 * a holder elsewhere is judged by its lease alone.
 */
export function isDeadHere(holder: string): boolean {
  const match = /^(.*):(\d+):[0-9a-f]+$/.exec(holder);
  if (!match || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  // isRunning counts this process as not running (for lock files); this process is alive.
  return pid !== process.pid && !isRunning(pid);
}

/** How often a lease of `seconds` is renewed. */
export function renewalIntervalMs(seconds: number): number {
  return Math.max(100, Math.floor((seconds * 1000) / 3));
}

export function holdLease(renew: () => Promise<boolean>, seconds: number): HeldLease {
  let lost = false;
  let renewing: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (renewing || lost) return;
    renewing = renew()
      .then((held) => {
        if (!held) lost = true;
      })
      // A renewal that fails (the database did not answer) is tried again at the next tick; the
      // lease has two more ticks before it runs out.
      .catch(() => undefined)
      .finally(() => {
        renewing = null;
      });
  }, renewalIntervalMs(seconds));
  timer.unref();
  return {
    lost: () => lost,
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}

/** Thrown into the work when its claim was taken over by another process. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}
