/**
 * `ukcd load register|accounts|psc PATH...|URL`: the loaders from the command line, on the store
 * the environment configures (DATABASE_URL, else PGlite in DATA_DIR). The composition root opens
 * the ports; each load gets them, with its alert detection and (unless --no-index) the index update.
 * Exit status: 0 all loaded, 1 something rejected or unreadable (reported), 2 unusable input.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { openStore } from '../composition/open-store.ts';
import type { OpenedStore } from '../composition/open-store.ts';
import { updateSearchAfterLoad } from '../composition/update-search.ts';
import { downloadInputs } from '../../loaders/download.ts';
import { leaseHolder } from '../shared-work/hold-lease.ts';
import { DownloadError } from '../../loaders/sync/resumable-download.ts';
import { describeAccountsSummary, loadAccounts } from '../../loaders/load-accounts.ts';
import { describePscSummary, loadPsc, PscInputError } from '../../loaders/load-psc.ts';
import { describeRefusedAsComplete, describeRegisterSummary, loadRegister } from '../../loaders/load-register.ts';
import { SnapshotInputError } from '../../loaders/skeleton/snapshot-inputs.ts';
import { isCalendarDate } from '../domain/calendar-date.ts';

const USAGE = `usage:
  ukcd load register PATH...|URL [--snapshot-date YYYY-MM-DD] [--complete | --partial] [--allow-removals N] [--no-index]
  ukcd load accounts PATH...|URL [--published YYYY-MM-DD] [--force] [--workers N] [--no-index]
  ukcd load psc PATH...|URL [--snapshot-date YYYY-MM-DD] [--complete | --partial] [--allow-removals N] [--no-index]`;

const LOAD_OPTIONS = {
  'snapshot-date': { type: 'string' },
  complete: { type: 'boolean' },
  partial: { type: 'boolean' },
  'allow-removals': { type: 'string' },
  published: { type: 'string' },
  force: { type: 'boolean' },
  workers: { type: 'string' },
  'no-index': { type: 'boolean' },
} as const;

type LoadValues = ReturnType<typeof parseArgs<{ options: typeof LOAD_OPTIONS; allowPositionals: true }>>['values'];

interface LoadArgs {
  what: 'register' | 'accounts' | 'psc';
  values: LoadValues;
  positionals: string[];
}

/** What a load needs from the command: its ports and settings, and where to say things. */
interface LoadContext {
  config: Config;
  opened: OpenedStore;
  values: LoadValues;
  reportDir: string;
  log: (line: string) => void;
}

export async function runLoadCommand(args: readonly string[]): Promise<number> {
  const parsed = parseLoadArgs(args);
  if (typeof parsed === 'number') return parsed;
  const { what, values, positionals } = parsed;
  const config = loadConfig();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const opened = await openStore(config);
  const context: LoadContext = { config, opened, values, reportDir: join(resolve(config.DATA_DIR), 'reports'), log };
  try {
    log(`store: ${opened.location}`);
    if (what === 'accounts') return await loadAccountsCommand(context, positionals);
    const paths = await downloadInputs(positionals, { dataDir: config.DATA_DIR, log });
    return what === 'register' ? await loadRegisterCommand(context, paths) : await loadPscCommand(context, paths);
  } catch (error) {
    return explainFailure(error, what, log);
  } finally {
    await opened.sql.close();
  }
}

