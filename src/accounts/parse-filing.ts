/**
 * The accounts parser: one filing's bytes in, its figures out, or a typed failure naming the
 * reason. It never throws.
 */
import type { AccountingStandard, FigureSet } from '../domain/figures.ts';
import { hasAnyFigure } from '../domain/figures.ts';
import { FIGURE_CONCEPTS, WANTED_TEXT } from './concepts.ts';
import { decodeInSlices, decodeWhole } from './decode-text.ts';
import { parseFilingName } from './file-names.ts';
import { accountingStandard, documentCompanyNumber, entityName, findPeriods } from './filing-identity.ts';
import type { QualityWarning } from './quality.ts';
import { noCurrentFigures, qualityWarnings } from './quality.ts';
import { readNumericFacts } from './read-facts.ts';
import { DocumentScanner } from './scan-document.ts';
import type { ScannedDocument } from './scan-document.ts';
import { skimDocument } from './skim-document.ts';
import { indexByConcept, selectFigures } from './select-figures.ts';

export interface ParsedFiling {
  file: string;
  company_number: string;
  /** Where the number came from: the document itself, or the bulk file name when it has none. */
  company_number_source: 'document' | 'file_name';
  entity_name: string | null;
  balance_sheet_date: string;
  period_start: string | null;
  standard: AccountingStandard;
  current: FigureSet;
  prior_balance_sheet_date: string | null;
  prior_period_start: string | null;
  /** All null when the filing has no prior-period column. */
  prior: FigureSet | null;
  quality: QualityWarning[];
  /** Things the parser noticed and resolved: conflicting duplicates, unreadable facts, encoding guesses. */
  warnings: string[];
}

export type ParseErrorCode =
  | 'empty'
  | 'too_large'
  | 'not_accounts'
  | 'truncated'
  | 'no_figures'
  | 'no_company_number'
  | 'no_balance_sheet_date'
  | 'internal';

interface ParseFailure {
  file: string;
  error: { code: ParseErrorCode; message: string };
}

export type ParseResult = { ok: true; filing: ParsedFiling } | { ok: false; failure: ParseFailure };

export interface ParseOptions {
  /** Larger inputs are refused rather than read. */
  maxBytes?: number;
  /**
   * Find the parts that matter with `indexOf` and tokenise only those (default), or tokenise the
   * whole document. Both give the same result; `false` is there to prove it (bench/parse --fingerprint).
   */
  skim?: boolean;
}

export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** Larger filings are decoded and scanned in slices, never held as one string. */
const SKIM_MAX_BYTES = 32 * 1024 * 1024;

