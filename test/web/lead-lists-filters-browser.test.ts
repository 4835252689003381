/**
 * The lead list page in a real Chromium at desktop (1366×900) and phone (390×844) widths: a
 * search lands on its results (focus moved there, above the form), labels are words with the API
 * name apart, the industry is picked by a word of its name and shown by name, the growth filter
 * finds only companies whose turnover rose and shows the growth, the live count follows the form
 * (and the page says the count without JavaScript), and column headings sort. axe finds no serious
 * or critical violation at either width.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { call, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { GROWTH, loadGrowthFixtures } from '../support/growth-fixtures.ts';
import { axeViolations, launchBrowser, screenshot } from './support/browser.ts';

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

/** A page in a fresh context of the size, recording console errors and page errors. */
async function open(browser: Browser, viewport: { width: number; height: number }, javaScriptEnabled = true) {
  const context = await browser.newContext({ viewport, locale: 'en-GB', javaScriptEnabled });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, problems };
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(
    violations.map((v) => `${v.impact}: ${v.id} (${v.nodes.join(' ')})`),
    [],
    `${what}: no serious or critical axe violation`,
  );
}

describe('lead list filters in Chromium', () => {
  let world: World;
  let key: string;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadGrowthFixtures(world);
    key = await world.issueKey('pro');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  for (const { name, viewport } of WIDTHS)
    test(`${name}: "turnover growing" lands on its results, with focus, the growth and industry names`, async () => {
      const { page, problems } = await open(browser, viewport);
      await page.goto(`${world.url}/leads`);
      // Labels in words; the API's name only in the details line.
      const town = page.getByLabel('Town of the registered office');
      await town.fill('York');
      await page.getByLabel('Turnover on the period before').selectOption('growing');
      assert.equal(
        await page.locator('#f-post_town ~ .api-name, .field:has(#f-post_town) .api-name').first().textContent(),
        'API: post_town',
      );
      await page.getByRole('button', { name: 'Show companies' }).click();
      await page.waitForURL(/turnover_trend=growing.*#results$/);
      await page.getByRole('heading', { name: '1 company matches' }).waitFor();
      // Focus is on the results, which are on screen and come before the form.
      await page.locator('#results:focus').waitFor();
      const top = await page.locator('#results').evaluate((element) => element.getBoundingClientRect().top);
      assert.ok(top >= -1 && top < viewport.height / 2, `the results start on screen: ${top}`);
      assert.ok(
        await page.evaluate(
          "(document.getElementById('results').compareDocumentPosition(document.getElementById('filters')) & 4) !== 0",
        ),
        'the results come before the form',
      );
      const rows = page.locator('.results-table tbody tr');
      assert.equal(await rows.count(), 1);
      assert.match((await rows.first().textContent()) ?? '', new RegExp(GROWTH.rising.name));
      assert.equal(
        (await rows.first().locator('td.industry').textContent())?.trim(),
        '62020 Information technology consultancy activities',
      );
      await page.getByRole('columnheader', { name: 'Turnover growth' }).waitFor();
      assert.match((await rows.first().textContent()) ?? '', /\+30%\s*\(£1,000,000 to £1,300,000\)/);
      // No sideways scrolling of the page itself (the table scrolls in its own region).
      assert.ok(
        await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'),
        'no sideways scroll',
      );
      await screenshot(page, `lead-list-growth-${name}`);
      await assertAccessible(page, `the results at ${name} width`);
      assert.deepEqual(problems, []);
      await page.context().close();
    });

  test('the live count follows the form; without JavaScript the page says the count', async () => {
    const { page, problems } = await open(browser, WIDTHS[0]!.viewport);
    await page.goto(`${world.url}/leads?post_town=YORK#results`);
    await page.getByRole('heading', { name: '4 companies match' }).waitFor();
    const live = page.locator('#live-count');
    assert.equal((await live.textContent())?.trim(), '4 companies match');
    await page.getByLabel('Turnover on the period before').selectOption('declining');
    await page.locator('#live-count', { hasText: /^\s*1 company matches\s*$/ }).waitFor();
    await page.getByLabel('Turnover growth at least (%)').fill('-100');
    await page.getByLabel('Turnover on the period before').selectOption('');
    await page.locator('#live-count', { hasText: /^\s*3 companies match\s*$/ }).waitFor();
    assert.equal(await live.getAttribute('aria-live'), 'polite');
    assert.deepEqual(problems, []);
    await page.context().close();

    const plain = await open(browser, WIDTHS[0]!.viewport, false);
    await plain.page.goto(`${world.url}/leads`);
    await plain.page.getByLabel('Town of the registered office').fill('York');
    await plain.page.getByLabel('Turnover on the period before').selectOption('stable');
    await plain.page.getByRole('button', { name: 'Show companies' }).click();
    await plain.page.getByRole('heading', { name: '1 company matches' }).waitFor();
    assert.equal((await plain.page.locator('#live-count').textContent())?.trim(), '1 company matches');
    await plain.page.context().close();
  });

  test('the industry is picked by a word of its name: one match is used, several are offered', async () => {
    const { page, problems } = await open(browser, WIDTHS[0]!.viewport);
    await page.goto(`${world.url}/leads`);
    assert.equal(
      (await page.locator('#industry-names option[value="62020"]').textContent())?.trim(),
      '62020 Information technology consultancy activities',
    );
    assert.equal(await page.getByLabel('Industry').getAttribute('list'), 'industry-names');
    await page.getByLabel('Industry').fill('consultancy');
    await page.getByRole('button', { name: 'Show companies' }).click();
    await page.getByRole('heading', { name: 'Industries matching “consultancy”' }).waitFor();
    await assertAccessible(page, 'the industries to choose from');
    await page.getByRole('link', { name: '62020 Information technology consultancy activities' }).click();
    await page.waitForURL(/sic=62020/);
    await page.getByRole('heading', { name: '4 companies match' }).waitFor();
    await page.getByText('Industry: 62020 Information technology consultancy activities').waitFor();

    await page.goto(`${world.url}/leads`);
    await page.getByLabel('Industry').fill('information technology consult');
    await page.getByRole('button', { name: 'Show companies' }).click();
    await page.waitForURL(/#results$/);
    await page.getByRole('heading', { name: '4 companies match' }).waitFor();
    assert.equal(await page.getByLabel('Industry').inputValue(), '62020');
    assert.deepEqual(
      problems.filter((p) => !/status of 400/.test(p)),
      [],
    );
    await page.context().close();
  });

  test('a column heading sorts by it, descending then ascending, as the API orders', async () => {
    const { page, problems } = await open(browser, WIDTHS[0]!.viewport);
    await page.goto(`${world.url}/leads?post_town=YORK`);
    const names = () => page.locator('.results-table tbody th a').allTextContents();
    const apiNames = async (sort: string) =>
      (await call(world, `/v1/search?post_town=YORK&sort=${sort}&format=json`, { key })).body.results.map(
        (r: { name: string }) => r.name,
      );
    await page.getByRole('columnheader', { name: /^Cash/ }).getByRole('link').click();
    await page.waitForURL(/sort=-cash/);
    assert.equal(await page.getByRole('columnheader', { name: /^Cash/ }).getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await names(), await apiNames('-cash'));
    await page.getByRole('columnheader', { name: /^Cash/ }).getByRole('link').click();
    await page.waitForURL(/sort=cash/);
    assert.equal(await page.getByRole('columnheader', { name: /^Cash/ }).getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(await names(), await apiNames('cash'));
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
