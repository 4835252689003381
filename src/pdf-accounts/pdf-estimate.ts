/**
 * A read PDF as the estimate the store keeps (src/ports/pdf-estimates.ts): the reader's result
 * plus what names the document (its Document API id, the filing history's transaction id, the
 * sha256 of its bytes) and when it was read. Pure: whoever fetched and read the PDF stores it.
 */
import type { PdfEstimate } from '../ports/pdf-estimates.ts';
import type { PdfFiling } from './read-pdf-accounts.ts';

export interface PdfDocumentIdentity {
  documentId: string;
  transactionId: string | null;
  /** Hex sha256 of the PDF's bytes. */
  sha256: string;
  /** ISO 8601 date-time. */
  readAt: string;
}

/**
 * The estimate of `filing` read from the document `identity` names. The quality notes of the
 * iXBRL shape (figures a filing left out) join the reader's own warnings: an estimate has one
 * list of things to know.
 */
export function pdfEstimateOf(filing: PdfFiling, identity: PdfDocumentIdentity): PdfEstimate {
  return {
    companyNumber: filing.company_number,
    documentId: identity.documentId,
    transactionId: identity.transactionId,
    sha256: identity.sha256.toLowerCase(),
    balanceSheetDate: filing.balance_sheet_date,
    periodStart: filing.period_start,
    standard: filing.standard,
    current: { ...filing.current },
    prior: filing.prior === null ? null : { ...filing.prior },
    confidence: { ...filing.confidence },
    warnings: [...filing.warnings, ...filing.quality.map((q) => `${q.period} ${q.field}: ${q.message}`)],
    readAt: identity.readAt,
  };
}
