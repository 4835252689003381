/**
 * Watching and alerts in a real Chromium, at desktop and phone widths: the company page's watch
 * button adds the company (a form post with the session's CSRF token); the Alerts page shows where
 * each watched company stands from the first day (accounts overdue, risk band), and its heading
 * the period asked for; the watchlist lists companies in the order added; over the plan's limit
 * the first that fit are added and the page names the others and says why. axe-core finds nothing
 * serious on these pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { axeViolations, launchBrowser, screenshot } from './support/browser.ts';
import { HISTORY, loadWebFixtures, NOW, TESCO, webCompanies } from './support/web-fixtures.ts';

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe('watching and alerts in a browser', { timeout: 240_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
    // TESCO's accounts were due on 31 January 2025 and none are on file: overdue on NOW (15 June).
    await world.loadRegister(
      webCompanies.map((c) => (c.number === TESCO ? { ...c, nextDue: '2025-01-31', lastMadeUp: '2023-04-30' } : c)),
      '2025-03-01',
    );
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  for (const size of WIDTHS) {
    test(`${size.name}: watch from the company page; where they stand from day one; order; the limit`, async () => {
      const key = await world.issueKey('free');
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        locale: 'en-GB',
      });
      const page = await context.newPage();

      // Anonymous: the company page offers to sign in to watch.
      await page.goto(`${world.url}/company/${TESCO}`);
      assert.match(await page.locator('section[aria-labelledby="watch-heading"]').innerText(), /Sign in/);

      await page.goto(`${world.url}/sign-in`);
      await page.fill('#api-key', key);
      await Promise.all([page.waitForURL(`${world.url}/watchlist`), page.press('#api-key', 'Enter')]);

      await page.goto(`${world.url}/company/${TESCO}`);
      const watch = page.locator('section[aria-labelledby="watch-heading"] button', { hasText: 'Add to watchlist' });
      await Promise.all([page.waitForURL(/\/watchlist\?added=/), watch.click()]);
      assert.match(await page.locator('[role=status]').innerText(), new RegExp(`Added: ${TESCO}`));

      // Day one: no change yet, but where it stands is shown.
      await page.goto(`${world.url}/alerts`);
      const row = page.locator(`.standing-table tr[data-company="${TESCO}"]`);
      assert.match(await row.innerText(), /Overdue/);
      assert.match(await row.locator('.band').innerText(), /^(Low|Medium|High|Unknown)$/);
      assert.match(await page.locator('#changes-heading').innerText(), /Changes since 16 May 2025/);
      assert.deepEqual(await axeViolations(page), []);
      await screenshot(page, `alerts-day-one-${size.name}`);

      // The period asked for is the one the heading names.
      await page.fill('#alerts-since', '2020-01-01');
      await Promise.all([page.waitForURL(/since=2020-01-01/), page.click('text=Show')]);
      assert.match(await page.locator('#changes-heading').innerText(), /Changes since 1 January 2020/);
      assert.match(await page.locator('main').innerText(), /No changes since 1 January 2020/);

      // Free plan, 5 companies: 1 watched, 5 new asked for; the first 4 fit, the last is named.
      await page.goto(`${world.url}/watchlist`);
      await page.fill('#add-numbers', `09000003, ${TESCO} 09000001 ${HISTORY} 09000002 09000004`);
      await Promise.all([page.waitForURL(/\/watchlist\?/), page.click('form[action="/watchlist/add"] button')]);
      const notes = await page.locator('[role=status]').innerText();
      assert.match(notes, /Added: 09000003, 09000001, 01234567, 09000002/);
      assert.match(notes, /Already on your watchlist: 00445790/);
      assert.match(
        notes,
        /Not added: the watchlist is full \(the free plan’s watchlist holds 5 companies.*\): 09000004/,
      );
      const order = await page
        .locator('table tbody tr td:nth-child(2)')
        .evaluateAll((cells) => cells.map((cell) => (cell as unknown as { textContent: string }).textContent.trim()));
      assert.deepEqual(order, [TESCO, '09000003', '09000001', HISTORY, '09000002'], 'in the order added');
      assert.deepEqual(await axeViolations(page), []);
      await context.close();
    });
  }
});
