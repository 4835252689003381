/**
 * One company's accounts PDFs: its filing history (category accounts) through the Public Data
 * API, the filings that have no machine-readable version (no iXBRL in the store for that made-up
 * date, and a Document API offering only a PDF), each PDF downloaded under DATA_DIR with its
 * sha256, read by OCR and stored as an estimate. Every document looked at is recorded, a PDF that
 * cannot be read with its reason, so that none is fetched or read twice.
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '../../src/errors.ts';
import type { CompaniesHouseApi } from '../../src/ports/companies-house-api.ts';
import type { PdfAccountsDocuments, PdfDocumentOutcome } from '../../src/ports/pdf-accounts-work.ts';
import type { PdfEstimate, PdfEstimateWriter } from '../../src/ports/pdf-estimates.ts';
import type { PdfFiling, PdfReadOptions } from '../../src/pdf-accounts/read-pdf-accounts.ts';
import { readPdfAccounts } from '../../src/pdf-accounts/read-pdf-accounts.ts';
import { pdfEstimateOf } from '../../src/pdf-accounts/pdf-estimate.ts';

/**
 * The newest accounts filings read per company. Each costs a few CPU-seconds of OCR; the newest
 * years are the ones lookups and lead lists use, and older ones follow when they are the newest
 * without a machine-readable version.
 */
const FILINGS_PER_COMPANY = 3;
const PAGE_SIZE = 100;
/** Content types in which the Document API's accounts are machine-readable. */
const MACHINE_READABLE = ['application/xhtml+xml', 'application/xml'];

export interface FetchPdfDeps {
  api: CompaniesHouseApi;
  documents: PdfAccountsDocuments;
  estimates: PdfEstimateWriter;
  /** The PDFs are kept under `<dataDir>/pdf/<company>/<document id>.pdf`. */
  dataDir: string;
  /** The OCR programs (tests may name them); the Debian ones on PATH by default. */
  read?: Pick<PdfReadOptions, 'programs'>;
}

/** What one company's fetch did. */
export interface CompanyPdfOutcome {
  companyNumber: string;
  /** Estimates stored now. */
  read: number;
  /** PDFs that could not be read: the file and why. */
  failed: { file: string; reason: string }[];
  /** Accounts filings passed over: machine-readable, looked at before, or without a document. */
  passed: number;
}

/** An accounts filing of the history, as far as it matters here. */
interface AccountsFiling {
  transactionId: string | null;
  madeUpDate: string | null;
  metadataLink: string;
}

/** The company's accounts filings with a document, newest first. Throws when the history cannot be read. */
async function accountsFilings(api: CompaniesHouseApi, companyNumber: string): Promise<AccountsFiling[]> {
  const filings: AccountsFiling[] = [];
  for (let start = 0; ;) {
    const path = `/company/${companyNumber}/filing-history?category=accounts&items_per_page=${PAGE_SIZE}&start_index=${start}`;
    const page = (await api.getJson(path)) as Record<string, unknown> | null;
    if (page === null) return filings;
    const items = Array.isArray(page.items) ? (page.items as unknown[]) : null;
    if (!items) throw new Error(`${path}: the answer has no items list`);
    for (const raw of items) {
      const item = (raw ?? {}) as {
        transaction_id?: unknown;
        category?: unknown;
        date?: unknown;
        description_values?: { made_up_date?: unknown };
        links?: { document_metadata?: unknown };
      };
      if (item.category !== undefined && item.category !== 'accounts') continue;
      const link = item.links?.document_metadata;
      if (typeof link !== 'string') continue;
      const madeUp = item.description_values?.made_up_date;
      filings.push({
        transactionId: typeof item.transaction_id === 'string' ? item.transaction_id : null,
        madeUpDate: typeof madeUp === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(madeUp) ? madeUp : null,
        metadataLink: link,
      });
    }
    start += items.length;
    const total = typeof page.total_count === 'number' ? page.total_count : 0;
    if (items.length === 0 || start >= total) break;
  }
  // The history lists newest first; sorting by made-up date keeps that when it does not.
  return filings.sort((a, b) => (b.madeUpDate ?? '').localeCompare(a.madeUpDate ?? ''));
}

/** Write `bytes` to `path` whole or not at all: a reader never sees half a PDF. */
async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * The estimate of a read PDF, under the company and made-up date the register's filing history
 * gives it: OCR may misread either, and what the document prints instead becomes a warning.
 */
