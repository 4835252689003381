/**
 * Estimates as reading a scanned PDF would give them, of the synthetic accounts that are not in
 * the bulk data: periods filed on paper (filesElectronically), and every period of the register's
 * companies beyond those the accounts stream holds (syntheticFilings takes the first `companies`
 * that file; the register lists more), who stand for the quarter of companies whose accounts are
 * not machine-readable. No scan is made: each record is the period's filed figures with what OCR does to them, a grade per figure
 * (mostly high; a low one sometimes read at the wrong scale, as a "£" header over £000 figures
 * misleads a reader), so the sample dataset and the benches have estimates to show and search.
 */
import { createHash } from 'node:crypto';
import type { AccountingStandard, FigureKey } from '../domain/figures.ts';
import { FIGURE_KEYS } from '../domain/figures.ts';
import type { EstimateConfidence, PdfEstimate } from '../ports/pdf-estimates.ts';
import type { AccountsStyle } from './companies.ts';
import { filesElectronically, syntheticCompany } from './companies.ts';
import { dayNumber, fromDayNumber } from './dates.ts';
import { figureHistory } from './figure-history.ts';
import { accountsPublicationDay, filesInWindow } from './filings.ts';
import { labelSeed, Random } from './random.ts';
import { statusOnDay } from './register-life.ts';

const FIGURES = labelSeed('figures');
const OCR = labelSeed('pdf-ocr');

const STANDARDS: Record<AccountsStyle, AccountingStandard> = {
  frs105: 'FRS 105',
  frs102: 'FRS 102',
  ukgaap2009: 'UK GAAP',
  'xbrl-plain': 'UK GAAP',
};

export interface SyntheticEstimatesOptions {
  seed: number;
  /** The register's companies: indices 0 to companies − 1 of the generator. */
  companies: number;
  /** How many of them the accounts stream holds (syntheticFilings' `companies`). */
  filingCompanies: number;
  fromYear: number;
  years: number;
  /** ISO date: accounts filed after it are not read yet. */
  today: string;
}

/**
 * One estimate per period in the window that is not in the bulk data and was filed by `today`
 * while the company was on the register, in company order. `fromYear` and `years` are the
 * accounts stream's. Same seed, same estimates.
 */
export function* syntheticPdfEstimates(options: SyntheticEstimatesOptions): Generator<PdfEstimate> {
  const { seed, fromYear, years } = options;
  const today = dayNumber(options.today);
  let inStream = 0;
  for (let index = 0; index < options.companies; index++) {
    const company = syntheticCompany(seed, index);
    // As syntheticFilings picks them: the first filingCompanies companies with accounts in the window.
    const inBulk = inStream < options.filingCompanies && filesInWindow(seed, fromYear, years, company);
    if (inBulk) inStream++;
    const history = figureHistory(company, years, Random.derive(seed, company.index, FIGURES), fromYear);
    for (const year of history) {
      if (year.balanceSheetDate.slice(0, 4) > String(fromYear + years - 1)) break;
      if (inBulk && filesElectronically(company, year.balanceSheetDate)) continue;
      const filedDay = accountsPublicationDay(seed, company, year.periodIndex);
      if (filedDay > today) continue;
      const { dissolvedDay } = statusOnDay(seed, company, filedDay);
      if (dissolvedDay !== null && dissolvedDay <= filedDay) continue;
      const rng = Random.derive(seed, company.index, year.periodIndex, OCR);
      const current = { ...year.figures };
      const confidence: Partial<Record<FigureKey, EstimateConfidence>> = {};
      for (const key of FIGURE_KEYS) {
        const value = current[key];
        if (value === null) continue;
        // A figure the reader misses now and then; the rest graded as the balance sheet sums allow.
        if (rng.next() < 0.08) {
          current[key] = null;
          continue;
        }
        const grade = rng.weighted<EstimateConfidence>([
          ['high', 80],
          ['medium', 15],
          ['low', 5],
        ]);
        if (grade === 'low' && key !== 'employees' && rng.next() < 0.5) current[key] = value * 1000;
        confidence[key] = grade;
      }
      const documentId = `synthetic-${company.company_number}-${year.balanceSheetDate}`;
      yield {
        companyNumber: company.company_number,
        documentId,
        transactionId: null,
        // No PDF is made: the hash of the record's id stands for the bytes a real read would hash.
        sha256: createHash('sha256').update(documentId).digest('hex'),
        balanceSheetDate: year.balanceSheetDate,
        periodStart: year.periodStart,
        standard: STANDARDS[year.style],
        current,
        prior: year.priorFigures && { ...year.priorFigures },
        confidence,
        warnings: [],
        readAt: `${fromDayNumber(Math.min(today, filedDay + 1))}T06:00:00.000Z`,
      };
    }
  }
}
