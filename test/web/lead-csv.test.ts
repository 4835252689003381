/**
 * The lead list CSV (src/web/lead-csv.ts): rows read through the cursor page by page, no page
 * fetched beyond the maximum; columns from the operation's output schema; cells a spreadsheet
 * would run as formulas defused; the stream parses back to the rows, and fails loudly when a page
 * does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { findTriggersOutput, searchCompaniesOutput } from '../../src/operations/outputs.ts';
import type { LeadPage } from '../../src/web/lead-csv.ts';
import {
  csvColumns,
  csvExtent,
  csvStream,
  identifierCell,
  rowsThroughCursor,
  textCell,
} from '../../src/web/lead-csv.ts';
import { csvCellAsSpreadsheet } from '../support/spreadsheet.ts';
import type * as z from 'zod';

/** Pages of the given sizes, numbered rows, each page's `next` naming the page after it. */
function pages(sizes: number[]): {
  first: LeadPage<number>;
  pageAfter: (cursor: string) => Promise<LeadPage<number>>;
  asked: string[];
} {
  let n = 0;
  const all = sizes.map((size, i) => ({
    total: sizes.reduce((a, b) => a + b, 0),
    results: Array.from({ length: size }, () => ++n),
    next: i + 1 < sizes.length ? `page${i + 1}` : null,
  }));
  const asked: string[] = [];
  return {
    first: all[0]!,
    asked,
    async pageAfter(cursor) {
      asked.push(cursor);
      return all[Number(cursor.slice(4))]!;
    },
  };
}

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

test('rows come through the cursor, and no page is fetched past the maximum', async () => {
  const cases = [
    { name: 'all pages', sizes: [3, 3, 2], max: 10, rows: 8, asked: ['page1', 'page2'] },
    { name: 'stops inside the second page', sizes: [3, 3, 2], max: 4, rows: 4, asked: ['page1'] },
    { name: 'the first page is enough', sizes: [3, 3, 2], max: 3, rows: 3, asked: [] },
    { name: 'one page', sizes: [2], max: 10, rows: 2, asked: [] },
    { name: 'nothing matches', sizes: [0], max: 10, rows: 0, asked: [] },
    { name: 'an empty page claiming more ends it', sizes: [2, 0, 5], max: 10, rows: 2, asked: ['page1'] },
  ];
  for (const c of cases) {
    const { first, pageAfter, asked } = pages(c.sizes);
    const rows = await collect(rowsThroughCursor(first, pageAfter, c.max));
    assert.deepEqual(
      rows,
      Array.from({ length: c.rows }, (_, i) => i + 1),
      c.name,
    );
    assert.deepEqual(asked, c.asked, c.name);
  }
});

test('the extent says when the CSV holds fewer rows than match', () => {
  assert.deepEqual(csvExtent(12_345, 10_000), { total: 12_345, rows: 10_000, truncated: true });
  assert.deepEqual(csvExtent(10_000, 10_000), { total: 10_000, rows: 10_000, truncated: false });
  assert.deepEqual(csvExtent(0, 10_000), { total: 0, rows: 0, truncated: false });
});

const searchRow = searchCompaniesOutput.shape.results.element;
const triggerRow = findTriggersOutput.shape.results.element;

test('the columns are the output fields; a trigger metric and a figure growth are columns of their own', () => {
  assert.deepEqual(
    csvColumns(searchRow, undefined).map((c) => c.header),
    Object.keys(searchRow.shape).filter((name) => name !== 'growth'),
  );
  const growth = { growth: { turnover: { previous: 1, latest: 2, change_pct: 100, direction: 'growing' } } };
  assert.deepEqual(
    csvColumns(searchRow, growth)
      .map((c) => c.header)
      .filter((h) => h.startsWith('growth')),
    ['growth.turnover.previous', 'growth.turnover.latest', 'growth.turnover.change_pct', 'growth.turnover.direction'],
  );
  const withOffice = csvColumns(searchRow, undefined, { address: true }).map((c) => c.header);
  assert.deepEqual(withOffice.slice(3, 6), ['address', 'post_town', 'postcode']);
  const sample = { metrics: { balance_sheet_date: '2024-03-31', cash: 900_000, cash_share_pct: 60 } };
  const headers = csvColumns(triggerRow, sample).map((c) => c.header);
  assert.deepEqual(headers.slice(-4), [
    'reason',
    'metrics.balance_sheet_date',
    'metrics.cash',
    'metrics.cash_share_pct',
  ]);
  assert.ok(!headers.includes('metrics'));
});

