/**
 * The Search page in a real Chromium: typing "tesc" shows TESCO PLC first; the keyboard alone
 * reaches the box (after the skip link), chooses a suggestion and opens it; without JavaScript
 * the form submits and lists the same ranking; a misspelt name is offered as a near match; no page source or script holds an API key, signed
 * in or not; axe-core finds no serious or critical violation; no CSP violation or page error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page, Response } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWebWorld, stopWebWorld } from './support/web-world.ts';
import { axeViolations, openPage, screenshot } from './support/browser.ts';
import { HISTORY, TESCO } from './support/web-fixtures.ts';

/** What the focused element is: its tag, id and text, for asserting where Tab went. */
function focused(page: Page): Promise<{ tag: string; id: string; text: string }> {
  return page.evaluate(() => {
    const element = (
      globalThis as unknown as {
        document: { activeElement: { tagName: string; id: string; textContent: string | null } | null };
      }
    ).document.activeElement;
    return { tag: element?.tagName ?? '', id: element?.id ?? '', text: (element?.textContent ?? '').trim() };
  });
}

describe('the Search page in a browser', { timeout: 120_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => ({ world, browser } = await startWebWorld()));
  after(() => stopWebWorld({ world, browser }));

  test('keyboard only: skip link, the box, type "tesc", TESCO first, arrow down and Enter open it', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/`);
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(page), { tag: 'A', id: '', text: 'Skip to content' });
    await page.keyboard.press('Enter');
    assert.equal((await focused(page)).id, 'main');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'company-search');
    await page.keyboard.type('tesc', { delay: 30 });
    // The list for "tesc" itself, whatever the keystrokes' timing: an answer to "t", "te" or "tes"
    // may be drawn on the way (or never, when typing outpaces the pause), and is not this one.
    await page.locator('#search-suggestions[data-query="tesc"]:not([hidden])').waitFor();
    const first = page.locator('#search-suggestions [role="option"]').first();
    assert.match((await first.textContent()) ?? '', /^TESCO PLC00445790/);
    const names = await page.locator('#search-suggestions .suggestion-name').allTextContents();
    assert.equal(names[0], 'TESCO PLC');
    // The operation's ranking: the exact word first, then names starting with it, then containing it.
    assert.deepEqual(names, [
      'TESCO PLC',
      'TESCO STORES LIMITED',
      'TESCOMBE & <SONS> "QUOTED" LTD',
      'BEST TESCO SUPPLIES LTD',
    ]);
    assert.equal(await page.locator('#company-search').getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'search');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#company-search').getAttribute('aria-activedescendant'), 'suggestion-0');
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    await Promise.all([page.waitForURL(`${world.url}/company/${TESCO}`), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('h1').textContent(), 'TESCO PLC');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a misspelt name ("tesoc") offers the company as a near match, its close word marked; the page too', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/`);
    await page.locator('#company-search').pressSequentially('tesoc', { delay: 30 });
    await page.locator('#search-suggestions[data-query="tesoc"]:not([hidden])').waitFor();
    const names = await page.locator('#search-suggestions .suggestion-name').allTextContents();
    assert.deepEqual(names, ['TESCO PLC', 'TESCO STORES LIMITED', 'BEST TESCO SUPPLIES LTD']);
    assert.deepEqual(await page.locator('#search-suggestions li').first().locator('mark').allTextContents(), ['TESCO']);
    assert.match(
      (await page.locator('#search-suggestions .suggestion-facts').first().textContent()) ?? '',
      /near match$/,
    );
    assert.match(
      (await page.locator('#search-status').textContent()) ?? '',
      /3 near matches \(a letter or two different\)/,
    );
    assert.deepEqual(await axeViolations(page), []);
    await Promise.all([page.waitForURL(`${world.url}/company/${TESCO}`), page.locator('#suggestion-0').click()]);
    await page.goto(`${world.url}/search?name=tesoc`);
    assert.equal(await page.locator('#results-heading').textContent(), 'Did you mean one of these?');
    assert.deepEqual(await page.locator('ol.near-matches > li > a').allTextContents(), [
      'TESCO PLC',
      'TESCO STORES LIMITED',
      'BEST TESCO SUPPLIES LTD',
    ]);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('without JavaScript the form submits and lists search_by_name’s ranking', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${world.url}/`);
    await page.locator('#company-search').fill('tesc');
    await Promise.all([page.waitForURL(/\/search\?name=tesc$/), page.keyboard.press('Enter')]);
    const results = await page.locator('ol.results > li > a').allTextContents();
    assert.equal(results[0], 'TESCO PLC');
    assert.match(
      (await page.locator('ol.results > li').first().textContent()) ?? '',
      /00445790 · Active · WELWYN GARDEN CITY/,
    );
    await context.close();
    // axe runs scripts in the page, so it checks the same results page with JavaScript on.
    const { page: withScripts, problems } = await openPage(browser);
    await withScripts.goto(`${world.url}/search?name=tesc`);
    assert.deepEqual(await axeViolations(withScripts), []);
    await screenshot(withScripts, 'search-results');
    assert.deepEqual(problems, []);
    await withScripts.context().close();
  });

  test('no page source and no script holds an API key, signed in or not', async () => {
    const key = await world.issueKey('pro');
    const { page, problems } = await openPage(browser);
    const sources: { url: string; body: string }[] = [];
    page.on('response', (response: Response) => {
      const type = response.request().resourceType();
      if (type === 'document' || type === 'script' || type === 'fetch' || type === 'xhr')
        void response.text().then(
          (body) => sources.push({ url: response.url(), body }),
          () => {},
        );
    });
    const visit = async () => {
      for (const path of [
        '/',
        `/company/${HISTORY}`,
        `/search?name=tesco`,
        `/compare?company_a=${HISTORY}&company_b=${TESCO}`,
      ]) {
        await page.goto(`${world.url}${path}`);
        await page.waitForLoadState('networkidle');
      }
      await page
        .locator('#company-search')
        .first()
        .waitFor()
        .catch(() => {});
    };
    await visit();
    await page.goto(`${world.url}/sign-in`);
    await page.locator('#api-key').fill(key);
    await Promise.all([page.waitForNavigation(), page.locator('#api-key').press('Enter')]);
    assert.match((await page.locator('.site-account').textContent()) ?? '', new RegExp(key.slice(0, 13)));
    await page.goto(`${world.url}/`);
    await page.locator('#company-search').pressSequentially('tes', { delay: 30 });
    await page.locator('#search-suggestions[data-query="tes"] [role="option"]').first().waitFor({ state: 'visible' });
    await visit();
    await page.waitForTimeout(200);
    assert.ok(
      sources.some((s) => s.url.endsWith('/assets/search.js')),
      'the search script was fetched',
    );
    assert.ok(
      sources.some((s) => s.url.includes('/search/suggest')),
      'suggestions were fetched',
    );
    assert.ok(sources.length >= 10, `${sources.length} sources`);
    for (const { url, body } of sources) {
      assert.ok(!body.includes(key), `${url} holds the key`);
      assert.doesNotMatch(body, /ukcd_[A-Za-z0-9_-]{20,}/, `${url} holds something like a key`);
    }
    const cookies = await page.context().cookies();
    assert.ok(
      cookies.every((c) => !c.value.includes(key)),
      'no cookie holds the key',
    );
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
