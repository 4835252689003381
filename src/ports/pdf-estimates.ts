/**
 * Figures estimated from scanned accounts PDFs, kept apart from the iXBRL figures: each read PDF
 * is its own entry, named by its Document API id, with a confidence per figure. Readers show them
 * marked as estimates and searches use them only when asked.
 */
import type { AccountingStandard, FigureKey, FigureSet } from '../domain/figures.ts';

export type EstimateConfidence = 'high' | 'medium' | 'low';

/** One accounts PDF read by OCR. */
export interface PdfEstimate {
  companyNumber: string;
  /** The Document API's id of the PDF: an estimate's identity (storing it again replaces it). */
  documentId: string;
  /** The filing history item's transaction id, when the PDF was found through filing history. */
  transactionId: string | null;
  /** The sha256 of the PDF's bytes, hex. */
  sha256: string;
  balanceSheetDate: string;
  periodStart: string | null;
  standard: AccountingStandard;
  current: FigureSet;
  /** Null when the document has no prior-period column that was read. */
  prior: FigureSet | null;
  /** One entry per figure of `current` that is not null. */
  confidence: Partial<Record<FigureKey, EstimateConfidence>>;
  warnings: string[];
  /** When the PDF was read, ISO 8601. */
  readAt: string;
}

export interface PdfEstimateWriter {
  /** Store one estimate; storing the same document again replaces its entry. */
  savePdfEstimate(estimate: PdfEstimate): Promise<void>;
}

export interface PdfEstimateReader {
  /** A company's estimates, newest balance sheet date first. */
  pdfEstimatesOf(companyNumber: string): Promise<PdfEstimate[]>;
}
