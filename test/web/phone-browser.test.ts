/**
 * Every page at phone and desktop widths in a real Chromium: nothing wider than the screen at 360
 * and 390 px (a table scrolls inside its own box, which the keyboard can reach), the company
 * table's caption whole, and axe-core finds no serious or critical violation at either width.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { corporatePsc, individualPsc } from '../support/psc-records.ts';
import { axeViolations, launchBrowser } from './support/browser.ts';
import { HISTORY, loadWebFixtures, NOW, TESCO } from './support/web-fixtures.ts';

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'narrow phone', width: 360, height: 740 },
] as const;

/** The pages a reader can reach, anonymous and signed in. */
const PAGES = [
  '/',
  '/search?name=tesco',
  `/company/${HISTORY}`,
  `/company/${TESCO}`,
  `/compare?company_a=${HISTORY}&company_b=${TESCO}`,
  '/leads',
  '/leads?min_net_assets=1',
  '/leads/triggers',
  '/market',
  '/people?name=lovelace',
  '/person?name=Ada%20Lovelace&birth_year=1970&birth_month=12',
  '/sign-in',
  '/no/such/page',
  '/watchlist',
  '/alerts?since=2020-01-01',
];

/** How much wider than the viewport the document is (0 when it fits), and the outermost elements past its edge. */
function overflowOf(page: Page): Promise<{ by: number; culprits: string[] }> {
  return page.evaluate(() => {
    interface Element {
      tagName: string;
      classList: Iterable<string>;
      parentElement: Element | null;
      getBoundingClientRect(): { right: number };
    }
    const doc = (
      globalThis as unknown as {
        document: {
          documentElement: { clientWidth: number; scrollWidth: number };
          body: { querySelectorAll(selector: string): Iterable<Element> };
        };
      }
    ).document;
    const width = doc.documentElement.clientWidth;
    const past = [...doc.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > width + 0.5);
    const outermost = past.filter((el) => el.parentElement === null || !past.includes(el.parentElement));
    return {
      by: doc.documentElement.scrollWidth - width,
      culprits: outermost.slice(0, 3).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
    };
  });
}

describe('every page at phone and desktop widths', { timeout: 300_000 }, () => {
  let world: World;
  let browser: Browser;
  let key: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
    await world.pscs.upsertPscs(
      [
        individualPsc(TESCO, { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 }),
        corporatePsc(HISTORY, { name: 'TESCO PLC', registeredNumber: TESCO }),
      ],
      '2025-06-01',
    );
    await world.reindex();
    // Pro: every signed-in view counts against the monthly quota, and free's 50 would run out.
    key = await world.issueKey('pro');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  for (const size of WIDTHS) {
    test(`${size.name} (${size.width} px): no page wider than the screen, axe clean`, async () => {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        locale: 'en-GB',
      });
      const page = await context.newPage();
      await page.goto(`${world.url}/sign-in`);
      await page.fill('#api-key', key);
      await Promise.all([page.waitForURL(`${world.url}/watchlist`), page.press('#api-key', 'Enter')]);
      await page.fill('#add-numbers', `${TESCO} ${HISTORY}`);
      await Promise.all([page.waitForURL(/\/watchlist\?/), page.click('text=Add to watchlist')]);
      const problems: string[] = [];
      for (const path of PAGES) {
        await page.goto(`${world.url}${path}`);
        const overflow = await overflowOf(page);
        if (overflow.by > 0)
          problems.push(`${path}: ${overflow.by} px wider than the screen (${overflow.culprits.join(', ')})`);
        for (const v of await axeViolations(page))
          problems.push(`${path}: axe ${v.impact} ${v.id} on ${v.nodes.join(' ')}`);
      }
      // The figures table's caption is read whole, not cut at the screen's edge: every line of its
      // text lies within the screen.
      await page.goto(`${world.url}/company/${HISTORY}`);
      const lines = await page.locator('.figures-table caption').evaluate((caption) => {
        const doc = (globalThis as unknown as { document: { createRange(): RangeLike } }).document;
        interface RangeLike {
          selectNodeContents(node: unknown): void;
          getClientRects(): Iterable<{ left: number; right: number }>;
        }
        const range = doc.createRange();
        range.selectNodeContents(caption);
        return [...range.getClientRects()].map((r) => ({ left: r.left, right: r.right }));
      });
      assert.ok(lines.length > 0, 'the caption is drawn');
      for (const line of lines)
        if (line.left < 0 || line.right > size.width + 0.5) problems.push(`caption cut off: ${JSON.stringify(line)}`);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
