/**
 * What the Companies House download service offers, read from its pages: the register page
 * (`en_output.html`) links the monthly snapshot, as one file or in parts; the accounts page
 * (`en_accountsdata.html`) links the daily bulk zips. Links are read from the HTML's anchors, not
 * from the text around them, so a change of layout does not hide a file.
 */
import { Parser } from 'htmlparser2';
import { parseBulkFileName } from '../../src/accounts/file-names.ts';
import { parseRegisterFileName } from '../register-inputs.ts';

export const REGISTER_PAGE = 'en_output.html';
export const ACCOUNTS_PAGE = 'en_accountsdata.html';

export interface ListedFile {
  name: string;
  url: string;
}

/** One monthly register snapshot: the whole-register file, or every one of its parts. */
export interface RegisterRelease {
  date: string;
  files: ListedFile[];
}

export interface DailyAccountsFile extends ListedFile {
  published: string;
}

/** Every linked file of a page, by its last path segment, with its absolute URL. */
export function linkedFiles(html: string, pageUrl: string): ListedFile[] {
  const files = new Map<string, ListedFile>();
  const parser = new Parser({
    onopentag(tag, attributes) {
      if (tag !== 'a' || !attributes.href) return;
      let url: URL;
      try {
        url = new URL(attributes.href, pageUrl);
      } catch {
        return;
      }
      const name = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
      if (name && !files.has(name)) files.set(name, { name, url: url.href });
    },
  });
  parser.write(html);
  parser.end();
  return [...files.values()];
}

/**
 * Register snapshots offered, newest first. A date counts only when it can be loaded whole: its
 * one-file zip, or all of its parts (the one file is preferred: one download, one check).
 */
export function registerReleases(files: readonly ListedFile[]): RegisterRelease[] {
  const byDate = new Map<string, { whole: ListedFile | null; parts: Map<number, ListedFile>; of: Set<number> }>();
  for (const file of files) {
    const name = parseRegisterFileName(file.name);
    if (!name || !file.name.toLowerCase().endsWith('.zip')) continue;
    const entry = byDate.get(name.date) ?? { whole: null, parts: new Map(), of: new Set() };
    byDate.set(name.date, entry);
    if (name.part === null) entry.whole = file;
    else {
      entry.parts.set(name.part.index, file);
      entry.of.add(name.part.of);
    }
  }
  const releases: RegisterRelease[] = [];
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
    const name = parseBulkFileName(file.name);
    if (name?.kind === 'daily') daily.push({ ...file, published: name.published });
  }
  return daily.sort((a, b) => (a.published < b.published ? -1 : a.published > b.published ? 1 : 0));
}
