/**
 * The lead list and market pages in a real Chromium: a person builds a lead list with the form
 * (keyboard and mouse as a person would), sees the table, downloads the CSV, and its rows are the
 * API's matches for the same filter; a bad value gives the 400 page with the field marked; the
 * market page draws a chart per figure. axe-core finds no serious or critical violation on any of
 * them, and each page's screenshot goes to docs/screenshots/
 * (with UKCD_SCREENSHOTS=1).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { FilingFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { moreCompanies } from '../support/batch-fixtures.ts';
import { testStores } from '../support/databases.ts';
import { axeViolations, launchBrowser, openPage, screenshot } from './support/browser.ts';

const cashRich: FilingFixture[] = moreCompanies.slice(0, 70).map((c, i) => ({
  number: c.number,
  name: c.name,
  balanceSheetDate: '2024-12-31',
  current: { netAssets: 1_000_000 + (i % 9) * 1000, cash: 600_000 + (i % 5) * 1000, currentAssets: 700_000 },
}));

/** Every company number the API matches for `query`, in its order, paged through `next`. */
async function apiNumbers(world: World, key: string, path: string, query: string): Promise<string[]> {
  const numbers: string[] = [];
  let cursor: string | null = null;
  do {
    const answer = await call(
      world,
      `${path}?${query}&format=json&limit=50${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      { key },
    );
    assert.equal(answer.status, 200);
    numbers.push(...(answer.body.results as { company_number: string }[]).map((r) => r.company_number));
    cursor = answer.body.next as string | null;
  } while (cursor !== null);
  return numbers;
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(
    violations.map((v) => `${v.impact}: ${v.id} (${v.nodes.length})`),
    [],
    `${what}: no serious or critical axe violation`,
  );
}

describe('lead lists and market in Chromium', () => {
  let world: World;
  let key: string;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
    await world.loadRegister(moreCompanies, '2025-01-01');
    await world.loadAccounts(cashRich, '2025-06-10');
    key = await world.issueKey('pro');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  test('build a trigger lead list with the form, then download its CSV: the API’s matches', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/leads/triggers`);
    await assertAccessible(page, 'the empty triggers form');
    await page.getByLabel('Trigger').selectOption('cash_rich');
    await page.getByLabel('Town of the registered office').fill('Leeds');
    await page.getByLabel('Net assets at least (£)').fill('1000');
    await page.getByRole('button', { name: 'Show companies' }).click();
    await page.waitForURL(/\/leads\/triggers\?/);
    const want = await apiNumbers(world, key, '/v1/triggers', 'trigger=cash_rich&post_town=Leeds&min_net_assets=1000');
    assert.ok(want.length > 50, `more than a page of the API: ${want.length}`);
    await page.getByRole('heading', { name: `${want.length} companies match` }).waitFor();
    const shown = await page.locator('.results-table tbody th a').allTextContents();
    assert.equal(shown.length, 20, 'the first page of 20');
    await screenshot(page, 'lead-list');
    await assertAccessible(page, 'the lead list with results');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^leads-cash-rich-post-town-leeds-min-net-assets-1000-2025-06-15\.csv$/);
    const records = parse(readFileSync((await download.path())!), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    assert.deepEqual(
      records.map((r) => r.company_number!.replace(/^="|"$/g, '')),
      want,
    );
    assert.ok(records.every((r) => r.reason !== '' && r['metrics.cash'] !== ''));

    await page.getByRole('link', { name: 'Next page' }).click();
    await page.locator('caption', { hasText: 'Rows 21 to 40' }).waitFor();
    assert.deepEqual(problems, [], 'no CSP violation, no console error');
    await page.context().close();
  });

  test('a bad value: the 400 page names the field and marks it', async () => {
    const { page, problems } = await openPage(browser);
    const response = await page.goto(`${world.url}/leads?min_turnover=500&max_turnover=100`);
    assert.equal(response?.status(), 400);
    await page.getByRole('alert').getByText('Invalid "min_turnover": is greater than max_turnover.').waitFor();
    assert.equal(await page.getByLabel('Turnover at least (£)').getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'lead-list-error');
    await assertAccessible(page, 'the 400 page');
    // The browser reports the 400 itself as a console error; nothing else may be there.
    assert.deepEqual(
      problems.filter((p) => !/status of 400/.test(p)),
      [],
    );
    await page.context().close();
  });

  test('the market page draws a distribution chart per figure filed', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/market`);
    await page.getByLabel('Town of the registered office').fill('LEEDS');
    await page.getByLabel('Town of the registered office').press('Enter');
    await page.waitForURL(/\/market\?/);
    const charts = await page.locator('svg.distribution-chart').count();
    assert.ok(charts >= 2, `charts: ${charts}`);
    await page.getByRole('img', { name: 'Net assets: distribution of the latest filed figures' }).waitFor();
    await screenshot(page, 'market');
    await assertAccessible(page, 'the market page');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
