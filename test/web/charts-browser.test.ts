/**
 * The Company page's charts in a real Chromium at desktop (1366 px) and phone widths (390 and
 * 360 px): the page no wider than the screen; every piece of the charts' text drawn at 12 px or
 * more (its computed size times the drawing's scale on screen); each point's value on the page as
 * a label inside the drawing, none overlapping another, with no hover; the growth sentence above
 * each chart; the table under it opened with the keyboard alone; axe-core finds no serious or
 * critical violation, the tables open or closed. And the widest labels the most points labelled
 * can carry stay apart in a 360 px phone's column.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWebWorld, stopWebWorld } from './support/web-world.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { figureChart } from '../../src/web/figure-chart.ts';
import { formatDate, formatPounds } from '../../src/web/format.ts';
import { axeViolations } from './support/browser.ts';
import { HISTORY } from './support/web-fixtures.ts';

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'narrow phone', width: 360, height: 740 },
] as const;

/** What each chart's point labels say, oldest first (the fixture's four years). */
const LABELS = {
  net_assets: ['£100k', '£120k', '£150k', '£210k'],
  cash: ['£35k', '£40k', '£52k', '£95k'],
  turnover: ['£800k', '£900k', '£1.1m', '£1.4m'],
  profit: ['-£5k', '£15k', '£30k', '£60k'],
  employees: ['10', '12', '16', '21'],
} as const;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** One chart as drawn: its text (size on screen, words, box), the drawing's box, the growth sentence. */
interface Drawn {
  svg: Box;
  texts: { className: string; words: string; px: number; box: Box }[];
  growth: { words: string; px: number };
  summaryPx: number;
}

