/**
 * CompanyStore.recentFilings pages, on every store: newest publication first, then company
 * number (then newest balance sheet date and source file, so that one company's several filings of
 * a day have a place each), walked by the key of each page's last filing, never an offset; every
 * filing once, also while a load adds filings before and after the walk's place.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RecentFiling, RecentFilingKey } from '../../src/domain/filings.ts';
import { testStores, useStore } from '../support/databases.ts';
import { filing } from '../support/store-records.ts';

const DAYS = ['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04'];

/** 600 filings over four days, several per company and day. */
function filings(zip: string, count: number, offset = 0) {
  return Array.from({ length: count }, (_, i) => {
    const n = i + offset;
    return filing(String(n % 97).padStart(8, '0'), zip, `f${n}.html`, `${2015 + (n % 5)}-12-31`, n, {
      published: DAYS[n % DAYS.length]!,
    });
  });
}

const id = (f: RecentFiling) => `${f.published} ${f.company_number} ${f.balance_sheet_date} ${f.net_assets}`;

for (const kind of testStores) {
  describe(`${kind.name}: CompanyStore.recentFilings pages`, () => {
    const db = useStore(kind);

    async function walk(since: string, limit: number, load?: () => Promise<void>) {
      const pages: { filings: RecentFiling[]; total: number }[] = [];
      let after: RecentFilingKey | undefined;
      for (;;) {
        const page = await db.store.recentFilings(since, limit, after);
        pages.push(page);
        if (page.next === null) return pages;
        assert.equal(page.filings.length, limit);
        after = page.next;
        await load?.();
      }
    }

    test('pages of a few equal one answer; total counts every filing since the day; next is null on the last', async () => {
      await db.store.saveFilings(filings('A.zip', 600), []);
      const whole = await db.store.recentFilings('2024-03-02', 1_000);
      assert.equal(whole.total, 450);
      assert.equal(whole.filings.length, 450);
      assert.equal(whole.next, null);
      const order = whole.filings.map((f) => [f.published, f.company_number]);
      const sorted = [...order].sort(([ap, an], [bp, bn]) => (ap! > bp! ? -1 : ap! < bp! ? 1 : an! < bn! ? -1 : 1));
      assert.deepEqual(order, sorted, 'newest publication first, then company number');
      const pages = await walk('2024-03-02', 7);
      assert.deepEqual(
        pages.flatMap((p) => p.filings),
        whole.filings,
      );
      assert.ok(pages.every((p) => p.total === 450));
      const exact = await db.store.recentFilings('2024-03-02', 450);
      assert.equal(exact.next, null, 'a full last page says nothing follows');
      assert.deepEqual(await db.store.recentFilings('2030-01-01', 5), { total: 0, filings: [], next: null });
    });

    test('while a load adds filings, every filing already there comes once, in order', async () => {
      const before = (await db.store.recentFilings('2024-03-01', 10_000)).filings.map(id);
      let round = 0;
      const pages = await walk('2024-03-01', 25, async () => {
        round += 1;
        await db.store.saveFilings(filings(`B${round}.zip`, 8, 1_000 + round * 8), []);
      });
      const seen = pages.flatMap((p) => p.filings.map(id));
      assert.ok(round > 10);
      assert.equal(new Set(seen).size, seen.length, 'no filing twice');
      assert.deepEqual(
        seen.filter((f) => before.includes(f)),
        before,
      );
    });
  });
}
