/**
 * The companies a backfill works through (`ukcd backfill officers`, `ukcd backfill pdf-accounts`):
 * the watched ones, those listed in a file, or the rest of a selection paged from the store. Watched
 * companies come first, since their alerts and pages need the data soonest; the batches are small
 * enough for a run to be resumed at any of them.
 */
import { readFile } from 'node:fs/promises';
import { normaliseCompanyNumber } from '../src/domain/company-number.ts';
import { startProgress } from '../src/progress/progress.ts';
import type { Progress } from '../src/progress/progress.ts';

const BATCH = 500;

/** The rest of a selection, beyond a file or the watch lists, as the store pages it. */
interface CompanyPages {
  count(): Promise<number>;
  /** Up to `limit` company numbers after `after` (null: from the first), in number order. */
  page(after: string | null, limit: number): Promise<string[]>;
  /** Whether the watched companies among them come first (and are then left out of the pages). */
  watchedFirst: boolean;
}

export type CompanySelection =
  { kind: 'watched' } | { kind: 'file'; path: string } | { kind: 'pages'; pages: CompanyPages };

interface SelectedCompanies {
  /** How many there are: for a paged selection with watched ones first, an estimate for the ETA. */
  count: number;
  batches: AsyncGenerator<string[]>;
}

/** The company numbers of a file, one a line (blank lines and `#` comments ignored). */
async function readCompanyFile(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  const numbers: string[] = [];
  const bad: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const value = line.replace(/#.*$/, '').trim();
    if (value === '') return;
    const number = normaliseCompanyNumber(value);
    if (number) numbers.push(number);
    else bad.push(`${path}:${index + 1}: "${value}" is not a company number`);
  });
  if (bad.length > 0)
    throw new Error(bad.slice(0, 20).join('\n') + (bad.length > 20 ? `\n… and ${bad.length - 20} more` : ''));
  return [...new Set(numbers)];
}

/** What a backfill keeps of its runs (src/adapters/postgres/backfill-runs.ts). */
interface BackfillJournal {
  beginRun(selection: string): Promise<{ startedAt: string; resumed: boolean }>;
  watchedCompanies(): Promise<string[]>;
}

export interface BackfillStart extends SelectedCompanies {
  run: { startedAt: string; resumed: boolean };
  progress: Progress;
}

/**
 * Begin (or resume) a backfill's run of `name`, say how many companies it has, and start its
 * progress: `backfill <command> (<name>): N companies`.
 */
export async function startBackfillRun(
  command: string,
  name: string,
  selection: CompanySelection,
  deps: { journal: BackfillJournal; log: (line: string) => void; progressStream?: NodeJS.WriteStream | undefined },
): Promise<BackfillStart> {
  const run = await deps.journal.beginRun(name);
  const { count, batches } = await selectedCompanies(selection, deps.journal);
  deps.log(
    `backfill ${command} (${name}): ${count} companies${run.resumed ? `, continuing the run begun ${run.startedAt}` : ''}`,
  );
  const progress = startProgress({ label: command.replace('-', ' '), unit: 'companies', stream: deps.progressStream });
  progress.expect(count);
  return { run, count, batches, progress };
}

/** The selection's companies in batches, watched ones first; and how many there are. */
async function selectedCompanies(selection: CompanySelection, journal: BackfillJournal): Promise<SelectedCompanies> {
  const watchedCompanies = () => journal.watchedCompanies();
  if (selection.kind === 'pages' && !selection.pages.watchedFirst)
    return { count: await selection.pages.count(), batches: pagesAfter([], selection.pages) };
  const watched = await watchedCompanies();
  if (selection.kind === 'watched') return { count: watched.length, batches: inBatches([watched]) };
  if (selection.kind === 'file') {
    const listed = await readCompanyFile(selection.path);
    const isListed = new Set(listed);
    const first = watched.filter((number) => isListed.has(number));
    const firstSet = new Set(first);
    return { count: listed.length, batches: inBatches([first, listed.filter((number) => !firstSet.has(number))]) };
  }
  // The store's count includes the watched companies in it.
  return {
    count: Math.max(await selection.pages.count(), watched.length),
    batches: pagesAfter(watched, selection.pages),
  };
}

async function* pagesAfter(first: string[], pages: CompanyPages): AsyncGenerator<string[]> {
  yield* inBatches([first]);
  const seen = new Set(first);
  for (let after: string | null = null; ;) {
    const page = await pages.page(after, BATCH);
    if (page.length === 0) return;
    after = page[page.length - 1]!;
    yield seen.size === 0 ? page : page.filter((number) => !seen.has(number));
  }
}

async function* inBatches(lists: readonly string[][]): AsyncGenerator<string[]> {
  for (const list of lists) for (let i = 0; i < list.length; i += BATCH) yield list.slice(i, i + BATCH);
}
