/**
 * The site in a real Chromium, for the findings of a person using it: a free key got from the web
 * form, then 200 pages browsed with it and no 429 (pages are limited per minute, never charged to
 * the monthly quota); suggestions that never draw an older answer over the newer one (the page's
 * timers held by Playwright's clock, the older answer released only after the newer keystroke);
 * the start of each matching word marked; the loading, rate-limited, offline and error states said
 * in words; Back after picking a suggestion restores the query; the header's search box opening a
 * company by its number; /docs asking nothing of another site. axe on each changed page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { usageMonth } from '../../src/domain/api-keys.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { startWebWorld, stopWebWorld } from './support/web-world.ts';
import { axeViolations, launchBrowser, openPage, screenshot } from './support/browser.ts';
import { HISTORY, loadWebFixtures, NOW, TESCO } from './support/web-fixtures.ts';

/** Every list of suggestions drawn, with what the box held at that moment (a MutationObserver in the page). */
const RECORD_DRAWS = `(() => {
  const draws = [];
  globalThis.__draws = draws;
  document.addEventListener('DOMContentLoaded', () => {
    const list = document.getElementById('search-suggestions');
    const input = document.getElementById('company-search');
    if (!list || !input) return;
    new MutationObserver(() => {
      const names = [...list.querySelectorAll('.suggestion-name')].map((n) => n.textContent);
      if (names.length > 0) draws.push({ value: input.value.trim(), names });
    }).observe(list, { childList: true });
  });
})();`;

type Draw = { value: string; names: string[] };

function draws(page: Page): Promise<Draw[]> {
  return page.evaluate(() => (globalThis as unknown as { __draws: Draw[] }).__draws);
}

function statusOf(page: Page): Promise<{ state: string | null; text: string }> {
  return page.evaluate(() => {
    const status = (
      globalThis as unknown as {
        document: { getElementById(id: string): { getAttribute(n: string): string | null; textContent: string } };
      }
    ).document.getElementById('search-status');
    return { state: status.getAttribute('data-state'), text: status.textContent };
  });
}

