/**
 * Figures estimated from a scanned accounts PDF: the pages that matter are found by a cheap OCR
 * pass over each page's top band, read in full with word positions, and each figure is taken
 * from its labelled line in the current-period column; the balance sheet's arithmetic chooses
 * between readings and grades each figure (docs/pdf-accounts.md). The result has the shape of
 * the iXBRL parser's, plus `source: "pdf_ocr"`, a `confidence` per figure and the pages read.
 */
import type { ParsedFiling, ParseErrorCode } from '../accounts/parse-filing.ts';
import type { FigureKey } from '../domain/figures.ts';
import { emptyFigures } from '../domain/figures.ts';
import type { Row } from './amounts.ts';
import { rowsOf } from './amounts.ts';
import type { Confidence, SheetReadings } from './balance-sheet.ts';
import { readBalanceSheet } from './balance-sheet.ts';
import type { Columns } from './columns.ts';
import { findColumns } from './columns.ts';
import { findStatementPages } from './find-pages.ts';
import { companyNumberIn, dateIn } from './identity.ts';
import { readEmployees, readIncome } from './income-and-staff.ts';
import type { Line } from './ocr-lines.ts';
import { groupLines, parseTsv } from './ocr-lines.ts';
import type { OcrPrograms } from './ocr-tools.ts';
import {
  DEFAULT_PROGRAMS,
  imagesPerPage,
  ocrTexts,
  ocrTsv,
  pageCount,
  pageImage,
  renderLow,
  withScratch,
} from './ocr-tools.ts';

export interface PdfFiling extends ParsedFiling {
  source: 'pdf_ocr';
  /** One entry per figure that is not null. */
  confidence: Partial<Record<FigureKey, Confidence>>;
  /** The 1-based PDF pages the figures came from. */
  pages: { balance_sheet: number | null; profit_and_loss: number | null; employees: number | null };
}

export type PdfParseResult =
  | { ok: true; filing: PdfFiling }
  | {
      ok: false;
      failure: { file: string; error: { code: ParseErrorCode | 'not_a_scan' | 'no_balance_sheet'; message: string } };
    };

export interface PdfReadOptions {
  programs?: OcrPrograms;
  /** The name used in messages and in the result's `file` (default: the path). */
  name?: string;
}

/** Documents this short are read whole at full resolution: no page-finding pass is cheaper. */
const READ_WHOLE_PAGES = 4;

interface Page {
  number: number;
  lines: Line[];
  width: number;
}

