/**
 * `ukcd sync`: load what is new on the Companies House download service (CH_DOWNLOAD_URL, or
 * --base-url) into the store, then update the search index. Meant to run daily from cron or a
 * scheduler. Exit status: 0 up to date, 1 a file could not be fetched, checked or loaded (named in
 * the output; the next run retries it), 2 unusable arguments, another sync running, or the
 * embedded store open in another process.
 */
import { join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { EmbeddedStoreInUseError, openStore } from '../composition/open-store.ts';
import type { OpenedStore } from '../composition/open-store.ts';
import { updateSearchAfterLoad } from '../composition/update-search.ts';
import { LockHeldError, withLock } from '../../loaders/sync/lock.ts';
import { describeSyncSummary, syncFromCompaniesHouse } from '../../loaders/sync/sync.ts';
import type { ZipKind } from '../../loaders/sync/verify-zip.ts';
import { isCalendarDate } from '../domain/calendar-date.ts';

const USAGE = `usage: ukcd sync [--base-url URL] [--only register|accounts|psc] [--since YYYY-MM-DD]
                 [--keep-downloads] [--workers N] [--no-index]`;

export async function runSyncCommand(args: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        'base-url': { type: 'string' },
        only: { type: 'string' },
        since: { type: 'string' },
        'keep-downloads': { type: 'boolean' },
        workers: { type: 'string' },
        'no-index': { type: 'boolean' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const problem = argumentProblem(values);
  if (problem) {
    process.stderr.write(`${problem}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const dataDir = resolve(config.DATA_DIR);
  const downloadDir = join(dataDir, 'downloads');
  let opened: OpenedStore | undefined;
  try {
    // The store first: the embedded one is refused while another process has it open, before
    // anything is written.
    opened = await openStore(config);
    const ports = opened;
    const { store, pscs, ownership, alertDetections, location } = ports;
    await mkdir(downloadDir, { recursive: true });
    return await withLock(join(downloadDir, 'sync.lock'), async () => {
      log(`store: ${location}`);
      const summary = await syncFromCompaniesHouse(store, {
        baseUrl: values['base-url'] ?? config.CH_DOWNLOAD_URL,
        downloadDir,
        reportDir: join(dataDir, 'reports'),
        pscs,
        log,
        // Each load ends by detecting the alerts of what it changed, --no-index or not.
        alerts: { detections: alertDetections, store, ownership },
        ...(values.only ? { only: values.only as ZipKind } : {}),
        ...(values.since ? { accountsSince: values.since } : {}),
        ...(values['keep-downloads'] ? { keepDownloads: true } : {}),
        ...(values.workers
          ? { workers: Number(values.workers) }
          : config.UKCD_WORKERS
            ? { workers: config.UKCD_WORKERS }
            : {}),
        ...(values['no-index'] ? {} : { updateSearch: () => updateSearchAfterLoad(config, ports, log) }),
      });
      log(describeSyncSummary(summary));
      return summary.problems.length > 0 ? 1 : 0;
    });
  } catch (error) {
    if (error instanceof LockHeldError) {
      log(`refused: another sync (pid ${error.owner.pid}) is running; its lock is ${error.path}`);
      return 2;
    }
    if (error instanceof EmbeddedStoreInUseError) {
      log(`refused: ${error.message}`);
      return 2;
    }
    log(`sync failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await opened?.sql.close();
  }
}

function argumentProblem(values: Record<string, string | boolean | undefined>): string | null {
  const { only, since, workers } = values;
  const baseUrl = values['base-url'];
  if (only !== undefined && only !== 'register' && only !== 'accounts' && only !== 'psc') {
    return `--only must be register, accounts or psc, got "${String(only)}"`;
  }
  if (since !== undefined && !isCalendarDate(String(since))) {
    return `--since must be a date YYYY-MM-DD, got "${String(since)}"`;
  }
  if (workers !== undefined && !/^[1-9]\d*$/.test(String(workers))) {
    return `--workers must be a whole number of 1 or more, got "${String(workers)}"`;
  }
  if (baseUrl !== undefined && !URL.canParse(String(baseUrl)))
    return `--base-url must be a URL, got "${String(baseUrl)}"`;
  return null;
}