function estimateOf(
  companyNumber: string,
  filing: PdfFiling,
  found: AccountsFiling,
  documentId: string,
  sha256: string,
): PdfEstimate {
  const estimate = pdfEstimateOf(filing, {
    documentId,
    transactionId: found.transactionId,
    sha256,
    readAt: new Date().toISOString(),
  });
  if (filing.company_number !== '' && filing.company_number !== companyNumber)
    estimate.warnings.push(`the document prints company number ${filing.company_number}`);
  if (found.madeUpDate && filing.balance_sheet_date !== found.madeUpDate)
    estimate.warnings.push(`the document's balance sheet date reads ${filing.balance_sheet_date}`);
  return { ...estimate, companyNumber, balanceSheetDate: found.madeUpDate ?? filing.balance_sheet_date };
}

/**
 * Fetch and read the company's accounts PDFs not yet looked at. Throws when the API fails after
 * its retries or the disk cannot be written (nothing is recorded for the document at hand, so a
 * later attempt tries it again); a PDF that cannot be read is an outcome, not a throw.
 */
export async function fetchCompanyPdfAccounts(companyNumber: string, deps: FetchPdfDeps): Promise<CompanyPdfOutcome> {
  const outcome: CompanyPdfOutcome = { companyNumber, read: 0, failed: [], passed: 0 };
  const [filings, known, machineReadable] = await Promise.all([
    accountsFilings(deps.api, companyNumber),
    deps.documents.knownDocuments(companyNumber),
    deps.documents.machineReadableDates(companyNumber),
  ]);
  let attempted = 0;
  for (const filing of filings) {
    if (attempted >= FILINGS_PER_COMPANY) break;
    if (filing.madeUpDate && machineReadable.has(filing.madeUpDate)) {
      outcome.passed++;
      continue;
    }
    const linkId = /\/document\/([^/?#]+)/.exec(filing.metadataLink)?.[1];
    const seen = linkId === undefined ? undefined : known.get(decodeURIComponent(linkId));
    if (seen) {
      outcome.passed++;
      if (seen.outcome !== 'machine_readable') attempted++;
      continue;
    }
    const metadata = await deps.api.documentMetadata(filing.metadataLink);
    if (!metadata) {
      outcome.passed++;
      continue;
    }
    const record: PdfDocumentOutcome = {
      documentId: metadata.id,
      companyNumber,
      transactionId: filing.transactionId,
      madeUpDate: filing.madeUpDate,
      outcome: 'machine_readable',
      reason: null,
      path: null,
      sha256: null,
    };
    if (metadata.contentTypes.some((type) => MACHINE_READABLE.includes(type))) {
      await deps.documents.recordDocument(record);
      outcome.passed++;
      continue;
    }
    if (!metadata.contentTypes.includes('application/pdf')) {
      outcome.passed++;
      continue;
    }
    attempted++;
    const bytes = await deps.api.documentContent(metadata.id, 'application/pdf');
    if (!bytes) {
      outcome.passed++;
      continue;
    }
    const relative = join('pdf', companyNumber, `${metadata.id}.pdf`);
    const path = join(deps.dataDir, relative);
    await writeAtomically(path, bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const result = await readPdfAccounts(path, { ...deps.read, name: path });
    if (!result.ok) {
      const reason = `${result.failure.error.code}: ${result.failure.error.message}`;
      await deps.documents.recordDocument({ ...record, outcome: 'failed', reason, path: relative, sha256 });
      outcome.failed.push({ file: path, reason });
      continue;
    }
    try {
      await deps.estimates.savePdfEstimate(estimateOf(companyNumber, result.filing, filing, metadata.id, sha256));
    } catch (error) {
      // A reading the store refuses (a figure without its grade…) would be refused again: recorded, not retried.
      if (!(error instanceof AppError && error.code === 'INVALID_INPUT')) throw error;
      await deps.documents.recordDocument({
        ...record,
        outcome: 'failed',
        reason: error.message,
        path: relative,
        sha256,
      });
      outcome.failed.push({ file: path, reason: error.message });
      continue;
    }
    await deps.documents.recordDocument({ ...record, outcome: 'read', path: relative, sha256 });
    outcome.read++;
  }
  return outcome;
}
