/**
 * Paging over REST, end to end on the embedded default and on PostgreSQL with Elasticsearch:
 * search_by_name, search_companies, find_triggers and recent_changes walked through `next` (sent
 * back as `cursor`) return every match once, with `total` on each page, `next` null on the last,
 * one request of the quota a page, and the Markdown's "N of TOTAL; more: cursor=…" line. A cursor
 * cut, edited, or taken from another query is a 400 naming it; limit may change between pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { FilingFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { moreCompanies } from '../support/batch-fixtures.ts';
import { testStores } from '../support/databases.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

/** Accounts for 60 of the hundred batch companies, published in the last 30 days, cash-rich. */
const recentFilings: FilingFixture[] = moreCompanies.slice(0, 60).map((c, i) => ({
  number: c.number,
  name: c.name,
  balanceSheetDate: '2024-12-31',
  current: { netAssets: 1_000_000 + (i % 7) * 1000, cash: 600_000 + (i % 5) * 1000, currentAssets: 700_000 },
}));

for (const setup of setups) {
  describe(`paging over REST on ${setup.name}`, () => {
    let world: World;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.loadRegister(moreCompanies, '2025-01-01');
      await world.loadAccounts(recentFilings, '2025-06-10');
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    /** Every page of `path` (a query string without cursor), JSON, with each page's quota left. */
    async function walk(path: string, items: string) {
      const pages: { body: Record<string, unknown>; remaining: number }[] = [];
      let cursor: string | null = null;
      do {
        const answer = await call(
          world,
          `${path}&format=json${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
          { key },
        );
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        pages.push({ body: answer.body, remaining: Number(answer.headers.get('x-ratelimit-remaining')) });
        cursor = answer.body.next as string | null;
        assert.ok(pages.length < 100);
      } while (cursor !== null);
      const all = pages.flatMap((p) => p.body[items] as { company_number: string }[]);
      pages.slice(1).forEach((page, i) => assert.equal(page.remaining, pages[i]!.remaining - 1, 'one request a page'));
      assert.ok(
        pages.every((p) => p.body.total === all.length),
        'total: every match, on every page',
      );
      return { pages, all, numbers: all.map((item) => item.company_number) };
    }

    test('search_by_name: every match once, in the order of one answer', async () => {
      const { pages, numbers } = await walk('/v1/search-by-name?name=batch%20company&limit=7', 'results');
      assert.equal(pages.length, 15);
      assert.equal(numbers.length, 100);
      assert.equal(new Set(numbers).size, 100);
      const one = await call(world, '/v1/search-by-name?name=batch%20company&limit=100&format=json', { key });
      assert.deepEqual(
        numbers,
        one.body.results.map((r: { company_number: string }) => r.company_number),
      );
      assert.equal(one.body.next, null);
      assert.equal(one.body.total, 100);
    });

    test('search_companies: every company once across pages, whatever the sort', async () => {
      for (const sort of ['-net_assets', 'name', 'incorporated']) {
        const { numbers } = await walk(`/v1/search?status=any&sort=${sort}&limit=9`, 'results');
        assert.equal(numbers.length, moreCompanies.length + 6, sort);
        assert.equal(new Set(numbers).size, numbers.length, sort);
      }
      // The first page leads with the largest net assets, as without paging.
      const first = await call(world, '/v1/search?limit=3&format=json', { key });
      assert.ok(first.body.total > 100);
      assert.equal(typeof first.body.next, 'string');
    });

    test('find_triggers and recent_changes page alike', async () => {
      // The 60 filings published on 2025-06-10, and the fixtures' five of 2025-06-01.
      const triggered = await walk('/v1/triggers?trigger=recently_filed&limit=8', 'results');
      assert.equal(triggered.numbers.length, 65);
      assert.equal(new Set(triggered.numbers).size, 65);
      const recent = await walk('/v1/recent-changes?days=30&limit=11', 'filings');
      assert.equal(recent.numbers.length, 65);
      const order = (recent.all as unknown as { published: string; company_number: string }[]).map(
        (f) => `${f.published} ${f.company_number}`,
      );
      const newestFirst = [...order].sort((a, b) =>
        a.slice(0, 10) === b.slice(0, 10) ? (a < b ? -1 : 1) : a < b ? 1 : -1,
      );
      assert.deepEqual(order, newestFirst, 'newest publication first, then company number');
    });

    test('Markdown ends the page with "N of TOTAL; more: cursor=…", then the envelope; the last page says no more', async () => {
      const json = await call(world, '/v1/search-by-name?name=batch%20company&limit=40&format=json', { key });
      const text = markdown(await call(world, '/v1/search-by-name?name=batch%20company&limit=40', { key }));
      assert.ok(text.includes(`\n\n40 of 100; more: cursor=${json.body.next}\n`), text.slice(-600));
      const last = markdown(
        await call(world, `/v1/search-by-name?name=batch%20company&limit=80&cursor=${json.body.next}`, { key }),
      );
      assert.ok(last.includes('\n\n60 of 100; no more.'), last.slice(-400));
    });

    test('limit may change between pages; a cursor cut, edited or from another query is a 400 naming it', async () => {
      const first = await call(world, '/v1/search?status=any&sort=name&limit=5&format=json', { key });
      const cursor = first.body.next as string;
      const second = await call(world, `/v1/search?status=any&sort=name&limit=20&format=json&cursor=${cursor}`, {
        key,
      });
      assert.equal(second.status, 200);
      assert.equal(second.body.results.length, 20);
      const refused = async (path: string, reason: RegExp) => {
        const answer = await call(world, path, { key });
        assert.equal(answer.status, 400, `${path}: ${JSON.stringify(answer.body)}`);
        assert.match(answer.body.error, /^Invalid "cursor": /);
        assert.match(answer.body.error, reason);
      };
      const edited = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
      await refused(`/v1/search?status=any&sort=name&cursor=${edited}`, /not one this service gave/);
      await refused(`/v1/search?status=any&sort=name&cursor=${cursor.slice(0, -3)}`, /not one this service gave/);
      await refused(`/v1/search?status=any&sort=name&cursor=%F0%9F%98%80`, /not one this service gave/);
      await refused(`/v1/search?status=any&sort=-name&cursor=${cursor}`, /another query/);
      await refused(`/v1/search?status=active&sort=name&cursor=${cursor}`, /another query/);
      await refused(`/v1/triggers?trigger=cash_rich&cursor=${cursor}`, /another query/);
      await refused(`/v1/search-by-name?name=batch&cursor=${cursor}`, /another query/);
      await refused(`/v1/recent-changes?cursor=${cursor}`, /another query/);
      const names = await call(world, '/v1/search-by-name?name=batch%20company&limit=5&format=json', { key });
      await refused(`/v1/search-by-name?name=batch%20compan&cursor=${names.body.next}`, /another query/);
      // The same name as typed otherwise (case, suffix) is the same query.
      const same = await call(world, `/v1/search-by-name?name=Batch%20Company%20Ltd&cursor=${names.body.next}`, {
        key,
      });
      assert.equal(same.status, 200);
    });
  });
}
