/**
 * `ukcd backfill pdf-accounts`: the accounts PDFs of the selected companies, fetched from the
 * Document API, read by OCR and stored as estimates (loaders/pdf-accounts/). Every call goes
 * through the one API client and its shared rate limiter.
 *
 * Shared and resumable through the store: the selection's companies are queued (the same queue
 * lookups fill), and each process running the backfill claims them one at a time under a lease,
 * so several processes or machines split the work and none reads a company another holds. The
 * journal keeps a run per selection; a rerun of a run that did not finish skips the companies
 * finished since it began. Watched companies come first. A company whose fetch failed (the API
 * after its retries, the disk) is reported and put off; the run is left unfinished and a rerun
 * tries it again. A PDF that cannot be read is reported by name and reason and recorded, so it is
 * not read again.
 */
import type { PdfAccountsQueue, PdfBackfillJournal } from '../src/ports/pdf-accounts-work.ts';
import { formatDuration } from '../src/progress/progress.ts';
import type { CompanySelection } from './backfill-companies.ts';
import { startBackfillRun } from './backfill-companies.ts';
import type { QueueDeps } from './pdf-accounts/work-queue.ts';
import { LEASE_SECONDS, leaseHolder, workNext } from './pdf-accounts/work-queue.ts';

export type PdfBackfillSelection = { kind: 'watched' } | { kind: 'without-figures' } | { kind: 'file'; path: string };

export interface PdfBackfillDeps extends QueueDeps {
  queue: PdfAccountsQueue;
  journal: PdfBackfillJournal;
  log: (line: string) => void;
  progressStream?: NodeJS.WriteStream;
  /** The name of this process's leases (default: host, pid and a random tag). */
  holder?: string;
}

export interface PdfBackfillSummary {
  selection: string;
  resumed: boolean;
  companies: number;
  /** Finished earlier in the same (resumed) run, or by another process. */
  skipped: number;
  /** Held by another process's live lease when this one came to them. */
  heldElsewhere: number;
  fetched: number;
  /** Estimates stored. */
  read: number;
  /** PDFs that could not be read, by file and reason. */
  unreadable: { file: string; reason: string }[];
  /** Companies whose fetch failed; a rerun tries them again. */
  failed: { company_number: string; reason: string }[];
  seconds: number;
}

function selectionName(selection: PdfBackfillSelection): string {
  return selection.kind === 'file'
    ? `file:${selection.path}`
    : selection.kind === 'watched'
      ? 'watched'
      : 'all-without-figures';
}

/** The selection as the backfill's journal pages it: companies without figures in number order. */
function companiesOf(selection: PdfBackfillSelection, journal: PdfBackfillJournal): CompanySelection {
  if (selection.kind !== 'without-figures') return selection;
  return {
    kind: 'pages',
    pages: {
      count: () => journal.countCompaniesWithoutFigures(),
      page: (after, limit) => journal.companiesWithoutFigures(after, limit),
      watchedFirst: false,
    },
  };
}

export async function backfillPdfAccounts(
  selection: PdfBackfillSelection,
  deps: PdfBackfillDeps,
): Promise<PdfBackfillSummary> {
  const name = selectionName(selection);
  const started = Date.now();
  const lease = { holder: deps.holder ?? leaseHolder(), seconds: LEASE_SECONDS };
  const { run, count, batches, progress } = await startBackfillRun(
    'pdf-accounts',
    name,
    companiesOf(selection, deps.journal),
    deps,
  );
  const summary: PdfBackfillSummary = {
    selection: name,
    resumed: run.resumed,
    companies: count,
    skipped: 0,
    heldElsewhere: 0,
    fetched: 0,
    read: 0,
    unreadable: [],
    failed: [],
    seconds: 0,
  };
  try {
    for await (const batch of batches) {
      const done = await deps.queue.requestForRun(batch, `backfill:${name}`, run.startedAt);
      summary.skipped += done.size;
      progress.advance(done.size);
      const worked = new Set<string>();
      // A company that failed is claimable again at once, for the next run; this one does not come back to it.
      const claimNext = () =>
        workNext(deps, lease, { among: batch.filter((number) => !worked.has(number)), retrySeconds: 0 });
      for (let company = await claimNext(); company; company = await claimNext()) {
        worked.add(company.companyNumber);
        if ('error' in company) summary.failed.push({ company_number: company.companyNumber, reason: company.error });
        else {
          summary.fetched++;
          summary.read += company.read;
          summary.unreadable.push(...company.failed);
        }
        progress.advance();
      }
      const rest = batch.filter((number) => !done.has(number) && !worked.has(number));
      const held = rest.length === 0 ? 0 : await deps.queue.heldElsewhere(rest, lease.holder);
      summary.heldElsewhere += held;
      progress.advance(rest.length);
    }
  } finally {
    progress.stop();
  }
  if (summary.failed.length === 0 && summary.heldElsewhere === 0) await deps.journal.finishRun(name);
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/** The summary in words: one line, then one per unreadable PDF and failed company (at most 20 each). */
export function describePdfBackfill(summary: PdfBackfillSummary): string {
  const lines = [
    `pdf-accounts backfill (${summary.selection}): ${summary.fetched} companies fetched, ${summary.read} estimates stored, ` +
      `${summary.unreadable.length} PDFs unreadable, ${summary.skipped} already done in this run, ` +
      `${summary.heldElsewhere} held by another process, ${summary.failed.length} failed, in ${formatDuration(summary.seconds)}` +
      (summary.failed.length > 0 || summary.heldElsewhere > 0 ? '; run it again to finish the rest' : ''),
  ];
  const list = (entries: string[]) => {
    lines.push(...entries.slice(0, 20));
    if (entries.length > 20) lines.push(`  … and ${entries.length - 20} more`);
  };
  list(summary.unreadable.map((u) => `  unreadable ${u.file}: ${u.reason}`));
  list(summary.failed.map((f) => `  failed ${f.company_number}: ${f.reason}`));
  return lines.join('\n');
}
