/**
 * `ukcd sync`: bring the store up to date from the Companies House download service (the
 * register snapshot, the daily accounts files, the PSC snapshot). Read what it offers, plan
 * against what the store already holds, download (resuming), check each zip whole, load, and
 * update the search index once at the end.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AlertDetectionDeps } from '../../src/alert-detection/detect-alerts.ts';
import { startProgress } from '../../src/progress/progress.ts';
import type { PscStore } from '../../src/ports/ownership.ts';
import type { CompanyWriter } from '../../src/ports/companies.ts';
import type { IndexCursor } from '../../src/ports/index-cursor.ts';
import type { LoadJournal } from '../../src/ports/load-journal.ts';
import type { AccountsLoadSummary } from '../load-accounts.ts';
import { describeRepeatedMembers, loadAccounts } from '../load-accounts.ts';
import type { PscLoadSummary } from '../load-psc.ts';
import { loadPsc } from '../load-psc.ts';
import type { RegisterLoadSummary } from '../load-register.ts';
import { loadRegister } from '../load-register.ts';
import type { ListedFile, PageLinks } from './listing.ts';
import {
  ACCOUNTS_PAGE,
  dailyAccountsFiles,
  isSyncFileName,
  linkedFiles,
  PSC_PAGE,
  pscReleases,
  REGISTER_PAGE,
  registerReleases,
} from './listing.ts';
import type { SyncPlan } from './plan.ts';
import { planSync } from './plan.ts';
import type { DownloadOptions } from './resumable-download.ts';
import { describeFetchError, DownloadError, downloadResumable, retryDelay } from './resumable-download.ts';
import { get } from '../../src/net/http-get.ts';
import type { ZipKind } from './verify-zip.ts';
import { verifyZip } from './verify-zip.ts';

export interface SyncOptions {
  /** The download service's base URL (its pages and files are relative to it). */
  baseUrl: string;
  downloadDir: string;
  reportDir: string;
  /** Where PSC snapshots are written (the journal is the company store's). */
  pscs: PscStore;
  only?: ZipKind;
  /** With no accounts loaded yet: the first publication date wanted. */
  accountsSince?: string;
  keepDownloads?: boolean;
  workers?: number;
  download?: Pick<DownloadOptions, 'attempts' | 'retryDelayMs' | 'maxRetryDelayMs' | 'idleTimeoutMs'>;
  /** Detect the alerts of what each load changed and queue their webhooks (the loads' `alerts`). */
  alerts?: AlertDetectionDeps;
  /** Bring the search index up to date; called once, when something was loaded. */
  updateSearch?: () => Promise<void>;
  log: (line: string) => void;
}

export interface SyncSummary {
  plan: SyncPlan;
  register: RegisterLoadSummary | null;
  accounts: AccountsLoadSummary | null;
  psc: PscLoadSummary | null;
  /** Each file that could not be fetched, checked or loaded, with the reason. */
  problems: string[];
  indexed: boolean;
}

/** The store's ports a sync uses: the loads' writes and journal, and the database's clock. */
type SyncStore = CompanyWriter & LoadJournal & Pick<IndexCursor, 'now'>;

export async function syncFromCompaniesHouse(store: SyncStore, options: SyncOptions): Promise<SyncSummary> {
  const wanted = (kind: ZipKind) => options.only === undefined || options.only === kind;
  const { plan, refused } = await planFromPages(store, options, wanted);
  options.log(describePlan(plan, wanted));
  const summary: SyncSummary = { plan, register: null, accounts: null, psc: null, problems: [], indexed: false };
  // A link that names a path instead of a file is not followed; it is reported, since the page
  // (or something between it and us) is not what Companies House publishes.
  for (const { page, href, reason } of refused) {
    summary.problems.push(`${page}: refused the link "${href}": ${reason}`);
    options.log(`${page}: refused the link "${href}": ${reason}; it is not fetched`);
  }
  // Removed after loading; kept when the load fails, so the next sync need not download them again.
  const fetched: string[] = [];
  const run = { store, options, summary, fetched };
  await syncRegister(run);
  await syncAccounts(run);
  await syncPsc(run);
  if ((summary.register || summary.accounts || summary.psc) && options.updateSearch) {
    await options.updateSearch();
    summary.indexed = true;
  }
  if (!options.keepDownloads) await Promise.all(fetched.map((path) => rm(path, { force: true })));
  return summary;
}

