/**
 * A lead list as CSV: every match of a criteria search or a trigger, read page by page through
 * the operation's own cursor (as an API client pages), written by csv-stringify as the pages
 * arrive, so that memory stays flat however long the list is, up to a maximum number of rows.
 *
 * The CSV is for spreadsheets and programs, not for reading on the page: numbers are plain
 * (1250000, not £1.25m), dates ISO (2024-03-31), and the columns are the operation's output
 * fields, generated from its output schema so that none is missing.
 */
import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import writeXlsxFile from 'write-excel-file/node';
import type { SheetData } from 'write-excel-file/node';
import * as z from 'zod';

/** One page of an operation's answer, as search_companies and find_triggers give it. */
export interface LeadPage<Row> {
  total: number;
  results: readonly Row[];
  next: string | null;
}

/** How much of a list of `total` matches a CSV of at most `maxRows` rows holds. */
export interface CsvExtent {
  total: number;
  rows: number;
  truncated: boolean;
}

export function csvExtent(total: number, maxRows: number): CsvExtent {
  return { total, rows: Math.min(total, maxRows), truncated: total > maxRows };
}

/**
 * The rows of every page, from `first` on, fetching the page after each through its `next` cursor,
 * until there is none or `maxRows` rows have been given. A page is fetched only when the rows
 * before it have been taken, so a slow reader slows the reading, and a reader that stops stops it.
 */
export async function* rowsThroughCursor<Row>(
  first: LeadPage<Row>,
  pageAfter: (cursor: string) => Promise<LeadPage<Row>>,
  maxRows: number,
): AsyncGenerator<Row> {
  let given = 0;
  for (let page: LeadPage<Row> | null = first; page !== null;) {
    for (const row of page.results) {
      if (given >= maxRows) return;
      yield row;
      given++;
    }
    if (given >= maxRows || page.next === null) return;
    // A page that is empty yet says there is more would page for ever: stop, as the API has ended.
    if (page.results.length === 0) return;
    page = await pageAfter(page.next);
  }
}

type Cell = string | number | null;

/** A column of a lead list's download (CSV or XLSX): its header and how a row gives its cell. */
export interface CsvColumn {
  header: string;
  cell(row: Record<string, unknown>): Cell;
  /** An identifier made of digits (a company number): kept as text, leading zeros and all. */
  identifier?: boolean;
}

/**
 * The columns of rows shaped by `rowSchema` (a zod object: an operation's result item), in its
 * field order: a list (sic_codes) is one cell, joined by "; "; a record or object whose keys vary
 * (a trigger's `metrics`, the `growth` of the figures asked) gives a column per key of `sample`,
 * named `metrics.<key>`, and an object under a key a column per field (`growth.turnover.change_pct`).
 * With `address`, the registered office's address lines and postcode come around the post town.
 */
export function csvColumns(
  rowSchema: z.ZodObject,
  sample: Record<string, unknown> | undefined,
  options: { address?: boolean } = {},
): CsvColumn[] {
  return Object.entries(rowSchema.shape as Record<string, z.ZodType>).flatMap(([name, schema]): CsvColumn[] => {
    const inner = unwrapped(schema);
    if (inner instanceof z.ZodRecord || (inner instanceof z.ZodObject && name !== 'company_number'))
      return nestedColumns(name, sample?.[name]);
    if (name === 'company_number') return [{ header: name, cell: (row) => cellOf(row[name]), identifier: true }];
    if (name === 'post_town' && options.address)
      return [
        { header: 'address', cell: (row) => cellOf(row.address) },
        { header: name, cell: (row) => cellOf(row[name]) },
        { header: 'postcode', cell: (row) => cellOf(row.postcode) },
      ];
    return [{ header: name, cell: (row) => cellOf(row[name]) }];
  });
}

/** A column per key of the sample's value; a plain object under a key, a column per its fields. */
function nestedColumns(name: string, sample: unknown): CsvColumn[] {
  const entries = Object.entries((sample as Record<string, unknown> | undefined) ?? {});
  return entries.flatMap(([key, value]): CsvColumn[] => {
    const at = (row: Record<string, unknown>) => (row[name] as Record<string, unknown> | undefined)?.[key];
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return Object.keys(value).map((field) => ({
        header: `${name}.${key}.${field}`,
        cell: (row) => cellOf((at(row) as Record<string, unknown> | undefined)?.[field]),
      }));
    return [{ header: `${name}.${key}`, cell: (row) => cellOf(at(row)) }];
  });
}

function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner;
}

function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(String).join('; ');
  if (typeof value === 'number' || typeof value === 'string') return value;
  return String(value);
}

