/**
 * The lead list and market pages over real HTTP, on the embedded default (PGlite, Postgres
 * search) and on PostgreSQL with Elasticsearch: the CSV of a filter holds exactly the matches the
 * API gives for it, page after page through the cursor, in the same order with the same figures;
 * the row bound (WEB_CSV_MAX_ROWS)
 * cuts it and the page and headers say so; a bad filter is a 400 page naming the field, for the
 * page and the CSV alike; a signed-in reader's CSV counts against the key, one request a page of
 * the operation as the API's paging does, while pages (views) and an anonymous reader's count none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { FilingFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { moreCompanies } from '../support/batch-fixtures.ts';
import { testStores } from '../support/databases.ts';
import { usageMonth } from '../../src/domain/api-keys.ts';
import { csvCellAsSpreadsheet, readXlsx } from '../support/spreadsheet.ts';

/** Accounts for 70 of the hundred batch companies: cash-rich, more than one page of 50. */
const cashRich: FilingFixture[] = moreCompanies.slice(0, 70).map((c, i) => ({
  number: c.number,
  name: c.name,
  balanceSheetDate: '2024-12-31',
  current: { netAssets: 1_000_000 + (i % 9) * 1000, cash: 600_000 + (i % 5) * 1000, currentAssets: 700_000 },
}));

const MAX_ROWS = 90;

type Row = Record<string, unknown>;

/** Every match the API gives for `query` (JSON, paged through `next`). */
async function apiMatches(world: World, key: string, path: string, query: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const answer = await call(
      world,
      `${path}?${query}&format=json&limit=50${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      { key },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    rows.push(...(answer.body.results as Row[]));
    cursor = answer.body.next as string | null;
  } while (cursor !== null);
  return rows;
}

/** The CSV download of `path?query`: status, headers and its records. */
async function download(world: World, path: string, query: string) {
  const response = await fetch(`${world.url}${path}?${query}`);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    records: response.status === 200 ? (parse(text, { bom: true, columns: true }) as Record<string, string>[]) : [],
  };
}

/**
 * An API row as its CSV record reads: the company number as a formula giving the text (="00000001"),
 * lists joined by "; ", null empty, numbers plain, metrics and growth spread.
 */
function asCsv(row: Row): Record<string, string> {
  const record: Record<string, string> = {};
  const text = (value: unknown) => (value === null ? '' : Array.isArray(value) ? value.join('; ') : String(value));
  for (const [name, value] of Object.entries(row)) {
    if (name === 'metrics')
      for (const [key, metric] of Object.entries(value as Row)) record[`metrics.${key}`] = text(metric);
    else if (name === 'growth')
      for (const [figure, growth] of Object.entries(value as Row))
        for (const [field, v] of Object.entries(growth as Row)) record[`growth.${figure}.${field}`] = text(v);
    else if (name === 'company_number')
      record[name] = /^\d+$/.test(String(value)) ? `="${String(value)}"` : String(value);
    else record[name] = text(value);
  }
  return record;
}

/** The CSV's records without the registered office, which the API's search rows do not carry. */
function withoutOffice(records: Record<string, string>[]): Record<string, string>[] {
  return records.map(({ address: _address, postcode: _postcode, ...rest }) => rest);
}

/** Sign in with `key` through the sign-in form, as a browser does: the session cookie to send. */
async function signIn(world: World, key: string): Promise<string> {
  const form = await fetch(`${world.url}/sign-in`);
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0]!.split('=') as [string, string];
      cookies.set(name, value);
    }
  };
  keep(form);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  assert.ok(csrf, 'the sign-in form has its token');
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const signedIn = await fetch(`${world.url}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ csrf, api_key: key }).toString(),
  });
  keep(signedIn);
  assert.equal(signedIn.status, 303, 'signed in');
  return cookie();
}

/** Requests of this month the key has used. */
async function used(world: World, key: string): Promise<number> {
  const [record] = await world.keys.listKeys(usageMonth(NOW), key.slice(0, 13));
  return record!.used;
}

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

