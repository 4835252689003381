/**
 * The document fetcher: the accounts filings the filings stream announced, read through the
 * Document API (one shared rate limiter in the API client) as XHTML where Companies House offers
 * it, parsed by the accounts parser and saved as a bulk file's filing would be (source_zip
 * `document-api`), so figures and the new_accounts alert arrive the day the accounts are filed.
 * The daily bulk file that later carries the same accounts replaces this row (the store keeps one
 * filing per company and balance sheet date from the two sources); accounts a bulk file brought
 * first are not fetched at all. PDF-only accounts are left alone and counted (`pdf_only`).
 */
import { wakeableSleep } from '../shared-work/wakeable-sleep.ts';
import { parseFiling } from '../accounts/parse-filing.ts';
import type { CompaniesHouseApi } from '../ports/companies-house-api.ts';
import type { CompanyWriter } from '../ports/companies.ts';
import type { DocumentOutcome, DocumentQueue, PendingDocument } from '../ports/stream-documents.ts';

const XHTML = 'application/xhtml+xml';

/** The source_zip of filings read through the Document API. */
const DOCUMENT_API_SOURCE = 'document-api';

export interface DocumentFetcherDeps {
  queue: DocumentQueue;
  api: CompaniesHouseApi;
  filings: Pick<CompanyWriter, 'saveFilings'>;
  /** Run with the company whose accounts were just saved (alert detection). */
  afterLoaded?: (companies: string[]) => Promise<void>;
  log: (line: string) => void;
  /** Told each document's outcome (the service's /metrics). */
  outcome?: (outcome: DocumentOutcome) => void;
}

export interface DocumentFetcher {
  /** Look for documents now (the filings stream just applied a batch). */
  wake(): void;
  stop(): Promise<void>;
}

export function startDocumentFetcher(
  deps: DocumentFetcherDeps,
  options: { pollMs?: number; claimSeconds?: number } = {},
): DocumentFetcher {
  const controller = new AbortController();
  const idle = wakeableSleep(controller.signal);
  const loop = (async () => {
    while (!controller.signal.aborted) {
      idle.settle();
      let claimed: PendingDocument[];
      try {
        claimed = await deps.queue.claim(5, options.claimSeconds ?? 300);
        for (const document of claimed) {
          if (controller.signal.aborted) break;
          await fetchOne(deps, document, controller.signal);
        }
      } catch (error) {
        if (!controller.signal.aborted) deps.log(`documents: ${(error as Error).message}; trying again later`);
        claimed = [];
      }
      if (claimed.length === 0) await idle.sleep(options.pollMs ?? 5_000);
    }
  })();
  return {
    wake: idle.wake,
    async stop() {
      controller.abort(new Error('stopping'));
      await loop;
    },
  };
}

/** One document: its metadata, its XHTML when offered, parsed and saved; the outcome recorded. */
async function fetchOne(deps: DocumentFetcherDeps, document: PendingDocument, signal: AbortSignal): Promise<void> {
  const finish = async (outcome: DocumentOutcome, detail: string | null) => {
    await deps.queue.finish(document.transactionId, outcome, detail);
    deps.outcome?.(outcome);
  };
  if (document.madeUpDate && (await deps.queue.alreadyLoaded(document.companyNumber, document.madeUpDate))) {
    return finish('already_loaded', null);
  }
  // A failure of the API (after the client's own retries) leaves the document claimed: the next
  // claim after its lease tries it again.
  const metadata = await deps.api.documentMetadata(document.link, signal);
  if (!metadata) return finish('failed', `the Document API has no document at ${document.link} (404)`);
  if (!metadata.contentTypes.includes(XHTML)) {
    return finish('pdf_only', `offered as ${metadata.contentTypes.join(', ') || 'nothing'}`);
  }
  const bytes = await deps.api.documentContent(metadata.id, XHTML, signal);
  if (!bytes) return finish('pdf_only', `XHTML listed but not served for ${metadata.id}`);
  const file = `${metadata.id}.xhtml`;
  const parsed = parseFiling(bytes, file);
  if (!parsed.ok) {
    await deps.filings.saveFilings(
      [],
      [
        {
          source_zip: DOCUMENT_API_SOURCE,
          source_file: file,
          code: parsed.failure.error.code,
          message: parsed.failure.error.message,
        },
      ],
    );
    return finish('failed', `${parsed.failure.error.code}: ${parsed.failure.error.message}`);
  }
  const filing = parsed.filing;
  if (await deps.queue.alreadyLoaded(document.companyNumber, filing.balance_sheet_date)) {
    return finish('already_loaded', null);
  }
  await deps.filings.saveFilings(
    [
      {
        // The filing history names the company; the document's own number may be formatted otherwise.
        company_number: document.companyNumber,
        source_zip: DOCUMENT_API_SOURCE,
        source_file: file,
        published: document.filedOn,
        balance_sheet_date: filing.balance_sheet_date,
        period_start: filing.period_start,
        standard: filing.standard,
        entity_name: filing.entity_name,
        current: filing.current,
        prior_balance_sheet_date: filing.prior_balance_sheet_date,
        prior_period_start: filing.prior_period_start,
        prior: filing.prior,
        quality: filing.quality,
      },
    ],
    [],
  );
  await finish('loaded', file);
  await deps
    .afterLoaded?.([document.companyNumber])
    .catch((error: unknown) =>
      deps.log(`documents: alert detection after ${file} failed: ${(error as Error).message}`),
    );
}