/**
 * A text cell a spreadsheet would run as a formula (starting =, +, -, @, tab or carriage return)
 * gets a leading apostrophe, which spreadsheets show as text (OWASP's advice on CSV injection).
 * Company names come from a public register anyone can file with. Numbers are not text here, so a
 * negative net assets stays a number.
 */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * An identifier of digits as a CSV cell a spreadsheet keeps as text: `="00669737"`. Excel,
 * LibreOffice Calc (formulas evaluated on import, its default for a file opened) and Google Sheets
 * read a cell that is a formula giving a string as that string, so 00669737 keeps its zeros; a
 * bare 00669737 becomes the number 669737. A leading apostrophe is not used for this: a CSV's
 * apostrophe stays visible in Excel. Identifiers with a letter (SC123456) are text already and
 * are written as they are. The cell is always our own digits, never register text.
 */
export function identifierCell(value: string): string {
  return /^\d+$/.test(value) ? `="${value}"` : textCell(value);
}

/** A cell as the CSV writes it: identifiers kept as text, formulas in text defused. */
function csvCell(column: CsvColumn, row: Record<string, unknown>): Cell {
  const value = column.cell(row);
  if (typeof value !== 'string') return value;
  return column.identifier ? identifierCell(value) : textCell(value);
}

/**
 * The CSV of `rows` under `columns`: UTF-8 with a byte order mark (so that Excel reads £ and
 * accented names right), CRLF line ends (RFC 4180), a header line. `failed` hears of an error
 * while streaming; the stream is then destroyed, so the download fails rather than ends short.
 */
export function csvStream(
  columns: readonly CsvColumn[],
  rows: AsyncIterable<Record<string, unknown>>,
  failed: (error: Error) => void,
): Readable {
  async function* records() {
    yield columns.map((column) => column.header);
    for await (const row of rows) yield columns.map((column) => csvCell(column, row));
  }
  return pipeline(Readable.from(records()), stringify({ bom: true, record_delimiter: 'windows' }), (error) => {
    if (error) failed(error);
  });
}

/**
 * The same table as an XLSX workbook (write-excel-file), one sheet: identifiers as text cells
 * with the text format `@`, so that no spreadsheet reads 00669737 as a number; figures as numbers;
 * no formula anywhere (an XLSX string cell is never run, so register text needs no defusing).
 * The workbook is built in memory: the rows are at most the CSV's bound.
 */
export async function xlsxBuffer(
  columns: readonly CsvColumn[],
  rows: AsyncIterable<Record<string, unknown>>,
): Promise<Buffer> {
  const data: SheetData = [columns.map((column) => ({ value: column.header, fontWeight: 'bold' as const }))];
  for await (const row of rows)
    data.push(
      columns.map((column) => {
        const value = column.cell(row);
        if (value === null) return null;
        if (typeof value === 'number') return { type: Number, value };
        return column.identifier ? { type: String, value, format: '@' } : { type: String, value };
      }),
    );
  return writeXlsxFile(data, { stickyRowsCount: 1 }).toBuffer();
}

/** The registered office of a company as the download shows it, beside its post town. */
export interface OfficeAddress {
  /** The address lines before the post town, joined by ", "; null when none is held. */
  address: string | null;
  postcode: string | null;
}

/** A lead list's download: how much of the list it holds, its columns, and its rows as they are read. */
export interface LeadDownload {
  extent: CsvExtent;
  columns: CsvColumn[];
  rows: AsyncIterable<Record<string, unknown>>;
}

/**
 * Every match of a list operation's `input` (search_companies or find_triggers), at most
 * `maxRows` rows, read `pageSize` rows a call (the operation's largest limit) through `run`,
 * which calls the operation as the page does; with `addresses`, each page's rows gain the
 * registered office (one read of the store a page). The first page is read before anything is
 * sent, so a refused input or a failing search is an error page, not a broken download; the
 * extent is then known for the response's headers.
 */
export async function leadDownload<Input extends { limit: number; cursor?: string | undefined }>(
  options: {
    input: Input;
    rowSchema: z.ZodObject;
    pageSize: number;
    maxRows: number;
    addresses?: (companyNumbers: readonly string[]) => Promise<ReadonlyMap<string, OfficeAddress>>;
  },
  run: (input: Input) => Promise<LeadPage<Record<string, unknown>>>,
): Promise<LeadDownload> {
  const { input, rowSchema, pageSize, maxRows, addresses } = options;
  const page = async (cursor: string | undefined): Promise<LeadPage<Record<string, unknown>>> => {
    const answer = await run({ ...input, limit: pageSize, cursor });
    if (!addresses) return answer;
    const offices = await addresses(answer.results.map((row) => String(row.company_number)));
    const none: OfficeAddress = { address: null, postcode: null };
    return {
      ...answer,
      results: answer.results.map((row) => ({ ...row, ...(offices.get(String(row.company_number)) ?? none) })),
    };
  };
  const first = await page(undefined);
  return {
    extent: csvExtent(first.total, maxRows),
    columns: csvColumns(rowSchema, first.results[0], { address: addresses !== undefined }),
    rows: rowsThroughCursor(first, page, maxRows),
  };
}