for (const setup of setups)
  describe(`lead lists and the market page over HTTP on ${setup.name}`, () => {
    let world: World;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW, web: { csvMaxRows: MAX_ROWS } });
      await loadFixtures(world);
      await world.loadRegister(moreCompanies, '2025-01-01');
      await world.loadAccounts(cashRich, '2025-06-10');
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    test('the CSV of a criteria search is the API’s matches, row for row', async () => {
      const query = 'post_town=LEEDS&min_net_assets=1000&sort=-cash';
      const api = await apiMatches(world, key, '/v1/search', query);
      assert.ok(api.length > 50 && api.length <= MAX_ROWS, `more than a page, within the bound: ${api.length}`);
      const csv = await download(world, '/leads.csv', query);
      assert.equal(csv.status, 200, csv.text);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
      assert.match(
        csv.headers.get('content-disposition') ?? '',
        /^attachment; filename="leads-post-town-leeds-min-net-assets-1000-2025-06-15\.csv"$/,
      );
      assert.equal(csv.headers.get('x-total-matches'), String(api.length));
      assert.equal(csv.headers.get('x-csv-truncated'), 'false');
      assert.deepEqual(withoutOffice(csv.records), api.map(asCsv));
      // The registered office beside the post town, from the register as the lookup gives it.
      const headers = Object.keys(csv.records[0]!);
      assert.deepEqual(headers.slice(headers.indexOf('address'), headers.indexOf('postcode') + 1), [
        'address',
        'post_town',
        'postcode',
      ]);
      for (const record of csv.records.slice(0, 3)) {
        const number = record.company_number!.replace(/^="|"$/g, '');
        const company = (await call(world, `/v1/company?number=${number}&format=json`, { key })).body.company;
        assert.equal(record.postcode, company.address.postcode ?? '');
        assert.ok(record.address !== '' && record.address!.includes(company.address.line_1), record.address);
      }
    });

    test('opened as a spreadsheet, the CSV keeps company numbers as text, leading zeros and all', async () => {
      const query = 'post_town=LEEDS&min_net_assets=1000&sort=-cash';
      const api = await apiMatches(world, key, '/v1/search', query);
      assert.ok(
        api.some((row) => String(row.company_number).startsWith('0')),
        'numbers with leading zeros',
      );
      const response = await fetch(`${world.url}/leads.csv?${query}`);
      const cells = (parse(await response.text(), { bom: true }) as string[][]).slice(1).map((row) => row[0]!);
      assert.deepEqual(
        cells.map(csvCellAsSpreadsheet),
        api.map((row) => ({ type: 'text', value: row.company_number })),
      );
      // A bare number, as the CSV had it, is read as a number that has lost its zeros.
      assert.deepEqual(csvCellAsSpreadsheet('00669737'), { type: 'number', value: 669737 });
    });

    test('the XLSX holds the CSV’s rows, company numbers as text cells, figures as numbers', async () => {
      const query = 'post_town=LEEDS&min_net_assets=1000&sort=-cash';
      const response = await fetch(`${world.url}/leads.xlsx?${query}`);
      assert.equal(response.status, 200);
      assert.equal(
        response.headers.get('content-type'),
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      assert.match(
        response.headers.get('content-disposition') ?? '',
        /^attachment; filename="leads-post-town-leeds-min-net-assets-1000-2025-06-15\.xlsx"$/,
      );
      const { rows, textFormatted } = await readXlsx(Buffer.from(await response.arrayBuffer()));
      const csv = await download(world, '/leads.csv', query);
      const headers = rows[0]!.map((cell) => cell?.value);
      assert.deepEqual(headers, Object.keys(csv.records[0]!));
      assert.equal(rows.length - 1, csv.records.length);
      const at = (name: string) => headers.indexOf(name);
      rows.slice(1).forEach((row, i) => {
        const record = csv.records[i]!;
        assert.deepEqual(row[at('company_number')], {
          type: 'text',
          value: record.company_number!.replace(/^="|"$/g, ''),
        });
        assert.ok(textFormatted.has(`A${i + 2}`), 'the company number cell has the text format @');
        assert.deepEqual(row[at('net_assets')], { type: 'number', value: Number(record.net_assets) });
        assert.deepEqual(row[at('name')], { type: 'text', value: record.name });
        assert.equal(row[at('postcode')]?.value ?? '', record.postcode);
      });
    });

    test('the CSV of a trigger is the API’s matches, with the reason and the metrics', async () => {
      const query = 'trigger=cash_rich&post_town=leeds';
      const api = await apiMatches(world, key, '/v1/triggers', query);
      assert.ok(api.length > 50, `more than a page: ${api.length}`);
      const csv = await download(world, '/leads/triggers.csv', query);
      assert.equal(csv.status, 200, csv.text);
      assert.match(
        csv.headers.get('content-disposition') ?? '',
        /filename="leads-cash-rich-post-town-leeds-2025-06-15\.csv"/,
      );
      const want = api.map(asCsv).slice(0, MAX_ROWS);
      assert.deepEqual(withoutOffice(csv.records), want);
      assert.ok(Object.keys(csv.records[0]!).includes('metrics.cash_share_pct'));
    });

    test('the bound cuts the CSV at WEB_CSV_MAX_ROWS, and the page and the headers say so', async () => {
      const query = 'status=any';
      const api = await apiMatches(world, key, '/v1/search', query);
      assert.ok(api.length > MAX_ROWS, `more matches than the bound: ${api.length}`);
      const csv = await download(world, '/leads.csv', query);
      assert.equal(csv.status, 200);
      assert.equal(csv.records.length, MAX_ROWS);
      assert.deepEqual(withoutOffice(csv.records), api.slice(0, MAX_ROWS).map(asCsv));
      assert.equal(csv.headers.get('x-total-matches'), String(api.length));
      assert.equal(csv.headers.get('x-csv-truncated'), 'true');
      const page = await fetch(`${world.url}/leads?${query}`);
      const text = (await page.text()).replace(/\s+/g, ' ');
      assert.equal(page.status, 200);
      assert.match(text, new RegExp(`The download holds the first ${MAX_ROWS} of ${api.length} matches`));
    });

    test('a bad filter is a 400 page naming the field, for the page and the CSV', async () => {
      const cases = [
        { path: '/leads', query: 'min_cash=lots', field: 'min_cash', says: /must be a number/ },
        { path: '/leads.csv', query: 'min_cash=lots', field: 'min_cash', says: /must be a number/ },
        { path: '/leads', query: 'colour=red', field: 'colour', says: /Unknown parameter/ },
        { path: '/leads', query: 'incorporated_from=2024-02-30', field: 'incorporated_from', says: /calendar date/ },
        { path: '/leads/triggers', query: 'trigger=rich', field: 'trigger', says: /must be one of cash_rich/ },
        { path: '/leads/triggers.csv', query: 'post_town=LEEDS', field: 'trigger', says: /Missing required/ },
        { path: '/market', query: 'group_by=colour', field: 'group_by', says: /must be one of/ },
        { path: '/leads', query: 'min_turnover=10&max_turnover=5', field: 'min_turnover', says: /greater than/ },
      ];
      for (const c of cases) {
        const response = await fetch(`${world.url}${c.path}?${c.query}`);
        const html = await response.text();
        assert.equal(response.status, 400, `${c.path}?${c.query}`);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
        assert.ok(
          html.includes(`&quot;${c.field}&quot;`) || html.includes(`"${c.field}"`),
          `${c.path}: names ${c.field}`,
        );
        assert.match(html, c.says);
      }
    });

    test('the lead list page shows the first page, with the next through the cursor', async () => {
      const query = 'post_town=LEEDS&min_net_assets=1000&sort=-cash&limit=20';
      const api = await apiMatches(world, key, '/v1/search', 'post_town=LEEDS&min_net_assets=1000&sort=-cash');
      const first = await (await fetch(`${world.url}/leads?${query}`)).text();
      for (const row of api.slice(0, 20)) assert.ok(first.includes(`/company/${String(row.company_number)}`));
      assert.ok(!first.includes(`/company/${String(api[20]!.company_number)}"`));
      const next = /href="(\/leads\?[^"]*cursor=[^"]+)"/.exec(first)?.[1];
      assert.ok(next, 'a link to the next page');
      const second = await (await fetch(`${world.url}${next.replace(/&amp;/g, '&')}`)).text();
      for (const row of api.slice(20, 40)) assert.ok(second.includes(`/company/${String(row.company_number)}`));
    });

    test('the market page charts each figure the stats give', async () => {
      const response = await fetch(`${world.url}/market?post_town=LEEDS`);
      const html = await response.text();
      assert.equal(response.status, 200);
      const stats = await call(world, '/v1/stats?post_town=LEEDS&format=json', { key });
      for (const figure of ['net_assets', 'cash', 'turnover', 'employees', 'profit']) {
        const filed = (stats.body[figure] as { count: number }).count > 0;
        assert.equal(html.includes(`id="chart-${figure}"`), filed, `${figure}: a chart when filed`);
      }
      assert.match(html, /<svg[^>]*role="img"/);
    });

    test('a signed-in reader’s CSV counts one request a page of the operation; pages and anonymous readers none', async () => {
      const reader = await world.issueKey('pro');
      const cookie = await signIn(world, reader);
      const query = 'post_town=LEEDS&min_net_assets=1000&sort=-cash';
      const start = await used(world, reader);
      assert.equal((await fetch(`${world.url}/leads?${query}`, { headers: { cookie } })).status, 200);
      assert.equal(await used(world, reader), start, 'the page: a view, not charged');
      const csv = await fetch(`${world.url}/leads.csv?${query}`, { headers: { cookie } });
      assert.equal(csv.status, 200);
      const rows = (parse(await csv.text(), { bom: true, columns: true }) as unknown[]).length;
      assert.ok(rows > 50 && rows <= 100, `two pages of 50: ${rows}`);
      assert.equal(await used(world, reader), start + 2, 'the CSV: one search a page, two pages');
      assert.equal((await fetch(`${world.url}/market`, { headers: { cookie } })).status, 200);
      assert.equal(await used(world, reader), start + 2, 'the market page: a view, not charged');
      await fetch(`${world.url}/leads?${query}`);
      await (await fetch(`${world.url}/leads.csv?${query}`)).text();
      assert.equal(await used(world, reader), start + 2, 'anonymous pages: not counted');
    });
  });