/** The service's pages read, and what is new on them against what the store has loaded. */
async function planFromPages(
  store: Pick<LoadJournal, 'loadedThrough'>,
  options: SyncOptions,
  wanted: (kind: ZipKind) => boolean,
): Promise<{ plan: SyncPlan; refused: { page: string; href: string; reason: string }[] }> {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const none: PageLinks = { files: [], refused: [] };
  const [registerLinks, accountsLinks, pscLinks] = await Promise.all([
    wanted('register') ? readPage(new URL(REGISTER_PAGE, base).href, options) : none,
    wanted('accounts') ? readPage(new URL(ACCOUNTS_PAGE, base).href, options) : none,
    wanted('psc') ? readPage(new URL(PSC_PAGE, base).href, options) : none,
  ]);
  const plan = planSync(
    {
      registers: registerReleases(registerLinks.files),
      dailies: dailyAccountsFiles(accountsLinks.files),
      pscs: pscReleases(pscLinks.files),
    },
    {
      lastRegisterSnapshot: await store.loadedThrough('register'),
      lastAccountsPublished: await store.loadedThrough('accounts'),
      accountsSince: options.accountsSince ?? null,
      lastPscSnapshot: await store.loadedThrough('psc'),
    },
  );
  const refused = (
    [
      [REGISTER_PAGE, registerLinks],
      [ACCOUNTS_PAGE, accountsLinks],
      [PSC_PAGE, pscLinks],
    ] as const
  ).flatMap(([page, links]) => links.refused.map((link) => ({ page, ...link })));
  return { plan, refused };
}

/** What the loads of one sync share. */
interface SyncRun {
  store: SyncStore;
  options: SyncOptions;
  summary: SyncSummary;
  /** The files fetched and loaded, removed at the end unless kept. */
  fetched: string[];
}

/** Each load ends by detecting the alerts of what it changed (the index is updated once, at the end). */
function alertsOf(options: SyncOptions) {
  return options.alerts ? { alerts: options.alerts } : {};
}

async function syncRegister({ store, options, summary, fetched }: SyncRun): Promise<void> {
  const release = summary.plan.register;
  if (!release) return;
  try {
    const paths = [];
    for (const file of release.files) paths.push(await fetchChecked(file, 'register', options));
    summary.register = await loadRegister({ companies: store, journal: store, ...alertsOf(options) }, paths, {
      reportDir: options.reportDir,
      log: options.log,
    });
    fetched.push(...paths);
  } catch (error) {
    summary.problems.push(`register ${release.date}: ${message(error)}`);
  }
}

/** The daily files in order, up to the first that cannot be fetched (the later ones wait for the next sync). */
async function syncAccounts({ store, options, summary, fetched }: SyncRun): Promise<void> {
  const files = summary.plan.accounts;
  const ready: string[] = [];
  for (const file of files) {
    try {
      ready.push(await fetchChecked(file, 'accounts', options));
    } catch (error) {
      summary.problems.push(`${file.name}: ${message(error)}`);
      const left = files.length - ready.length - 1;
      if (left > 0) options.log(`stopping at ${file.name}: the ${left} later file(s) wait for the next sync`);
      break;
    }
  }
  if (ready.length === 0) return;
  try {
    summary.accounts = await loadAccounts({ filings: store, journal: store, ...alertsOf(options) }, ready, {
      reportDir: options.reportDir,
      log: options.log,
      ...(options.workers ? { workers: options.workers } : {}),
    });
    fetched.push(...ready);
  } catch (error) {
    summary.problems.push(`accounts: ${message(error)}`);
  }
}

async function syncPsc({ store, options, summary, fetched }: SyncRun): Promise<void> {
  const release = summary.plan.psc;
  if (!release) return;
  try {
    const paths = [];
    for (const file of release.files) paths.push(await fetchChecked(file, 'psc', options));
    summary.psc = await loadPsc({ pscs: options.pscs, journal: store, ...alertsOf(options) }, paths, {
      reportDir: options.reportDir,
      log: options.log,
    });
    if (summary.psc.refusedAsWhole) {
      summary.problems.push(
        `PSC snapshot ${release.date}: not read whole (${summary.psc.partialBecause}); its rows are applied, nothing was marked ceased`,
      );
    }
    fetched.push(...paths);
  } catch (error) {
    summary.problems.push(`PSC snapshot ${release.date}: ${message(error)}`);
  }
}

/** The largest page read: the real ones are tens of kilobytes. */
const PAGE_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * A page of the download service, read with the downloads' attempts and waits: a page that cannot
 * be read after them ends the sync with the reason and the URL.
 */
async function readPage(url: string, options: SyncOptions): Promise<PageLinks> {
  const attempts = options.download?.attempts ?? 5;
  const base = options.download?.retryDelayMs ?? 2000;
  const cap = options.download?.maxRetryDelayMs ?? 60_000;
  for (let attempt = 1; ; attempt++) {
    try {
      const { text, url: answered } = await readText(url, options.download?.idleTimeoutMs ?? 60_000);
      return linkedFiles(text, answered);
    } catch (error) {
      const permanent = error instanceof DownloadError && error.permanent;
      if (permanent || attempt >= attempts) {
        throw new Error(
          `could not read ${url}${permanent ? '' : ` after ${attempt} attempts`}: ${describeFetchError(error)}; ` +
            'check that the download service (CH_DOWNLOAD_URL or --base-url) answers from here, and run sync again',
          { cause: error },
        );
      }
      options.log(`${url}: attempt ${attempt} of ${attempts} failed (${describeFetchError(error)}); will try again`);
      await sleep(retryDelay(attempt + 1, base, cap, error instanceof DownloadError ? error.retryAfterMs : null));
    }
  }
}

