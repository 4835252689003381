/**
 * The Company page in a real Chromium: each figure's chart has one point per filed year with the
 * right value (prior-year-only years hollow), the table the same numbers; the keyboard alone goes
 * from the page to a comparison; no script is needed (JavaScript on the page ≤ 60 KB compressed:
 * none); axe-core finds no serious or critical violation; no CSP violation or page error.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWebWorld, stopWebWorld } from './support/web-world.ts';
import { axeViolations, openPage, screenshot } from './support/browser.ts';
import { HISTORY, HISTORY_YEARS, TESCO } from './support/web-fixtures.ts';

const FIGURES = ['net_assets', 'cash', 'turnover', 'profit', 'employees'] as const;

describe('the Company page in a browser', { timeout: 120_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => ({ world, browser } = await startWebWorld()));
  after(() => stopWebWorld({ world, browser }));

  test('one chart point per filed year with the right values; the table agrees; axe and CSP clean', async () => {
    const { page, problems } = await openPage(browser);
    const loadedScripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') loadedScripts.push(response.url());
    });
    await page.goto(`${world.url}/company/${HISTORY}`);
    for (const figure of FIGURES) {
      const points = page.locator(`figure[data-figure="${figure}"] circle.point`);
      assert.equal(await points.count(), HISTORY_YEARS.length, figure);
      for (const [i, year] of HISTORY_YEARS.entries()) {
        const point = points.nth(i);
        assert.equal(await point.getAttribute('data-date'), year.date);
        assert.equal(Number(await point.getAttribute('data-value')), year[figure]);
        assert.equal(
          ((await point.getAttribute('class')) ?? '').includes('prior'),
          year.prior,
          `${figure} ${year.date}`,
        );
        assert.match(
          (await point.locator('title').textContent()) ?? '',
          new RegExp(`^\\d+ March ${year.date.slice(0, 4)}: `),
        );
      }
    }
    // The rendered points sit left to right in date order, inside the drawing.
    const xs = await page
      .locator('figure[data-figure="net_assets"] circle.point')
      .evaluateAll((circles) =>
        circles.map((c) => parseFloat((c as unknown as { getAttribute(n: string): string }).getAttribute('cx'))),
      );
    // (cx is a percentage of the chart's width: "12%".)
    assert.ok(
      xs.every((x) => Number.isFinite(x)),
      `cx: ${xs.join(', ')}`,
    );
    assert.deepEqual(
      [...xs].sort((a, b) => a - b),
      xs,
    );
    const rows = await page
      .locator('table.figures-table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => (tr as unknown as { getAttribute(n: string): string }).getAttribute('data-date')),
      );
    assert.deepEqual(
      rows,
      HISTORY_YEARS.map((y) => y.date),
    );
    assert.deepEqual(await page.locator('table.figures-table tbody tr[data-date="2023-03-31"] td').allTextContents(), [
      '£150,000',
      '£52,000',
      '£1,100,000',
      '£30,000',
      '16',
      'Prior-year column of a later filing',
    ]);
    // Each year's source filing is listed by name, in the order of the table.
    assert.deepEqual(
      await page
        .locator('ul.source-filings li')
        .evaluateAll((items) =>
          items.map((li) => (li as unknown as { getAttribute(n: string): string }).getAttribute('data-date')),
        ),
      HISTORY_YEARS.map((y) => y.date),
    );
    // JavaScript on the page ≤ 60 KB compressed: every script the page names or loaded, fetched
    // again and gzipped (none today; an inline one would escape the count, so there must be none).
    const named = await page
      .locator('script')
      .evaluateAll((elements) => elements.map((e) => (e as unknown as { src: string }).src || 'inline'));
    assert.ok(!named.includes('inline'), 'no inline script');
    let compressed = 0;
    for (const url of new Set([...named, ...loadedScripts])) {
      const answer = await fetch(url);
      assert.equal(answer.status, 200, url);
      compressed += gzipSync(Buffer.from(await answer.arrayBuffer())).length;
    }
    assert.ok(compressed <= 60 * 1024, `${compressed} bytes of script, compressed`);
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'company');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('keyboard only: from the company page to a comparison', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/company/${HISTORY}`);
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement
            ?.id === 'compare-with',
      );
    }
    assert.ok(reached, 'Tab reaches the compare box');
    await page.keyboard.type(TESCO);
    await Promise.all([
      page.waitForURL(/\/compare\?company_a=01234567&company_b=00445790$/),
      page.keyboard.press('Enter'),
    ]);
    assert.equal(await page.locator('h1').textContent(), 'Compare two companies');
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'compare');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
