/**
 * The Market page's distribution charts in a real Chromium at desktop (1366 px) and phone widths
 * (390 and 360 px): the page no wider than the screen; every piece of the charts' text drawn at
 * 12 px or more on screen, inside its drawing, the tick labels shown clear of each other; the
 * median's value written in the drawing and every percentile in words under it, with no hover;
 * the table behind its toggle opened with the keyboard alone; axe-core finds no serious or
 * critical violation, the tables open or closed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { FilingFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { loadFixtures, NOW } from '../support/api-fixtures.ts';
import { moreCompanies } from '../support/batch-fixtures.ts';
import { testStores } from '../support/databases.ts';
import { axeViolations, launchBrowser } from './support/browser.ts';

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'narrow phone', width: 360, height: 740 },
] as const;

/** Forty companies whose net assets run from a loss to millions: a wide axis crossing zero. */
const spread: FilingFixture[] = moreCompanies.slice(0, 40).map((c, i) => ({
  number: c.number,
  name: c.name,
  balanceSheetDate: '2024-12-31',
  current: { netAssets: -60_000 + i * i * 1_700, cash: 5_000 + i * 900, currentAssets: 50_000 + i * 1_000 },
}));

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Drawn {
  svg: Box;
  texts: { className: string; words: string; px: number; shown: boolean; box: Box }[];
  values: string;
}

describe('the Market page charts at phone and desktop widths', { timeout: 180_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
    await world.loadRegister(moreCompanies, '2025-01-01');
    await world.loadAccounts(spread, '2025-06-10');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  for (const size of WIDTHS)
    test(`${size.name} (${size.width} px): readable text, values shown, no overflow, axe clean`, async () => {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        locale: 'en-GB',
      });
      const page = await context.newPage();
      await page.goto(`${world.url}/market?status=active`);
      const width = await page.evaluate(() => {
        const doc = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
        ).document.documentElement;
        return { scroll: doc.scrollWidth, client: doc.clientWidth };
      });
      assert.ok(width.scroll <= width.client, `${width.scroll} px wide in a ${width.client} px screen`);
      const figures = await page.locator('section.figure:has(svg.distribution-chart)').count();
      assert.ok(figures >= 2, `charts: ${figures}`);

      for (const figure of ['net_assets', 'cash']) {
        const drawn: Drawn = await page
          .locator(`section.figure[aria-labelledby="figure-${figure}"]`)
          .evaluate((section) => {
            interface El {
              getBoundingClientRect(): Box;
              querySelector(selector: string): El | null;
              querySelectorAll(selector: string): Iterable<El>;
              getAttribute(name: string): string | null;
              textContent: string | null;
              getScreenCTM(): { a: number; d: number } | null;
            }
            const view = globalThis as unknown as { getComputedStyle(el: El): { fontSize: string; display: string } };
            const root = section as unknown as El;
            const svg = root.querySelector('svg')!;
            // An SVG's computed font size is in its own units: on screen it is that times the drawing's scale.
            const scale = Math.min(svg.getScreenCTM()!.a, svg.getScreenCTM()!.d);
            return {
              svg: JSON.parse(JSON.stringify(svg.getBoundingClientRect())) as Box,
              texts: [...svg.querySelectorAll('text')].map((t) => ({
                className: t.getAttribute('class') ?? '',
                words: t.textContent ?? '',
                px: parseFloat(view.getComputedStyle(t).fontSize) * scale,
                shown: view.getComputedStyle(t).display !== 'none',
                box: JSON.parse(JSON.stringify(t.getBoundingClientRect())) as Box,
              })),
              values: root.querySelector('.distribution-values')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
            };
          });
        const shown = drawn.texts.filter((t) => t.shown);
        for (const t of shown) {
          assert.ok(t.px >= 12, `${figure}: "${t.words}" drawn at ${t.px.toFixed(1)} px`);
          assert.ok(
            t.box.left >= drawn.svg.left - 0.5 && t.box.right <= drawn.svg.right + 0.5,
            `${figure}: "${t.words}" inside the drawing`,
          );
        }
        assert.ok(drawn.svg.right <= size.width, `${figure}: the drawing ends at ${drawn.svg.right} px`);
        // The median's value in the drawing; every percentile and the mean in words under it.
        assert.match(shown.find((t) => t.className === 'value-label')?.words ?? '', /^median -?£[\d.]+[km]?$/);
        assert.match(
          drawn.values,
          /^\d+ companies\. The middle half: -?£[\d,]+ to £[\d,]+; median -?£[\d,]+; one in ten below -?£[\d,]+, one in ten above £[\d,]+; mean £[\d,]+\.$/,
        );
        const ticks = shown.filter((t) => t.className.startsWith('tick-label'));
        assert.ok(ticks.length >= 2, `${figure}: ${ticks.length} tick labels shown`);
        for (let i = 1; i < ticks.length; i++)
          assert.ok(
            ticks[i]!.box.left >= ticks[i - 1]!.box.right + 4,
            `${figure}: "${ticks[i - 1]!.words}" and "${ticks[i]!.words}" apart`,
          );
      }
      assert.deepEqual(await axeViolations(page), [], 'tables closed');
      // The table behind the toggle, with the keyboard alone.
      const summary = page.locator('section.figure[aria-labelledby="figure-net_assets"] details summary');
      await summary.focus();
      await page.keyboard.press('Enter');
      const table = page.locator('section.figure[aria-labelledby="figure-net_assets"] table.stats-table');
      await table.waitFor({ state: 'visible' });
      assert.deepEqual(await table.locator('tbody th').allTextContents(), [
        '10th percentile',
        '25th percentile',
        'Median',
        '75th percentile',
        '90th percentile',
        'Mean',
      ]);
      const tableBox = (await table.boundingBox())!;
      assert.ok(tableBox.x + tableBox.width <= size.width, `the table ends at ${tableBox.x + tableBox.width} px`);
      assert.deepEqual(await axeViolations(page), [], 'a table open');
      await context.close();
    });
});