describe('the site in a browser', { timeout: 240_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => ({ world, browser } = await startWebWorld()));
  after(() => stopWebWorld({ world, browser }));

  test('a free key from the web form, then 200 pages with it and no 429; the quota untouched', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/sign-in`);
    await Promise.all([
      page.waitForURL(`${world.url}/get-key`),
      page.getByRole('link', { name: 'Get a free key' }).click(),
    ]);
    assert.deepEqual(await axeViolations(page), []);
    await page.locator('#free-key-email').fill('reader@example.com');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${world.url}/get-key` && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Get a free key' }).click(),
    ]);
    assert.equal(answer.status(), 201);
    const key = ((await page.locator('#new-key').textContent()) ?? '').trim();
    assert.match(key, /^ukcd_[A-Za-z0-9]{32}$/);
    assert.match((await page.locator('.site-account').textContent()) ?? '', new RegExp(key.slice(0, 13)));
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'free-key');
    const [record] = await world.keys.listKeys(usageMonth(NOW), key.slice(0, 13));
    assert.equal(record?.plan, 'free');
    assert.equal(record?.email, 'reader@example.com');

    const paths = [
      '/',
      '/search?name=tesc',
      `/company/${TESCO}`,
      `/company/${HISTORY}`,
      `/compare?company_a=${TESCO}&company_b=${HISTORY}`,
      '/watchlist',
      '/alerts',
      '/search?name=harbour',
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 200; i++) {
      const response = await page.goto(`${world.url}${paths[i % paths.length]!}`);
      const status = response?.status() ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    assert.deepEqual([...statuses], [[200, 200]], 'every one of the 200 pages answered 200');
    const [after] = await world.keys.listKeys(usageMonth(NOW), key.slice(0, 13));
    assert.equal(after?.used, 0, 'no page was charged to the 50 requests of the free plan');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('only the newest answer is drawn: "tes" answered after "c" was typed is dropped', async () => {
    const { page, problems } = await openPage(browser);
    await page.addInitScript(RECORD_DRAWS);
    // The answers to "tes" and "tesc" wait until the test lets them go; any other goes at once.
    const held = new Map<string, Route>();
    const waiting = new Map<string, (route: Route) => void>();
    await page.route(/\/search\/suggest\?/, async (route) => {
      const name = new URL(route.request().url()).searchParams.get('name') ?? '';
      if (name !== 'tes' && name !== 'tesc') return route.continue();
      held.set(name, route);
      waiting.get(name)?.(route);
    });
    /** The held request for `name`, once the page has asked. */
    const asked = (name: string): Promise<Route> =>
      held.has(name) ? Promise.resolve(held.get(name)!) : new Promise((resolve) => waiting.set(name, resolve));
    await page.goto(`${world.url}/`);
    const box = page.locator('#company-search');
    await box.focus();
    await box.pressSequentially('tes');
    const tes = await asked('tes');
    const tesRequest = tes.request();
    assert.equal((await statusOf(page)).state, 'loading');
    assert.match((await statusOf(page)).text, /Searching for “tes”/);
    // The real answer to "tes", read now, handed over the moment "c" is typed: before the pause
    // after the keystroke ends, so a page that only aborts when it asks again would draw it.
    const tesAnswer = await tes.fetch();
    const settled = new Promise<void>((resolve) => {
      const done = (request: Request) => {
        if (request === tesRequest) resolve();
      };
      page.on('requestfinished', done);
      page.on('requestfailed', done);
    });
    await box.press('c');
    // Aborted already by a page that drops it on the keystroke: then there is nothing to fulfil.
    await tes.fulfill({ response: tesAnswer }).catch(() => {});
    await settled;
    const tesc = await asked('tesc');
    await tesc.fulfill({ response: await tesc.fetch() });
    await page.locator('#search-suggestions[data-query="tesc"]:not([hidden])').waitFor();
    const expected = async (name: string) =>
      (
        (await (await fetch(`${world.url}/search/suggest?name=${name}`)).json()) as { results: { name: string }[] }
      ).results.map((r) => r.name);
    const drawn = await draws(page);
    assert.ok(drawn.length >= 1);
    for (const draw of drawn)
      assert.deepEqual(draw.names, await expected(draw.value), `drawn while the box held "${draw.value}"`);
    assert.deepEqual(drawn.at(-1)!.names, await expected('tesc'));
    // The start of each matching word is marked.
    const marks = await page.locator('#search-suggestions mark').allTextContents();
    assert.deepEqual(marks.slice(0, 2), ['TESC', 'TESC']);
    assert.match((await statusOf(page)).text, /^4 suggestions; use the arrow keys/);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('Back after picking a suggestion shows the query again', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/`);
    await page.locator('#company-search').pressSequentially('tesc', { delay: 20 });
    await page.locator('#search-suggestions[data-query="tesc"]:not([hidden])').waitFor();
    await page.keyboard.press('ArrowDown');
    await Promise.all([page.waitForURL(`${world.url}/company/${TESCO}`), page.keyboard.press('Enter')]);
    await page.goBack();
    assert.equal(await page.locator('#company-search').inputValue(), 'tesc');
    assert.match(page.url(), /\/search\?name=tesc$/);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('the header’s search box takes a company number straight to the company', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${world.url}/company/${HISTORY}`);
    await page.locator('#site-search').fill('445790');
    await Promise.all([page.waitForURL(`${world.url}/company/${TESCO}`), page.locator('#site-search').press('Enter')]);
    assert.equal(await page.locator('h1').textContent(), 'TESCO PLC');
    assert.deepEqual(await axeViolations(page), []);
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => {
      const header = (
        globalThis as unknown as {
          document: { querySelector(s: string): { getBoundingClientRect(): { right: number }; scrollWidth: number } };
        }
      ).document.querySelector('.site-header');
      return Math.max(header.getBoundingClientRect().right, header.scrollWidth);
    });
    assert.ok(overflow <= 390, `the header, its search box included, fits a phone: ${overflow} px`);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('/docs loads nothing from another site and breaks no rule of its policy', async () => {
    const { page, problems } = await openPage(browser);
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(world.url) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
    });
    await page.goto(`${world.url}/docs`);
    await page.getByText('search_by_name', { exact: false }).first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(elsewhere, []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});

describe('suggestions say what happens, in words (a limit of 3 pages a minute)', { timeout: 120_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW, web: { anonPerMinute: 3 } });
    await loadWebFixtures(world);
    browser = await launchBrowser();
  });
  let closed = false;
  after(async () => {
    await browser?.close();
    if (!closed) await world?.close();
  });

  test('rate-limited, offline and failed suggestions are each said', async () => {
    const { page } = await openPage(browser);
    await page.clock.install({ time: NOW });
    await page.goto(`${world.url}/`); // the first view of three
    const box = page.locator('#company-search');
    const state = (want: string) => page.locator(`#search-status[data-state="${want}"]`).waitFor({ state: 'attached' });
    for (const letter of ['t', 'e']) {
      await box.press(letter);
      await page.clock.runFor(200);
      await page
        .locator(`#search-suggestions[data-query="${letter === 't' ? 't' : 'te'}"]`)
        .waitFor({ state: 'attached' });
    }
    await box.press('s');
    await page.clock.runFor(200);
    await state('limited');
    assert.match(
      (await statusOf(page)).text,
      /^Too many searches in the last minute: suggestions stop for \d+ seconds?\. Please wait, then type again\.$/,
    );
    assert.equal(await page.locator('#search-suggestions').isHidden(), true);
    assert.deepEqual(await axeViolations(page), []);

    await page.context().setOffline(true);
    await box.press('c');
    await page.clock.runFor(200);
    await state('offline');
    assert.match((await statusOf(page)).text, /^You are offline, so there are no suggestions/);
    await page.context().setOffline(false);

    // The service gone: the request fails, and the page says so.
    await world.close();
    closed = true;
    await box.press('o');
    await page.clock.runFor(200);
    await state('error');
    assert.match((await statusOf(page)).text, /^Suggestions could not be loaded just now\. Press Search/);
    await page.context().close();
  });
});
