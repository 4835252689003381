/**
 * Working the shared queue of companies whose accounts PDFs are wanted: a claimed company is
 * fetched and read (fetch-company.ts), then finished, or, when the API or the disk failed, put
 * off with its error so that another attempt comes later rather than at once. The backfill works
 * the companies of its selection; the service's worker works whatever lookups queued.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { PdfAccountsQueue, PdfLease } from '../../src/ports/pdf-accounts-work.ts';
import type { CompanyPdfOutcome, FetchPdfDeps } from './fetch-company.ts';
import { fetchCompanyPdfAccounts } from './fetch-company.ts';
import { wakeableSleep } from '../../src/shared-work/wakeable-sleep.ts';

/** Long enough for a company's few PDFs to be fetched within the rate limit and read by OCR. */
export const LEASE_SECONDS = 15 * 60;
/** How long a company whose fetch failed waits before it is claimable again. */
const RETRY_SECONDS = 10 * 60;

export interface QueueDeps extends FetchPdfDeps {
  queue: PdfAccountsQueue;
}

/** This process's name on its leases: host, pid and a random tag. */
export function leaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export type WorkedCompany = CompanyPdfOutcome | { companyNumber: string; error: string };

/**
 * Claim one pending company (of `among`, when given) and work it; null when none is claimable. A
 * failed company is claimable again after `retrySeconds`.
 */
export async function workNext(
  deps: QueueDeps,
  lease: PdfLease,
  { among, retrySeconds = RETRY_SECONDS }: { among?: readonly string[]; retrySeconds?: number } = {},
): Promise<WorkedCompany | null> {
  const [companyNumber] = await deps.queue.claim(lease, 1, among);
  if (companyNumber === undefined) return null;
  try {
    const outcome = await fetchCompanyPdfAccounts(companyNumber, deps);
    await deps.queue.finish(companyNumber, lease.holder, null);
    return outcome;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await deps.queue.finish(companyNumber, lease.holder, message, retrySeconds);
    return { companyNumber, error: message };
  }
}

export interface PdfWorker {
  /** Look at the queue now rather than at the next poll (a lookup of this process just queued). */
  wake(): void;
  /** Stop claiming; resolves when the company under way is finished. */
  stop(): Promise<void>;
}

/**
 * The service's worker: works the queue one company at a time (OCR takes the CPU), and when it is
 * empty looks again every `pollMs` or when woken.
 */
export function startPdfWorker(deps: QueueDeps & { pollMs: number; log: (line: string) => void }): PdfWorker {
  const lease = { holder: leaseHolder(), seconds: LEASE_SECONDS };
  const stopped = new AbortController();
  // Starts woken: the first look at the queue comes at once.
  const rest = wakeableSleep(stopped.signal);
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      rest.settle();
      let worked: WorkedCompany | null = null;
      try {
        worked = await workNext(deps, lease);
      } catch (error) {
        deps.log(
          `pdf accounts: the queue could not be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (worked) deps.log(describeWorked(worked));
      else await rest.sleep(deps.pollMs);
    }
  })();
  return {
    wake: () => rest.wake(),
    async stop() {
      stopped.abort();
      await loop;
    },
  };
}

/** One line for the log: what a company's fetch did, and each PDF that could not be read. */
function describeWorked(worked: WorkedCompany): string {
  if ('error' in worked) return `pdf accounts ${worked.companyNumber}: failed, tried again later: ${worked.error}`;
  return [
    `pdf accounts ${worked.companyNumber}: ${worked.read} read, ${worked.failed.length} unreadable, ${worked.passed} passed over`,
    ...worked.failed.map((failure) => `  ${failure.file}: ${failure.reason}`),
  ].join('\n');
}
