/**
 * In a real Chromium: sign in by pasting a key (keyboard only), add a company to the watchlist,
 * see its alert once a later register snapshot is loaded through the real loader, sign out. The
 * key is in no page and no cookie a script can read; axe finds nothing serious or critical on
 * the sign-in, Watchlist and Alerts pages; their screenshots go to docs/screenshots/ (with
 * UKCD_SCREENSHOTS=1).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { axeViolations, launchBrowser, openPage, screenshot } from './support/browser.ts';
import { loadWebFixtures, NOW, TESCO, webCompanies } from './support/web-fixtures.ts';

let world: World;
let browser: Browser;
before(async () => {
  world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
  await loadWebFixtures(world);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await world?.close();
});

test('sign in, watch a company, see its alert after a later snapshot, sign out', async () => {
  const key = await world.issueKey('free');
  const { page, problems } = await openPage(browser);
  const sources: string[] = [];
  page.on('response', async (response) => {
    if (response.status() === 404) problems.push(`404 ${response.url()}`);
    if (response.url().startsWith(world.url)) sources.push(await response.text().catch(() => ''));
  });

  await page.goto(`${world.url}/sign-in`);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'sign-in');
  // Keyboard only: the skip link, then Tab to the key field, type, Enter.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  let field = '';
  for (let i = 0; i < 10 && field !== 'api-key'; i++) {
    await page.keyboard.press('Tab');
    field = await page.evaluate(
      () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
    );
  }
  assert.equal(field, 'api-key', 'the key field is reachable by Tab');
  await page.keyboard.type(key);
  await Promise.all([page.waitForURL(`${world.url}/watchlist`), page.keyboard.press('Enter')]);
  assert.match(await page.locator('h1').innerText(), /Your watchlist/);
  assert.match(await page.locator('.site-account').innerText(), /Signed in with key ukcd_/);

  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'ukcd_session');
  assert.ok(session, 'a session cookie');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Strict');
  assert.ok(!cookies.some((c) => c.value.includes(key)), 'no cookie holds the key');
  assert.equal(
    await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
    '',
    'scripts see no cookie',
  );

  await page.fill('#add-numbers', TESCO);
  await Promise.all([page.waitForURL(/\/watchlist\?added=/), page.click('text=Add to watchlist')]);
  assert.match(await page.locator('table').innerText(), /TESCO PLC/);
  assert.match(await page.locator('[role=status]').innerText(), new RegExp(`Added: ${TESCO}`));
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'watchlist');

  await world.loadRegister(
    webCompanies.map((c) => (c.number === TESCO ? { ...c, status: 'Liquidation' } : c)),
    '2025-06-15',
  );
  await page.click('a[href="/alerts"] >> nth=0');
  await page.waitForURL(`${world.url}/alerts`);
  const alerts = await page.locator('table.alerts-table').innerText();
  assert.match(alerts, /TESCO PLC/);
  assert.match(alerts, /[Ll]iquidation/);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'alerts');

  await Promise.all([page.waitForURL(`${world.url}/`), page.click('text=Sign out')]);
  assert.match(await page.locator('.site-account').innerText(), /Sign in/);
  await page.goto(`${world.url}/watchlist`);
  assert.equal(new URL(page.url()).pathname, '/sign-in', 'signed out: the watchlist asks to sign in again');

  for (const source of sources) assert.ok(!source.includes(key), 'no page or script holds the key');
  assert.ok(sources.length >= 6);
  assert.deepEqual(problems, []);
});
