/**
 * `ukcd backfill officers`: each selected company's officers from the Public Data API
 * (`/company/{number}/officers`, paged by start_index, 100 a page), written whole through the
 * OfficerStore. Every call goes through the one API client and its shared rate limiter (600
 * requests per 5 minutes), which also waits out a 429 and retries a dropped connection.
 *
 * Resumable: the journal keeps a run per selection; a rerun of a selection whose run did not
 * finish skips the companies fetched since that run began. Watched companies come first in every
 * selection, since they are the ones whose alerts and pages need officers soonest. A company whose
 * list cannot be read whole (the API failed after its retries, an item without a name or role) is
 * not written, so nothing held is lost; it is reported, the run is left unfinished, and a rerun
 * tries it again.
 */
import { readOfficer } from '../src/domain/officers.ts';
import type { OfficerRecord } from '../src/domain/officers.ts';
import type { CompaniesHouseApi } from '../src/ports/companies-house-api.ts';
import type { OfficerBackfillJournal, OfficerStore } from '../src/ports/officers.ts';
import { formatDuration } from '../src/progress/progress.ts';
import type { CompanySelection } from './backfill-companies.ts';
import { startBackfillRun } from './backfill-companies.ts';

export const PAGE_SIZE = 100;
/** Companies fetched at once: enough to keep the limiter's budget busy despite each call's latency. */
const CONCURRENCY = 4;

export type BackfillSelection = { kind: 'watched' } | { kind: 'all' } | { kind: 'file'; path: string };

export interface BackfillDeps {
  api: CompaniesHouseApi;
  officers: OfficerStore;
  journal: OfficerBackfillJournal;
  log: (line: string) => void;
  progressStream?: NodeJS.WriteStream;
}

export interface BackfillSummary {
  selection: string;
  resumed: boolean;
  companies: number;
  /** Fetched earlier in the same (resumed) run, so not fetched again. */
  skipped: number;
  fetched: number;
  officers: number;
  failed: { company_number: string; reason: string }[];
  seconds: number;
}

function selectionName(selection: BackfillSelection): string {
  return selection.kind === 'file' ? `file:${selection.path}` : selection.kind;
}

/** The selection as the backfill's journal pages it: the whole register, watched companies first. */
function companiesOf(selection: BackfillSelection, journal: OfficerBackfillJournal): CompanySelection {
  if (selection.kind !== 'all') return selection;
  return {
    kind: 'pages',
    pages: {
      count: () => journal.countRegister(),
      page: (after, limit) => journal.registerCompanies(after, limit),
      watchedFirst: true,
    },
  };
}

/** Every page of a company's officers (none when the API answers 404); throws when one cannot be read whole. */
async function fetchCompanyOfficers(api: CompaniesHouseApi, companyNumber: string): Promise<OfficerRecord[]> {
  const records: OfficerRecord[] = [];
  for (let start = 0; ;) {
    const path = `/company/${companyNumber}/officers?items_per_page=${PAGE_SIZE}&start_index=${start}`;
    const page = (await api.getJson(path)) as Record<string, unknown> | null;
    if (page === null) return records;
    const items = Array.isArray(page.items) ? page.items : null;
    if (!items) throw new Error(`${path}: the answer has no items list`);
    items.forEach((item, index) => {
      const self = (item as { links?: { self?: unknown } } | null)?.links?.self;
      const match = typeof self === 'string' ? /\/appointments\/([^/?#]+)$/.exec(self) : null;
      if (!match) throw new Error(`${path}: item ${start + index} has no links.self naming its appointment`);
      const record = readOfficer(companyNumber, decodeURIComponent(match[1]!), item);
      if (typeof record === 'string') throw new Error(`${path}: item ${start + index}: ${record}`);
      records.push(record);
    });
    start += items.length;
    const total = typeof page.total_results === 'number' ? page.total_results : 0;
    if (items.length === 0 || start >= total) return records;
  }
}

export async function backfillOfficers(selection: BackfillSelection, deps: BackfillDeps): Promise<BackfillSummary> {
  const name = selectionName(selection);
  const started = Date.now();
  const { run, count, batches, progress } = await startBackfillRun(
    'officers',
    name,
    companiesOf(selection, deps.journal),
    deps,
  );
  const summary: BackfillSummary = {
    selection: name,
    resumed: run.resumed,
    companies: count,
    skipped: 0,
    fetched: 0,
    officers: 0,
    failed: [],
    seconds: 0,
  };
  try {
    for await (const batch of batches) {
      const done = await deps.journal.fetchedSince(batch, run.startedAt);
      summary.skipped += done.size;
      progress.advance(done.size);
      const queue = batch.filter((number) => !done.has(number));
      const worker = async () => {
        for (let number = queue.shift(); number !== undefined; number = queue.shift()) {
          const fetchedAt = new Date().toISOString();
          try {
            const records = await fetchCompanyOfficers(deps.api, number);
            await deps.officers.replaceCompanyOfficers(number, records, fetchedAt);
            summary.fetched++;
            summary.officers += records.length;
          } catch (error) {
            summary.failed.push({
              company_number: number,
              reason: error instanceof Error ? error.message : String(error),
            });
          }
          progress.advance();
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    }
  } finally {
    progress.stop();
  }
  if (summary.failed.length === 0) await deps.journal.finishRun(name);
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/** The summary in words, one line, then one line per failed company (at most 20). */
export function describeBackfill(summary: BackfillSummary): string {
  const lines = [
    `officers backfill (${summary.selection}): ${summary.fetched} companies fetched, ${summary.officers} officers written, ` +
      `${summary.skipped} already fetched in this run, ${summary.failed.length} failed, in ${formatDuration(summary.seconds)}` +
      (summary.failed.length > 0 ? '; run it again to retry the failed ones' : ''),
    ...summary.failed.slice(0, 20).map((f) => `  ${f.company_number}: ${f.reason}`),
  ];
  if (summary.failed.length > 20) lines.push(`  … and ${summary.failed.length - 20} more`);
  return lines.join('\n');
}
