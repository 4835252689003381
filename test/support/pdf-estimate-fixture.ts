/** A stored estimate from a scanned PDF with no figures read, for tests to fill in what they need. */
import { emptyFigures } from '../../src/domain/figures.ts';
import type { PdfEstimate } from '../../src/ports/pdf-estimates.ts';

export function pdfEstimate(
  companyNumber: string,
  documentId: string,
  balanceSheetDate: string,
  more: Partial<PdfEstimate>,
): PdfEstimate {
  return {
    companyNumber,
    documentId,
    transactionId: null,
    sha256: 'ab'.repeat(32),
    balanceSheetDate,
    periodStart: null,
    standard: 'FRS 102',
    current: emptyFigures(),
    prior: null,
    confidence: {},
    warnings: [],
    readAt: '2025-06-10T08:00:00.000Z',
    ...more,
  };
}