async function readText(url: string, timeoutMs: number): Promise<{ text: string; url: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  const answer = await get(url, { signal });
  if (answer.status !== 200) {
    answer.body.destroy();
    const retryAfter = Number(answer.headers['retry-after']);
    throw new DownloadError(
      `HTTP ${answer.status} ${answer.statusText}`.trim(),
      !(answer.status >= 500 || [408, 429].includes(answer.status)),
      Number.isFinite(retryAfter) ? retryAfter * 1000 : null,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > PAGE_LIMIT_BYTES) {
      answer.body.destroy();
      throw new DownloadError(`the page is larger than ${PAGE_LIMIT_BYTES} bytes`, true);
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), url: answer.url };
}

/**
 * Download a file (or reuse a whole one left by an earlier run) and check it. A file that fails
 * its check is fetched once more from the start before giving up: a damaged transfer is more
 * likely than a damaged file on the server.
 */
async function fetchChecked(file: ListedFile, kind: ZipKind, options: SyncOptions): Promise<string> {
  const target = downloadPath(options.downloadDir, file.name);
  for (let attempt = 1; ; attempt++) {
    if (!(await exists(target))) await download(file, target, options);
    else options.log(`${file.name}: already downloaded`);
    try {
      const check = await verifyZip(target, kind);
      options.log(`${file.name}: checked, ${check.members} file(s), ${(check.uncompressedBytes / 1e6).toFixed(1)} MB`);
      return target;
    } catch (error) {
      await rm(target, { force: true });
      if (attempt === 2) throw new Error(`failed its check twice: ${message(error)}`, { cause: error });
      options.log(`${file.name}: failed its check (${message(error)}); downloading it again`);
    }
  }
}

/** Where a listed file is saved: under the downloads folder, by a name sync fetches, or not at all. */
function downloadPath(downloadDir: string, name: string): string {
  if (!isSyncFileName(name)) throw new Error(`refused to save a download as "${name}": not a file name sync fetches`);
  return join(downloadDir, name);
}

async function download(file: ListedFile, target: string, options: SyncOptions): Promise<void> {
  const progress = startProgress({ label: file.name, unit: 'bytes' });
  let counted = 0;
  try {
    const result = await downloadResumable(file.url, target, {
      ...options.download,
      log: options.log,
      onProgress(held, total) {
        if (total !== null) progress.setExpected(total);
        if (held > counted) progress.advance(held - counted);
        counted = Math.max(counted, held);
      },
    });
    options.log(
      `${file.name}: downloaded ${(result.bytes / 1e6).toFixed(1)} MB in ${progress.elapsedSeconds.toFixed(1)}s` +
        (result.attempts > 1 ? ` (${result.attempts} attempts, ${result.resumed} resumed)` : ''),
    );
  } finally {
    progress.stop();
  }
}

/** What the sync will load, for each kind it was asked for. */
function describePlan(plan: SyncPlan, wanted: (kind: ZipKind) => boolean): string {
  const lines = [];
  if (wanted('register')) {
    lines.push(
      plan.register
        ? `register: snapshot ${plan.register.date} to load (${plan.register.files.map((f) => f.name).join(', ')})`
        : 'register: nothing newer than the snapshot loaded',
    );
  }
  if (wanted('accounts')) {
    const files = plan.accounts;
    lines.push(
      files.length === 0
        ? 'accounts: no daily file newer than the last one loaded'
        : `accounts: ${files.length} daily file(s) to load, published ${files[0]!.published} to ${files.at(-1)!.published}`,
    );
  }
  if (wanted('psc')) {
    lines.push(
      plan.psc
        ? `PSC: snapshot ${plan.psc.date} to load (${plan.psc.files.map((f) => f.name).join(', ')})`
        : 'PSC: nothing newer than the snapshot loaded',
    );
  }
  return lines.join('\n');
}

export function describeSyncSummary(summary: SyncSummary): string {
  const parts = [];
  if (summary.register) parts.push(`register ${summary.register.snapshotDate}: ${summary.register.rowsWritten} rows`);
  if (summary.accounts) {
    parts.push(
      `accounts: ${summary.accounts.parsed} filings read, ${summary.accounts.failed} could not be read` +
        (summary.accounts.repeatedMembers.length > 0
          ? `, ${describeRepeatedMembers(summary.accounts.repeatedMembers)}`
          : ''),
    );
  }
  if (summary.psc) {
    parts.push(
      `PSC ${summary.psc.snapshotDate}: ${summary.psc.pscsWritten} PSCs and ${summary.psc.statementsWritten} statements` +
        (summary.psc.rejected > 0 ? `, ${summary.psc.rejected} lines rejected` : ''),
    );
  }
  if (parts.length === 0) parts.push('nothing new loaded');
  if (summary.indexed) parts.push('search index updated');
  if (summary.problems.length > 0)
    parts.push(`${summary.problems.length} problem(s):\n  ${summary.problems.join('\n  ')}`);
  return `sync: ${parts.join('; ')}`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
