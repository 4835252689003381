/**
 * Estimates read from scanned accounts PDFs on PostgreSQL or PGlite (migration 061): written by
 * whoever reads a PDF (src/ports/pdf-estimates.ts), read by lookups. An estimate that breaks the
 * port's promises (a company number or date that cannot be one, a confidence for a figure that is
 * null or none for one that is not) is refused whole, naming the document and the field, so a
 * lookup never shows a figure without its grade.
 */
import { isCalendarDate } from '../../domain/calendar-date.ts';
import { FIGURE_KEYS, STANDARDS } from '../../domain/figures.ts';
import type { FigureSet } from '../../domain/figures.ts';
import { AppError } from '../../errors.ts';
import type {
  EstimateConfidence,
  PdfEstimate,
  PdfEstimateReader,
  PdfEstimateWriter,
} from '../../ports/pdf-estimates.ts';
import type { Sql } from '../../ports/sql.ts';

const GRADES: ReadonlySet<string> = new Set<EstimateConfidence>(['high', 'medium', 'low']);

interface EstimateRow {
  company_number: string;
  document_id: string;
  transaction_id: string | null;
  sha256: string;
  balance_sheet_date: string;
  period_start: string | null;
  standard: PdfEstimate['standard'];
  current: FigureSet;
  prior: FigureSet | null;
  confidence: PdfEstimate['confidence'];
  warnings: string[];
  read_at: string;
}

/** Why `estimate` cannot be stored, or null when it can. */
function faultOf(estimate: PdfEstimate): string | null {
  if (!/^[A-Z0-9]{8}$/.test(estimate.companyNumber))
    return `companyNumber "${estimate.companyNumber}" is not 8 letters or digits`;
  if (estimate.documentId.trim() === '') return 'documentId is empty';
  if (!/^[0-9a-f]{64}$/.test(estimate.sha256)) return 'sha256 is not 64 lower-case hex digits';
  if (!isCalendarDate(estimate.balanceSheetDate))
    return `balanceSheetDate "${estimate.balanceSheetDate}" is not a date`;
  if (estimate.periodStart !== null && !isCalendarDate(estimate.periodStart))
    return `periodStart "${estimate.periodStart}" is not a date`;
  if (!(STANDARDS as readonly string[]).includes(estimate.standard))
    return `standard "${estimate.standard}" is unknown`;
  if (Number.isNaN(Date.parse(estimate.readAt))) return `readAt "${estimate.readAt}" is not a date-time`;
  for (const [name, set] of [
    ['current', estimate.current],
    ['prior', estimate.prior],
  ] as const) {
    if (set === null) continue;
    for (const key of FIGURE_KEYS) {
      const value = set[key];
      if (value !== null && !Number.isFinite(value)) return `${name}.${key} is not a finite number`;
    }
  }
  for (const key of Object.keys(estimate.confidence)) {
    if (!(FIGURE_KEYS as readonly string[]).includes(key)) return `confidence names "${key}", not a figure`;
  }
  for (const key of FIGURE_KEYS) {
    const grade = estimate.confidence[key];
    if (estimate.current[key] === null && grade !== undefined) return `confidence.${key} is given for a null figure`;
    if (estimate.current[key] !== null && (grade === undefined || !GRADES.has(grade)))
      return `confidence.${key} must be high, medium or low for a figure that is not null`;
  }
  return null;
}

export function createPdfEstimateStore(sql: Sql): PdfEstimateWriter & PdfEstimateReader {
  return {
    async savePdfEstimate(estimate) {
      const fault = faultOf(estimate);
      if (fault)
        throw new AppError('INVALID_INPUT', `PDF estimate of document ${estimate.documentId} refused: ${fault}.`);
      await sql.query(
        `INSERT INTO pdf_estimates (document_id, company_number, transaction_id, sha256, balance_sheet_date, period_start,
           standard, current, prior, confidence, warnings, read_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11::jsonb, $12)
         ON CONFLICT (document_id) DO UPDATE SET company_number = EXCLUDED.company_number,
           transaction_id = EXCLUDED.transaction_id, sha256 = EXCLUDED.sha256,
           balance_sheet_date = EXCLUDED.balance_sheet_date, period_start = EXCLUDED.period_start,
           standard = EXCLUDED.standard, current = EXCLUDED.current, prior = EXCLUDED.prior,
           confidence = EXCLUDED.confidence, warnings = EXCLUDED.warnings, read_at = EXCLUDED.read_at,
           updated_at = now()`,
        [
          estimate.documentId,
          estimate.companyNumber,
          estimate.transactionId,
          estimate.sha256,
          estimate.balanceSheetDate,
          estimate.periodStart,
          estimate.standard,
          JSON.stringify(estimate.current),
          estimate.prior === null ? null : JSON.stringify(estimate.prior),
          JSON.stringify(estimate.confidence),
          JSON.stringify(estimate.warnings),
          estimate.readAt,
        ],
      );
    },

    async pdfEstimatesOf(companyNumber) {
      const result = await sql.query<EstimateRow>(
        `SELECT company_number, document_id, transaction_id, sha256,
           to_char(balance_sheet_date, 'YYYY-MM-DD') AS balance_sheet_date,
           to_char(period_start, 'YYYY-MM-DD') AS period_start, standard, current, prior, confidence, warnings,
           to_char(read_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS read_at
         FROM pdf_estimates WHERE company_number = $1
         ORDER BY balance_sheet_date DESC, read_at DESC, document_id`,
        [companyNumber],
      );
      return result.rows.map(estimateFromRow);
    },
  };
}

/** A row as the port's shape; figures keep the port's key order whatever jsonb did to it. */
function estimateFromRow(row: EstimateRow): PdfEstimate {
  const figures = (set: FigureSet): FigureSet =>
    Object.fromEntries(FIGURE_KEYS.map((key) => [key, set[key] ?? null])) as FigureSet;
  return {
    companyNumber: row.company_number,
    documentId: row.document_id,
    transactionId: row.transaction_id,
    sha256: row.sha256,
    balanceSheetDate: row.balance_sheet_date,
    periodStart: row.period_start,
    standard: row.standard,
    current: figures(row.current),
    prior: row.prior === null ? null : figures(row.prior),
    confidence: Object.fromEntries(
      FIGURE_KEYS.filter((key) => row.confidence[key]).map((key) => [key, row.confidence[key]]),
    ),
    warnings: row.warnings,
    readAt: row.read_at,
  };
}