/** The arguments, or the exit status when they are unusable (said on stderr). */
function parseLoadArgs(args: readonly string[]): LoadArgs | number {
  const [what, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({ args: [...rest], allowPositionals: true, options: LOAD_OPTIONS });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if ((what !== 'register' && what !== 'accounts' && what !== 'psc') || positionals.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const allow = values['allow-removals'];
  if (allow !== undefined && !/^\d+$/.test(allow)) {
    process.stderr.write(
      `--allow-removals must be the number of companies (or PSCs) the snapshot may mark removed, got "${allow}"\n`,
    );
    return 2;
  }
  for (const option of ['snapshot-date', 'published'] as const) {
    const value = values[option];
    if (value !== undefined && !isCalendarDate(value)) {
      process.stderr.write(`--${option} must be a date YYYY-MM-DD, got "${value}"\n`);
      return 2;
    }
  }
  return { what, values, positionals };
}

/**
 * The stages after every load: the alerts of what it changed are detected (--no-index or not:
 * webhooks must not wait for a later command), and what it changed reaches the search index at
 * once (`ukcd index` does it later after --no-index).
 */
function afterStages({ config, opened, values, log }: LoadContext) {
  const { store, ownership, alertDetections } = opened;
  return {
    alerts: { detections: alertDetections, store, ownership },
    ...(values['no-index'] ? {} : { index: () => updateSearchAfterLoad(config, opened, log) }),
  };
}

/** --snapshot-date, --complete or --partial, and --allow-removals, as a snapshot load takes them. */
function snapshotOptions(values: LoadValues) {
  return {
    ...(values['snapshot-date'] ? { snapshotDate: values['snapshot-date'] } : {}),
    ...(values['allow-removals'] !== undefined ? { allowRemovals: Number(values['allow-removals']) } : {}),
    ...(values.complete ? { complete: true } : values.partial ? { complete: false } : {}),
  };
}

async function loadRegisterCommand(context: LoadContext, paths: readonly string[]): Promise<number> {
  const { store } = context.opened;
  const summary = await loadRegister({ companies: store, journal: store, ...afterStages(context) }, paths, {
    reportDir: context.reportDir,
    onLoaded: (loaded) => context.log(describeRegisterSummary(loaded)),
    ...snapshotOptions(context.values),
  });
  // Files named as the whole register but not taken as it: the operator must look before the next run.
  const refused = describeRefusedAsComplete(summary);
  if (refused) context.log(refused);
  return summary.rejected > 0 || refused ? 1 : 0;
}

async function loadPscCommand(context: LoadContext, paths: readonly string[]): Promise<number> {
  const { store, pscs } = context.opened;
  const summary = await loadPsc({ pscs, journal: store, ...afterStages(context) }, paths, {
    reportDir: context.reportDir,
    onLoaded: (loaded) => context.log(describePscSummary(loaded)),
    ...snapshotOptions(context.values),
  });
  return summary.rejected > 0 || summary.refusedAsWhole ? 1 : 0;
}

/** Accounts inputs given as URLs are downloaded one by one as they are claimed. */
async function loadAccountsCommand(context: LoadContext, paths: readonly string[]): Promise<number> {
  const { config, opened, values, log } = context;
  const workers = values.workers === undefined ? config.UKCD_WORKERS : Number(values.workers);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1)) {
    log(`--workers must be a whole number of 1 or more, got "${values.workers}"`);
    return 2;
  }
  // Several processes given the same files and store split them (docs/shared-loads.md); one
  // process alone claims every file in turn.
  const lease = { holder: leaseHolder(), seconds: config.UKCD_LOAD_LEASE_SECONDS };
  log(`loading as ${lease.holder}`);
  const summary = await loadAccounts({ filings: opened.store, journal: opened.store, ...afterStages(context) }, paths, {
    reportDir: context.reportDir,
    onLoaded: (loaded) => log(describeAccountsSummary(loaded)),
    shared: { claims: opened.loadClaims, lease },
    download: async (url) => (await downloadInputs([url], { dataDir: config.DATA_DIR, log }))[0]!,
    ...(workers ? { workers } : {}),
    ...(values.force ? { force: true } : {}),
    ...(values.published ? { published: values.published } : {}),
  });
  return summary.failed > 0 ? 1 : 0;
}

/** The exit status of a load that stopped: refused input (2), a failed download (1); anything else is thrown. */
function explainFailure(error: unknown, what: LoadArgs['what'], log: (line: string) => void): number {
  if (error instanceof SnapshotInputError || error instanceof PscInputError) {
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
}