/** Parse one filing (`.html`, `.xhtml` or `.xml`). `file` is its name, used in messages and as a fallback. */
export function parseFiling(bytes: Uint8Array, file: string, options: ParseOptions = {}): ParseResult {
  const fail = failureOf(file);
  try {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    if (bytes.length === 0) return fail('empty', 'the file is empty');
    if (bytes.length > maxBytes)
      return fail('too_large', `the file has ${bytes.length} bytes, over the limit of ${maxBytes}`);

    const scanOptions = { wantedText: WANTED_TEXT };
    if ((options.skim ?? true) && bytes.length <= SKIM_MAX_BYTES) {
      const { text, warning } = decodeWhole(bytes);
      return fromDocument(skimDocument(text, scanOptions), file, warning);
    }
    const scanner = new DocumentScanner(scanOptions);
    const encodingWarning = decodeInSlices(bytes, (text) => scanner.write(text));
    return fromDocument(scanner.finish(), file, encodingWarning);
  } catch (error) {
    return fail('internal', `the parser failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The failure of `file` with `code` and `message`. */
function failureOf(file: string): (code: ParseErrorCode, message: string) => ParseResult {
  return (code, message) => ({ ok: false, failure: { file, error: { code, message } } });
}

/** Why a scanned document is no filing to read figures from, or null when it is one. */
function notAFiling(doc: ScannedDocument, fail: ReturnType<typeof failureOf>): ParseResult | null {
  if (doc.kind === 'other') {
    const root = doc.rootName === null ? 'no markup' : `a <${doc.rootName}> document`;
    return fail('not_accounts', `not an iXBRL or XBRL filing: ${root}`);
  }
  if (!doc.rootClosed) return fail('truncated', `the file ends before </${doc.rootName}>: it was cut short`);
  if (doc.contexts.size === 0 && doc.facts.length === 0) {
    return fail(
      'not_accounts',
      doc.kind === 'ixbrl' ? 'an HTML page with no inline XBRL' : 'an XBRL document with no facts',
    );
  }
  return null;
}

function fromDocument(doc: ScannedDocument, file: string, encodingWarning: string | null): ParseResult {
  const fail = failureOf(file);
  const refused = notAFiling(doc, fail);
  if (refused) return refused;

  const { facts, problems } = readNumericFacts(doc, (concept) => FIGURE_CONCEPTS.has(concept));
  if (facts.length === 0) {
    const reason = problems.length > 0 ? `; unreadable: ${problems.slice(0, 3).join('; ')}` : '';
    return fail('no_figures', `no numeric facts could be read${reason}`);
  }

  const fromName = parseFilingName(file);
  const documentNumber = documentCompanyNumber(doc);
  const companyNumber = documentNumber ?? fromName?.companyNumber ?? null;
  if (companyNumber === null) return fail('no_company_number', 'no company number in the document or the file name');

  const periods = findPeriods(doc, facts, fromName?.balanceSheetDate ?? null);
  const balanceSheetDate = periods.balanceSheetDate ?? fromName?.balanceSheetDate ?? null;
  if (balanceSheetDate === null)
    return fail('no_balance_sheet_date', 'no balance sheet date in the document or the file name');

  const warnings: string[] = [];
  if (encodingWarning) warnings.push(encodingWarning);
  warnings.push(...problems);
  if (documentNumber && fromName && documentNumber !== fromName.companyNumber) {
    warnings.push(
      `the document states company ${documentNumber}, the file name ${fromName.companyNumber}; used the document's`,
    );
  }

  const { current, priorFigures, quality, warnings: figureWarnings } = periodFigures(facts, periods, balanceSheetDate);
  warnings.push(...figureWarnings);

  return {
    ok: true,
    filing: {
      file,
      company_number: companyNumber,
      company_number_source: documentNumber ? 'document' : 'file_name',
      entity_name: entityName(doc),
      balance_sheet_date: balanceSheetDate,
      period_start: periods.periodStart,
      standard: accountingStandard(doc),
      current,
      prior_balance_sheet_date: priorFigures ? periods.priorDate : null,
      prior_period_start: priorFigures ? periods.priorStart : null,
      prior: priorFigures,
      quality,
      warnings,
    },
  };
}

/**
 * The figures of the current and prior periods, the prior ones only when any is filed; what is
 * doubtful about them (quality), and the warnings of their selection (conflicting facts, then
 * figures in another currency).
 */
function periodFigures(
  facts: Parameters<typeof indexByConcept>[0],
  periods: ReturnType<typeof findPeriods>,
  balanceSheetDate: string,
): { current: FigureSet; priorFigures: FigureSet | null; quality: QualityWarning[]; warnings: string[] } {
  const byConcept = indexByConcept(facts);
  const current = selectFigures(byConcept, { date: balanceSheetDate, start: periods.periodStart });
  const prior = periods.priorDate
    ? selectFigures(byConcept, { date: periods.priorDate, start: periods.priorStart })
    : null;
  const priorFigures = prior && hasAnyFigure(prior.figures) ? prior.figures : null;
  const warnings = [...current.conflicts, ...(priorFigures ? prior!.conflicts : [])];
  const quality = [
    ...(hasAnyFigure(current.figures)
      ? []
      : [noCurrentFigures(balanceSheetDate, priorFigures ? periods.priorDate : null)]),
    ...qualityWarnings(current.figures, 'current'),
    ...(priorFigures ? qualityWarnings(priorFigures, 'prior') : []),
  ];
  for (const [field, unit] of Object.entries(current.foreignUnits)) {
    warnings.push(`${field} is reported in ${unit}, not GBP`);
  }
  return { current: current.figures, priorFigures, quality, warnings };
}
