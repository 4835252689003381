/**
 * What a sync fetches, from what is offered and what the store already holds: the newest register
 * snapshot when it is newer than the last one loaded, every daily accounts file published after
 * the last one loaded, and the newest PSC snapshot when it is newer than the last one loaded (a
 * PSC snapshot is the whole register of the day, so the days between need not be loaded). The
 * sync stops at the first daily file it cannot fetch or check, so the watermark (the newest file
 * loaded) never passes over a day that was not loaded.
 */
import type { DailyAccountsFile, PscRelease, RegisterRelease, SnapshotRelease } from './listing.ts';

export interface SyncState {
  /** Snapshot date of the newest register load that completed, if any. */
  lastRegisterSnapshot: string | null;
  /** Publication date of the newest accounts file that completed, if any. */
  lastAccountsPublished: string | null;
  /** With nothing loaded yet: the first publication date wanted (else everything offered). */
  accountsSince?: string | null;
  /** Snapshot date of the newest PSC load that completed, if any. */
  lastPscSnapshot?: string | null;
}

export interface SyncPlan {
  register: RegisterRelease | null;
  accounts: DailyAccountsFile[];
  psc: PscRelease | null;
}

export function planSync(
  offered: {
    registers: readonly RegisterRelease[];
    dailies: readonly DailyAccountsFile[];
    pscs?: readonly PscRelease[];
  },
  state: SyncState,
): SyncPlan {
  const accounts = offered.dailies.filter((file) =>
    state.lastAccountsPublished !== null
      ? file.published > state.lastAccountsPublished
      : !state.accountsSince || file.published >= state.accountsSince,
  );
  return {
    register: newestAfter(offered.registers, state.lastRegisterSnapshot),
    accounts: [...accounts].sort((a, b) => (a.published < b.published ? -1 : 1)),
    psc: newestAfter(offered.pscs ?? [], state.lastPscSnapshot ?? null),
  };
}

/** The newest release offered, when it is newer than the last one loaded. */
function newestAfter<T extends SnapshotRelease>(offered: readonly T[], loaded: string | null): T | null {
  const newest = offered.reduce<T | null>(
    (best, release) => (best === null || release.date > best.date ? release : best),
    null,
  );
  return newest && (loaded === null || newest.date > loaded) ? newest : null;
}
