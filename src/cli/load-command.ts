/**
 * `ukcd load register|accounts|psc PATH...|URL`: the loaders from the command line, on the store
 * the environment configures (DATABASE_URL, else PGlite in DATA_DIR).
 * Exit status: 0 all loaded, 1 something rejected or unreadable (reported), 2 unusable input.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openStore } from '../composition/open-store.ts';
import { updateSearchAfterLoad } from '../composition/update-search.ts';
import { downloadInputs } from '../../loaders/download.ts';
import { leaseHolder } from '../../loaders/hold-lease.ts';
import { DownloadError } from '../../loaders/sync/resumable-download.ts';
import { describeAccountsSummary, loadAccounts } from '../../loaders/load-accounts.ts';
import { describePscSummary, loadPsc, PscInputError } from '../../loaders/load-psc.ts';
import { describeRegisterSummary, loadRegister, RegisterInputError } from '../../loaders/load-register.ts';
import { isCalendarDate } from '../domain/calendar-date.ts';

const USAGE = `usage:
  ukcd load register PATH...|URL [--snapshot-date YYYY-MM-DD] [--complete | --partial] [--no-index]
  ukcd load accounts PATH...|URL [--published YYYY-MM-DD] [--force] [--workers N] [--no-index]
  ukcd load psc PATH...|URL [--snapshot-date YYYY-MM-DD] [--complete | --partial] [--no-index]`;

export async function runLoadCommand(args: readonly string[]): Promise<number> {
  const [what, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      options: {
        'snapshot-date': { type: 'string' },
        complete: { type: 'boolean' },
        partial: { type: 'boolean' },
        published: { type: 'string' },
        force: { type: 'boolean' },
        workers: { type: 'string' },
        'no-index': { type: 'boolean' },
      },
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if ((what !== 'register' && what !== 'accounts' && what !== 'psc') || positionals.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  for (const option of ['snapshot-date', 'published'] as const) {
    const value = values[option];
    if (value !== undefined && !isCalendarDate(value)) {
      process.stderr.write(`--${option} must be a date YYYY-MM-DD, got "${value}"\n`);
      return 2;
    }
  }
  const config = loadConfig();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const reportDir = join(resolve(config.DATA_DIR), 'reports');
  const opened = await openStore(config);
  const { sql, store, pscs, ownership, alertDetections, loadClaims, location } = opened;
  // Every load ends by detecting the alerts of what it changed (--no-index or not): webhooks must
  // not wait for a later command.
  const alerts = { detections: alertDetections, store, ownership };
  // What a load changed reaches the search index at once (`ukcd index` does it later after --no-index).
  const updateSearch = () => updateSearchAfterLoad(config, opened, log);
  // The stages after a load (loaders/skeleton/after-load.ts): alerts, the summary said, the index.
  const after = { alerts, ...(values['no-index'] ? {} : { index: updateSearch }) };
  try {
    log(`store: ${location}`);
    // Accounts inputs given as URLs are downloaded one by one as they are claimed (below).
    const paths = what === 'accounts' ? positionals : await downloadInputs(positionals, config.DATA_DIR, log);
    if (what === 'register') {
      const summary = await loadRegister({ companies: store, journal: store, ...after }, paths, {
        reportDir,
        onLoaded: (loaded) => log(describeRegisterSummary(loaded)),
        ...(values['snapshot-date'] ? { snapshotDate: values['snapshot-date'] } : {}),
        ...(values.complete ? { complete: true } : values.partial ? { complete: false } : {}),
      });
      return summary.rejected > 0 ? 1 : 0;
    }
    if (what === 'psc') {
      const summary = await loadPsc({ store, pscs }, paths, {
        reportDir,
        alerts,
        ...(values['snapshot-date'] ? { snapshotDate: values['snapshot-date'] } : {}),
        ...(values.complete ? { complete: true } : values.partial ? { complete: false } : {}),
      });
      log(describePscSummary(summary));
      if (!values['no-index']) await updateSearch();
      return summary.rejected > 0 ? 1 : 0;
    }
    const workers = values.workers === undefined ? config.UKCD_WORKERS : Number(values.workers);
    if (workers !== undefined && (!Number.isInteger(workers) || workers < 1)) {
      log(`--workers must be a whole number of 1 or more, got "${values.workers}"`);
      return 2;
    }
    // Several processes given the same files and store split them (docs/shared-loads.md); one
    // process alone claims every file in turn.
    const lease = { holder: leaseHolder(), seconds: config.UKCD_LOAD_LEASE_SECONDS };
    log(`loading as ${lease.holder}`);
    const summary = await loadAccounts(store, paths, {
      reportDir,
      alerts,
      shared: { claims: loadClaims, lease },
      download: async (url) => (await downloadInputs([url], config.DATA_DIR, log))[0]!,
      ...(workers ? { workers } : {}),
      ...(values.force ? { force: true } : {}),
      ...(values.published ? { published: values.published } : {}),
    });
    log(describeAccountsSummary(summary));
    if (!values['no-index']) await updateSearch();
    return summary.failed > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof RegisterInputError || error instanceof PscInputError) {
      log(`refused: ${error.message}`);
      return 2;
    }
    if (error instanceof DownloadError) {
      // Accounts URLs are downloaded one by one as they are claimed: the files before stay loaded.
      log(
        `download failed: ${error.message}; ` +
          (what === 'accounts'
            ? 'nothing was loaded from it (files loaded before it stay loaded)'
            : 'nothing was loaded'),
      );
      return 1;
    }
    throw error;
  } finally {
    await sql.close();
  }
}
