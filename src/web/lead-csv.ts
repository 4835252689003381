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

/** A CSV column: its header and how a row gives its cell. */
export interface CsvColumn {
  header: string;
  cell(row: Record<string, unknown>): Cell;
}

/**
 * The columns of rows shaped by `rowSchema` (a zod object: an operation's result item), in its
 * field order: a list (sic_codes) is one cell, joined by "; "; a record (a trigger's `metrics`,
 * whose keys depend on the trigger) gives a column per key of `sample`, named `metrics.<key>`.
 */
export function csvColumns(rowSchema: z.ZodObject, sample: Record<string, unknown> | undefined): CsvColumn[] {
  return Object.entries(rowSchema.shape as Record<string, z.ZodType>).flatMap(([name, schema]): CsvColumn[] => {
    if (unwrapped(schema) instanceof z.ZodRecord) {
      const keys = Object.keys((sample?.[name] as Record<string, unknown> | undefined) ?? {});
      return keys.map((key) => ({
        header: `${name}.${key}`,
        cell: (row) => cellOf((row[name] as Record<string, unknown> | undefined)?.[key]),
      }));
    }
    return [{ header: name, cell: (row) => cellOf(row[name]) }];
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
    for await (const row of rows) yield columns.map((column) => column.cell(row));
  }
  return pipeline(
    Readable.from(records()),
    stringify({ bom: true, record_delimiter: 'windows', cast: { string: textCell } }),
    (error) => {
      if (error) failed(error);
    },
  );
}

/** A lead list's CSV download: how much of the list it holds, and the CSV as it is read. */
export interface LeadCsv {
  extent: CsvExtent;
  stream: Readable;
}

/**
 * The CSV of every match of a list operation's `input` (search_companies or find_triggers), at
 * most `maxRows` rows, read `pageSize` rows a call (the operation's largest limit) through `run`,
 * which calls the operation as the page does. The first page is read before anything is sent, so
 * a refused input or a failing search is an error page, not a broken download; the extent is then
 * known for the response's headers.
 */
export async function leadCsv<Input extends { limit: number; cursor?: string | undefined }>(
  options: {
    input: Input;
    rowSchema: z.ZodObject;
    pageSize: number;
    maxRows: number;
    failed: (error: Error) => void;
  },
  run: (input: Input) => Promise<LeadPage<Record<string, unknown>>>,
): Promise<LeadCsv> {
  const { input, rowSchema, pageSize, maxRows, failed } = options;
  const page = (cursor: string | undefined) => run({ ...input, limit: pageSize, cursor });
  const first = await page(undefined);
  const rows = rowsThroughCursor(first, page, maxRows);
  return {
    extent: csvExtent(first.total, maxRows),
    stream: csvStream(csvColumns(rowSchema, first.results[0]), rows, failed),
  };
}