/** Read the accounts PDF at `path`. Never throws: a failure is a result naming the reason. */
export async function readPdfAccounts(path: string, options: PdfReadOptions = {}): Promise<PdfParseResult> {
  const programs = options.programs ?? DEFAULT_PROGRAMS;
  const file = options.name ?? path;
  const fail = (code: ParseErrorCode | 'not_a_scan' | 'no_balance_sheet', message: string): PdfParseResult => ({
    ok: false,
    failure: { file, error: { code, message } },
  });
  try {
    return await withScratch(async (dir) => {
      const count = await pageCount(programs, path);
      if (count === 0) return fail('empty', 'the PDF has no pages');
      const images = await imagesPerPage(programs, path);
      const full = new Map<number, Page>();
      const readFull = async (number: number, psm: 3 | 6 = 6): Promise<Page> => {
        const known = psm === 6 ? full.get(number) : undefined;
        if (known) return known;
        const image = await pageImage(programs, path, dir, number, images.get(number) ?? 0);
        const words = parseTsv(await ocrTsv(programs, image, psm));
        const page = { number, lines: groupLines(words), width: Math.max(1, ...words.map((w) => w.right)) };
        if (psm === 6) full.set(number, page);
        return page;
      };

      // The top of each page (where statement titles are), and what is known of its whole text.
      const heads: string[] = [];
      const wholes: string[] = [];
      if (count <= READ_WHOLE_PAGES) {
        for (let n = 1; n <= count; n++) {
          const page = await readFull(n);
          heads.push(textOf({ ...page, lines: page.lines.slice(0, 10) }).toLowerCase());
          wholes.push(textOf(page).toLowerCase());
        }
      } else {
        const bands = await renderLow(programs, path, dir, {
          first: 1,
          last: count,
          ppi: 70,
          band: 0.3,
          prefix: 'band',
        });
        heads.push(...(await ocrTexts(programs, bands, dir, 3)).map((text) => text.toLowerCase()));
        wholes.push(...heads);
      }
      let found = findStatementPages(heads, wholes);
      if (found.balanceSheet === null && count > READ_WHOLE_PAGES) {
        // Some typefaces do not survive 70 ppi: the tops once more, sharper.
        const sharper = await renderLow(programs, path, dir, {
          first: 1,
          last: count,
          ppi: 150,
          band: 0.3,
          prefix: 'sharp',
        });
        heads.splice(0, heads.length, ...(await ocrTexts(programs, sharper, dir, 3)).map((text) => text.toLowerCase()));
        found = findStatementPages(heads, heads);
      }
      if (found.balanceSheet === null)
        return fail('no_balance_sheet', `no balance sheet found on any of its ${count} pages`);

      const sheet = await bestSheetReading(await readFull(found.balanceSheet), () => readFull(found.balanceSheet!, 3));
      const warnings: string[] = [];
      const income = found.profitAndLoss === null ? null : await readIncomePage(await readFull(found.profitAndLoss));
      let employees = await findEmployees(found.employees, readFull);
      if (employees === null && count > READ_WHOLE_PAGES) {
        // The note's heading may be anywhere on its page: the notes after the balance sheet, whole
        // but cheap, until one mentions the average number employed.
        const last = Math.min(count, found.balanceSheet + 12);
        const notes = await renderLow(programs, path, dir, {
          first: found.balanceSheet + 1,
          last,
          ppi: 70,
          prefix: 'notes',
        });
        const texts = await ocrTexts(programs, notes, dir, 3);
        const pages = texts
          .map((text, i) => ({ text: text.toLowerCase(), page: found.balanceSheet! + 1 + i }))
          .filter(({ text }) => /average/.test(text) && /number|employ/.test(text))
          .map(({ page }) => page);
        employees = await findEmployees(pages, readFull);
      }

      const identityPages = [
        full.get(found.balanceSheet)!,
        ...[...full.values()].filter((p) => p.number !== found.balanceSheet),
      ];
      let companyNumber: string | null = null;
      for (const page of identityPages) companyNumber ??= companyNumberIn(textOf(page));
      if (companyNumber === null) companyNumber = companyNumberIn(textOf(await readFull(1)));
      // Long reports print the number in the running head of their first pages.
      for (let n = 2; n <= Math.min(count, 6) && companyNumber === null; n++) {
        const band = await renderLow(programs, path, dir, {
          first: n,
          last: n,
          ppi: 300,
          band: 0.25,
          prefix: `head${n}`,
        });
        companyNumber = companyNumberIn((await ocrTexts(programs, band, dir, 6)).join('\n'));
      }
      if (companyNumber === null)
        return fail('no_company_number', 'no company number printed beside its label on the pages read');

      const date = balanceSheetDate(sheet.page, sheet.columns, income?.page ?? null);
      if (date === null) return fail('no_balance_sheet_date', `no balance sheet date on page ${found.balanceSheet}`);
      if (sheet.columns?.currentYear != null && Number(date.slice(0, 4)) !== sheet.columns.currentYear) {
        warnings.push(
          `the balance sheet is dated ${date} but its current column is headed ${sheet.columns.currentYear}`,
        );
        for (const reading of Object.values(sheet.readings)) reading.confidence = 'low';
      }

      const current = emptyFigures();
      const confidence: PdfFiling['confidence'] = {};
      const put = (key: FigureKey, figure: { value: number; confidence: Confidence } | undefined | null) => {
        if (!figure) return;
        current[key] = figure.value;
        confidence[key] = figure.confidence;
      };
      const r: SheetReadings = sheet.readings;
      put('net_assets', r.net_assets);
      put('equity', r.equity);
      put('total_assets_less_current_liabilities', r.total_assets_less_current_liabilities);
      put('cash', r.cash);
      put('current_assets', r.current_assets);
      put('creditors_within_one_year', r.creditors_within_one_year);
      put('creditors_after_one_year', r.creditors_after_one_year);
      put('debtors', r.debtors);
      put('turnover', income?.figures.turnover);
      put('profit', income?.figures.profit);
      put('employees', employees?.figure);

      return {
        ok: true,
        filing: {
          file,
          company_number: companyNumber,
          company_number_source: 'document',
          entity_name: null,
          balance_sheet_date: date,
          period_start: null,
          standard: 'unknown',
          current,
          prior_balance_sheet_date: null,
          prior_period_start: null,
          prior: null,
          quality: [],
          warnings,
          source: 'pdf_ocr',
          confidence,
          pages: {
            balance_sheet: found.balanceSheet,
            profit_and_loss: income && (income.figures.turnover || income.figures.profit) ? found.profitAndLoss : null,
            employees: employees?.page ?? null,
          },
        },
      };
    });
  } catch (error) {
    return fail('internal', `the PDF could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function textOf(page: Page): string {
  return page.lines.map((line) => line.text).join('\n');
}

interface SheetResult {
  page: Page;
  readings: SheetReadings;
  columns: Columns | null;
  score: number;
}

function sheetOf(page: Page): SheetResult {
  const rows = rowsOf(page.lines);
  const columns = findColumns(rows, page.lines, page.width);
  if (columns === null) return { page, readings: {}, columns, score: -100 };
  return { page, ...readBalanceSheet(rows, columns), columns };
}

/**
 * The balance sheet read as one block of text (psm 6) and, when its arithmetic does not all
 * hold, also with Tesseract's own page layout (psm 3): each misses what the other reads on
 * some scans (a bold column, margin specks in the rows). The reading that checks out best wins.
 */
async function bestSheetReading(page: Page, again: () => Promise<Page>): Promise<SheetResult> {
  const first = sheetOf(page);
  if (first.score >= 30 && first.score % 10 === 0) return first;
  const second = sheetOf(await again());
  return second.score > first.score ? second : first;
}

async function readIncomePage(page: Page): Promise<{ figures: ReturnType<typeof readIncome>; page: Page } | null> {
  const rows = rowsOf(page.lines);
  const columns = findColumns(rows, page.lines, page.width);
  if (columns === null) return null;
  return { figures: readIncome(rows, columns), page };
}

/** The employees figure from the first candidate page that states one. */
async function findEmployees(
  candidates: readonly number[],
  readFull: (page: number) => Promise<Page>,
): Promise<{ figure: { value: number; confidence: Confidence }; page: number } | null> {
  for (const number of candidates.slice(0, 4)) {
    const page = await readFull(number);
    const rows: Row[] = rowsOf(page.lines);
    const figure = readEmployees(rows, findColumns(rows, page.lines, page.width));
    if (figure) return { figure, page: number };
  }
  return null;
}

/** The date in the balance sheet's heading (above its column header), else the P&L's. */
function balanceSheetDate(page: Page, columns: Columns | null, income: Page | null): string | null {
  const headerAt = columns && columns.headerLine >= 0 ? columns.headerLine : 12;
  const heading = page.lines
    .slice(0, headerAt + 1)
    .map((line) => line.text)
    .join('\n');
  const own = dateIn(heading);
  if (own) return own;
  if (income) {
    const incomeHeading = income.lines
      .slice(0, 10)
      .map((line) => line.text)
      .join('\n');
    const fromIncome = dateIn(incomeHeading);
    if (fromIncome) return fromIncome;
  }
  return null;
}