test('text a spreadsheet would run as a formula is defused', () => {
  const cases = [
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+44 LTD', `'+44 LTD`],
    ['-MINUS LTD', `'-MINUS LTD`],
    ['@HOME LTD', `'@HOME LTD`],
    ['\tTAB LTD', `'\tTAB LTD`],
    ['ACME = WIDGETS LTD', 'ACME = WIDGETS LTD'],
    ['3M UK PLC', '3M UK PLC'],
  ];
  for (const [given, want] of cases) assert.equal(textCell(given!), want);
});

test('a company number of digits is a formula giving the text, which a spreadsheet keeps with its zeros', () => {
  const cases: [string, string][] = [
    ['00669737', '="00669737"'],
    ['12345678', '="12345678"'],
    ['SC123456', 'SC123456'],
    ['OC301234', 'OC301234'],
  ];
  for (const [given, want] of cases) {
    assert.equal(identifierCell(given), want);
    assert.deepEqual(csvCellAsSpreadsheet(want), { type: 'text', value: given });
  }
  // Written bare, as before, a spreadsheet reads a number and drops the zeros.
  assert.deepEqual(csvCellAsSpreadsheet('00669737'), { type: 'number', value: 669737 });
});

type SearchRow = z.infer<typeof searchRow>;

const ROWS: SearchRow[] = [
  {
    company_number: '00000001',
    name: 'ACME, "WIDGETS" & SONS LIMITED',
    status: 'Active',
    post_town: 'LEEDS',
    incorporated: '2001-02-03',
    sic_codes: ['62020 - Information technology consultancy activities', '62090 - Other'],
    balance_sheet_date: '2024-03-31',
    net_assets: -1_250_000.5,
    cash: 12_000,
    turnover: null,
    employees: 12,
    profit: 5_000,
    risk_band: 'high',
    growth: {},
  },
  {
    company_number: 'SC123456',
    name: 'CAFÉ £ ÉCOSSE LTD',
    status: 'Active',
    post_town: null,
    incorporated: null,
    sic_codes: [],
    balance_sheet_date: null,
    net_assets: null,
    cash: null,
    turnover: 3_000_000,
    employees: null,
    profit: null,
    risk_band: 'unknown',
    growth: {},
  },
];

async function* slowly<T>(rows: T[]): AsyncGenerator<T> {
  for (const row of rows) {
    await new Promise((resolve) => setImmediate(resolve));
    yield row;
  }
}

test('the CSV parses back to the rows: BOM, CRLF, quoting, plain numbers, empty for null', async () => {
  const failures: Error[] = [];
  const stream = csvStream(csvColumns(searchRow, ROWS[0]), slowly(ROWS), (error) => failures.push(error));
  const text = Buffer.concat(await collect<Buffer>(stream)).toString('utf8');
  assert.ok(text.startsWith('\uFEFFcompany_number,name,'), 'a BOM, then the header');
  assert.ok(text.includes('\r\n'), 'CRLF line ends');
  assert.ok(text.includes(',-1250000.5,12000,,12,5000,high'), 'plain numbers, an empty cell for null');
  const records = parse(text, { bom: true, columns: true }) as Record<string, string>[];
  assert.equal(records.length, 2);
  assert.equal(records[0]!.company_number, '="00000001"');
  assert.equal(records[1]!.company_number, 'SC123456');
  assert.equal(records[0]!.name, 'ACME, "WIDGETS" & SONS LIMITED');
  assert.equal(records[0]!.incorporated, '2001-02-03');
  assert.equal(records[0]!.profit, '5000');
  assert.equal(records[0]!.sic_codes, '62020 - Information technology consultancy activities; 62090 - Other');
  assert.equal(records[1]!.name, 'CAFÉ £ ÉCOSSE LTD');
  assert.equal(records[1]!.post_town, '');
  assert.equal(Number(records[1]!.turnover), 3_000_000);
  assert.deepEqual(failures, []);
});

test('a page that fails while streaming fails the download, and is reported', async () => {
  const failures: Error[] = [];
  async function* failing() {
    yield ROWS[0]!;
    throw new Error('search index went away');
  }
  const stream = csvStream(csvColumns(searchRow, undefined), failing(), (error) => failures.push(error));
  await assert.rejects(collect(stream), /search index went away/);
  assert.equal(failures.length, 1);
});