describe('the Company page charts at phone and desktop widths', { timeout: 180_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => ({ world, browser } = await startWebWorld()));
  after(() => stopWebWorld({ world, browser }));

  for (const size of WIDTHS)
    test(`${size.name} (${size.width} px): readable text, values shown, no overflow, axe clean`, async () => {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        locale: 'en-GB',
      });
      const page = await context.newPage();
      await page.goto(`${world.url}/company/${HISTORY}`);
      const width = await page.evaluate(() => {
        const doc = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
        ).document.documentElement;
        return { scroll: doc.scrollWidth, client: doc.clientWidth };
      });
      assert.ok(width.scroll <= width.client, `${width.scroll} px wide in a ${width.client} px screen`);

      for (const [figure, labels] of Object.entries(LABELS)) {
        const drawn: Drawn = await page.locator(`figure.chart[data-figure="${figure}"]`).evaluate((chart) => {
          interface El {
            getBoundingClientRect(): Box;
            querySelector(selector: string): El | null;
            querySelectorAll(selector: string): Iterable<El>;
            getAttribute(name: string): string | null;
            textContent: string | null;
            getScreenCTM(): { a: number; d: number } | null;
          }
          const view = globalThis as unknown as { getComputedStyle(el: El): { fontSize: string } };
          const root = chart as unknown as El;
          const svg = root.querySelector('svg')!;
          // (No named function in here: the test's compiler would wrap it in a helper the page lacks.)
          // An SVG's computed font size is in its own units: on screen it is that times the drawing's scale.
          const scale = Math.min(svg.getScreenCTM()!.a, svg.getScreenCTM()!.d);
          const growth = root.querySelector('.chart-growth');
          const summary = root.querySelector('details summary');
          return {
            svg: JSON.parse(JSON.stringify(svg.getBoundingClientRect())) as Box,
            texts: [...svg.querySelectorAll('text')].map((t) => ({
              className: t.getAttribute('class') ?? '',
              words: t.textContent ?? '',
              px: parseFloat(view.getComputedStyle(t).fontSize) * scale,
              box: JSON.parse(JSON.stringify(t.getBoundingClientRect())) as Box,
            })),
            growth: {
              words: growth?.textContent ?? '',
              px: growth ? parseFloat(view.getComputedStyle(growth).fontSize) : 0,
            },
            summaryPx: summary ? parseFloat(view.getComputedStyle(summary).fontSize) : 0,
          };
        });
        for (const t of drawn.texts) assert.ok(t.px >= 12, `${figure}: "${t.words}" drawn at ${t.px.toFixed(1)} px`);
        assert.ok(drawn.growth.px >= 12 && drawn.summaryPx >= 12, `${figure}: growth and table toggle ≥ 12 px`);
        assert.ok(drawn.svg.right <= size.width, `${figure}: the drawing ends at ${drawn.svg.right} px`);
        // The values are on the page as labels, inside the drawing, each clear of every other text.
        const values = drawn.texts.filter((t) => t.className === 'value-label');
        assert.deepEqual(
          values.map((t) => t.words),
          [...labels],
          figure,
        );
        assert.deepEqual(
          drawn.texts.filter((t) => t.className === 'axis-label' && !/^\d{4}$/.test(t.words)).map((t) => t.words),
          [figure === 'employees' ? '0' : '£0'],
          `${figure}: one y-axis label`,
        );
        for (const [i, t] of drawn.texts.entries()) {
          const inside =
            t.box.left >= drawn.svg.left &&
            t.box.right <= drawn.svg.right &&
            t.box.top >= drawn.svg.top &&
            t.box.bottom <= drawn.svg.bottom;
          assert.ok(inside, `${figure}: "${t.words}" inside the drawing`);
          for (const other of drawn.texts.slice(i + 1)) {
            const apart =
              t.box.right <= other.box.left ||
              other.box.right <= t.box.left ||
              t.box.bottom <= other.box.top ||
              other.box.bottom <= t.box.top;
            assert.ok(apart, `${figure}: "${t.words}" overlaps "${other.words}"`);
          }
        }
        assert.match(drawn.growth.words, /^Latest .+ \(31 March 2024\): (up|down) .+ from .+ \(31 March 2023\)\.$/);
      }
      assert.deepEqual(await axeViolations(page), []);

      // The table under a chart opens from the keyboard (no pointer, no script) and holds every year.
      const summary = page.locator('figure.chart[data-figure="profit"] details summary');
      await summary.focus();
      await page.keyboard.press('Enter');
      const table = page.locator('figure.chart[data-figure="profit"] details table');
      assert.ok(await table.isVisible(), 'the profit table opens');
      assert.deepEqual(await table.locator('tbody tr td').allTextContents(), [
        '-£5,000',
        '—',
        '£15,000',
        'up £20,000',
        '£30,000',
        'up £15,000 (100%)',
        '£60,000',
        'up £30,000 (100%)',
      ]);
      const opened = await page.evaluate(() => {
        const doc = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
        ).document.documentElement;
        return doc.scrollWidth - doc.clientWidth;
      });
      assert.ok(opened <= 0, `the opened table: ${opened} px past the screen`);
      assert.deepEqual(await axeViolations(page), []);
      await context.close();
    });

  test('five points with the longest labels, level with each other, stay apart at 360 px', async () => {
    const css = readFileSync(join(import.meta.dirname, '..', '..', 'src', 'web', 'assets', 'site.css'), 'utf8');
    const points = [2020, 2021, 2022, 2023, 2024].map((year, i) => ({
      date: `${year}-03-31`,
      value: -21_500_000 + i * 100_000,
      prior: false,
    }));
    const chart = figureChart({
      figure: 'net_assets',
      label: 'Net assets',
      points,
      format: formatMoney,
      formatExact: formatPounds,
      formatDate,
    }).text;
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.setContent(`<!doctype html><html lang="en"><head><title>Chart</title><style>${css}</style></head>
<body><main><div class="charts">${chart}</div></main></body></html>`);
    const boxes = await page.locator('svg text').evaluateAll((texts) =>
      texts.map((t) => ({
        words: (t as unknown as { textContent: string }).textContent,
        box: JSON.parse(
          JSON.stringify((t as unknown as { getBoundingClientRect(): unknown }).getBoundingClientRect()),
        ) as Box,
      })),
    );
    assert.deepEqual(
      boxes.filter((b) => b.words.startsWith('-')).map((b) => b.words),
      ['-£21.5m', '-£21.4m', '-£21.3m', '-£21.2m', '-£21.1m'],
    );
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        assert.ok(
          a.box.right <= b.box.left ||
            b.box.right <= a.box.left ||
            a.box.bottom <= b.box.top ||
            b.box.bottom <= a.box.top,
          `"${a.words}" overlaps "${b.words}"`,
        );
    await context.close();
  });
});
