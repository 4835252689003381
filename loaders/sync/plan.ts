/**
 * What a sync fetches, from what is offered and what the store already holds: the newest register
 * snapshot when it is newer than the last one loaded, and every daily accounts file published
 * after the last one loaded. The sync stops at the first daily file it cannot fetch or check, so
 * the watermark (the newest file loaded) never passes over a day that was not loaded.
 */
import type { DailyAccountsFile, RegisterRelease } from './listing.ts';

export interface SyncState {
  /** Snapshot date of the newest register load that completed, if any. */
  lastRegisterSnapshot: string | null;
  /** Publication date of the newest accounts file that completed, if any. */
  lastAccountsPublished: string | null;
  /** With nothing loaded yet: the first publication date wanted (else everything offered). */
  accountsSince?: string | null;
}

export interface SyncPlan {
  register: RegisterRelease | null;
  accounts: DailyAccountsFile[];
}

export function planSync(
  offered: { registers: readonly RegisterRelease[]; dailies: readonly DailyAccountsFile[] },
  state: SyncState,
): SyncPlan {
  const newest = offered.registers.reduce<RegisterRelease | null>(
    (best, release) => (best === null || release.date > best.date ? release : best),
    null,
  );
  const register =
    newest && (state.lastRegisterSnapshot === null || newest.date > state.lastRegisterSnapshot) ? newest : null;
  const accounts = offered.dailies.filter((file) =>
    state.lastAccountsPublished !== null
      ? file.published > state.lastAccountsPublished
      : !state.accountsSince || file.published >= state.accountsSince,
  );
  return { register, accounts: [...accounts].sort((a, b) => (a.published < b.published ? -1 : 1)) };
}
