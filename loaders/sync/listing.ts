/**
 * What the Companies House download service offers, read from its pages: the register page
 * (`en_output.html`) links the monthly snapshot, as one file or in parts; the accounts page
 * (`en_accountsdata.html`) links the daily bulk zips; the PSC page (`en_pscdata.html`) links the
 * daily snapshot of persons with significant control, as one file or in parts. Links are read from the HTML's anchors, not
 * from the text around them, so a change of layout does not hide a file.
 */
import { Parser } from 'htmlparser2';
import { parseBulkFileName } from '../../src/accounts/file-names.ts';
import { parsePscFileName } from '../psc-inputs.ts';
import { parseRegisterFileName } from '../register-inputs.ts';

export const REGISTER_PAGE = 'en_output.html';
export const ACCOUNTS_PAGE = 'en_accountsdata.html';
export const PSC_PAGE = 'en_pscdata.html';

export interface ListedFile {
  name: string;
  url: string;
}

/** One snapshot of a date: its one whole file, or every one of its parts in order. */
export interface SnapshotRelease {
  date: string;
  files: ListedFile[];
}

/** A monthly register snapshot. */
export type RegisterRelease = SnapshotRelease;
/** A daily PSC snapshot. */
export type PscRelease = SnapshotRelease;

export interface DailyAccountsFile extends ListedFile {
  published: string;
}

/** What a page links to. */
export interface PageLinks {
  /** Every linked file, by the last segment of its path, with its absolute URL. */
  files: ListedFile[];
  /**
   * Links whose last segment, decoded, is not a plain file name: it holds a path (a page linking
   * `..%2F..%2Fx%2FAccounts_Bulk_Data-2026-11-20.zip` would have sync write outside its folder), or
   * cannot be decoded. They are never fetched, and sync reports them.
   */
  refused: { href: string; reason: string }[];
}

/**
 * The files sync fetches, by the names Companies House gives them: the daily accounts zips, the
 * register snapshot and the PSC snapshot, whole or in parts. No other name is ever written under
 * its downloads folder.
 */
const SYNC_FILE_NAME = new RegExp(
  '^(?:' +
    [
      String.raw`Accounts_Bulk_Data-\d{4}-\d{2}-\d{2}`,
      String.raw`BasicCompanyDataAsOneFile-\d{4}-\d{2}-\d{2}`,
      String.raw`BasicCompanyData-\d{4}-\d{2}-\d{2}-part\d+_\d+`,
      String.raw`persons-with-significant-control-snapshot-\d{4}-\d{2}-\d{2}`,
      String.raw`psc-snapshot-\d{4}-\d{2}-\d{2}_\d+of\d+`,
    ].join('|') +
    String.raw`)\.zip$`,
  'i',
);

/** Whether `name` is one of the file names sync fetches (and so a plain name: no folder, no `..`). */
export function isSyncFileName(name: string): boolean {
  return SYNC_FILE_NAME.test(name);
}

/** Why the decoded last segment of a link is not a plain file name, or null when it is one. */
export function fileNameProblem(name: string): string | null {
  if (/[/\\]/.test(name)) return 'its file name holds a path';
  if (name === '.' || name === '..') return 'its file name is a folder';
  if ([...name].some((c) => c.charCodeAt(0) < 0x20)) return 'its file name holds control characters';
  return null;
}

/** The linked files of a page, and the links refused for their names. */
export function linkedFiles(html: string, pageUrl: string): PageLinks {
  const files = new Map<string, ListedFile>();
  const refused: PageLinks['refused'] = [];
  const parser = new Parser({
    onopentag(tag, attributes) {
      if (tag !== 'a' || !attributes.href) return;
      let url: URL;
      try {
        url = new URL(attributes.href, pageUrl);
      } catch {
        return;
      }
      const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
      let name: string;
      try {
        name = decodeURIComponent(segment);
      } catch {
        refused.push({ href: attributes.href, reason: 'its file name cannot be decoded' });
        return;
      }
      const problem = fileNameProblem(name);
      if (problem) refused.push({ href: attributes.href, reason: problem });
      else if (name && !files.has(name)) files.set(name, { name, url: url.href });
    },
  });
  parser.write(html);
  parser.end();
  return { files: [...files.values()], refused };
}

/**
 * Register snapshots offered, newest first. A date counts only when it can be loaded whole: its
 * one-file zip, or all of its parts (the one file is preferred: one download, one check).
 */
export function registerReleases(files: readonly ListedFile[]): RegisterRelease[] {
  return snapshotReleases(files, parseRegisterFileName);
}

/** PSC snapshots offered, newest first, whole as register snapshots are (the one file preferred). */
export function pscReleases(files: readonly ListedFile[]): PscRelease[] {
  return snapshotReleases(files, parsePscFileName);
}

type SnapshotFileName = { date: string; part: { index: number; of: number } | null };

function snapshotReleases(
  files: readonly ListedFile[],
  parseName: (name: string) => SnapshotFileName | null,
): SnapshotRelease[] {
  const byDate = new Map<string, { whole: ListedFile | null; parts: Map<number, ListedFile>; of: Set<number> }>();
  for (const file of files) {
    const name = isSyncFileName(file.name) ? parseName(file.name) : null;
    if (!name) continue;
    const entry = byDate.get(name.date) ?? { whole: null, parts: new Map(), of: new Set() };
    byDate.set(name.date, entry);
    if (name.part === null) entry.whole = file;
    else {
      entry.parts.set(name.part.index, file);
      entry.of.add(name.part.of);
    }
  }
  const releases: SnapshotRelease[] = [];
  for (const [date, entry] of byDate) {
    if (entry.whole) releases.push({ date, files: [entry.whole] });
    else {
      const of = entry.of.size === 1 ? [...entry.of][0]! : 0;
      const complete = of > 0 && entry.parts.size === of && [...entry.parts.keys()].every((i) => i >= 1 && i <= of);
      if (complete)
        releases.push({ date, files: [...entry.parts.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]) });
    }
  }
  return releases.sort((a, b) => (a.date < b.date ? 1 : -1));
}

/** Daily accounts bulk zips offered, oldest first. */
export function dailyAccountsFiles(files: readonly ListedFile[]): DailyAccountsFile[] {
  const daily: DailyAccountsFile[] = [];
  for (const file of files) {
    const name = isSyncFileName(file.name) ? parseBulkFileName(file.name) : null;
    if (name?.kind === 'daily') daily.push({ ...file, published: name.published });
  }
  return daily.sort((a, b) => (a.published < b.published ? -1 : a.published > b.published ? 1 : 0));
}
