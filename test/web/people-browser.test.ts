/**
 * People and groups in a real Chromium, at desktop and phone widths: a company's persons with
 * significant control are links to their own page, which lists the companies they control; the
 * group structure shows the company's controllers above it and the companies it controls below
 * it; the people search finds a person; and every path the site does not have is an HTML 404
 * page in the site's frame (the API under /v1 keeps its JSON). axe-core finds nothing serious.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { corporatePsc, individualPsc } from '../support/psc-records.ts';
import { axeViolations, launchBrowser, openPageAt, screenshot } from './support/browser.ts';
import { HISTORY, loadWebFixtures, NOW, TESCO } from './support/web-fixtures.ts';

const STORES = '09000003';

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe('people and groups in a browser', { timeout: 240_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
    // Ada controls TESCO PLC, which controls HARBOUR FIGURES and TESCO STORES.
    await world.pscs.upsertPscs(
      [
        individualPsc(
          TESCO,
          { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 },
          { data: { name: 'Mr Ada Lovelace', identity_verification_details: { identity_verified_on: '2025-11-20' } } },
        ),
        corporatePsc(HISTORY, { name: 'TESCO PLC', registeredNumber: TESCO }),
        corporatePsc(STORES, { name: 'TESCO PLC', registeredNumber: TESCO }),
      ],
      '2025-06-01',
    );
    await world.reindex();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  for (const size of WIDTHS) {
    test(`${size.name}: a PSC links to their page, which lists their companies; the group up and down`, async () => {
      const { page, problems } = await openPageAt(browser, size);
      await page.goto(`${world.url}/company/${TESCO}`);
      const tree = page.locator('figure.group-tree');
      assert.match(
        await tree.getAttribute('aria-labelledby').then((id) => page.locator(`#${id}`).innerText()),
        /Group/,
      );
      const controls = tree.locator('li.way', { hasText: 'Controls' });
      assert.equal(await controls.locator('a[href="/company/01234567"]').count(), 1, 'HARBOUR FIGURES below');
      assert.equal(await controls.locator(`a[href="/company/${STORES}"]`).count(), 1, 'TESCO STORES below');
      const controlledBy = tree.locator('li.way', { hasText: 'Controlled by' });
      assert.match(await controlledBy.innerText(), /Ada Lovelace/);
      assert.deepEqual(await axeViolations(page), []);
      await screenshot(page, `company-group-${size.name}`);

      // The PSC in the list of who controls it is a link to the person's page.
      const ada = page.locator('ul.controllers a', { hasText: 'Ada Lovelace' });
      await Promise.all([page.waitForURL(/\/person\?/), ada.click()]);
      assert.match(await page.locator('h1').innerText(), /Ada Lovelace/);
      assert.match(await page.locator('main').innerText(), /born December 1970/);
      const companies = page.locator('table.person-companies tbody tr');
      assert.equal(await companies.count(), 1);
      assert.equal(await companies.locator(`a[href="/company/${TESCO}"]`).innerText(), 'TESCO PLC');
      assert.match(await companies.innerText(), /75 to 100 percent|75–100%|75%/);
      assert.match(await companies.innerText(), /verified 20 November 2025/);
      assert.deepEqual(await axeViolations(page), []);
      await screenshot(page, `person-${size.name}`);

      // Below: HARBOUR FIGURES' chain goes up through TESCO PLC to Ada.
      await page.goto(`${world.url}/company/${HISTORY}`);
      const up = page.locator('figure.group-tree li.way', { hasText: 'Controlled by' });
      const parent = up.locator('li', { has: page.locator(`a[href="/company/${TESCO}"]`) });
      assert.equal(await parent.count(), 1);
      assert.match(await parent.locator('ul').innerText(), /Ada Lovelace/);

      // The people search finds her too.
      await page.goto(`${world.url}/people`);
      await page.fill('#person-search', 'lovelace');
      await Promise.all([page.waitForURL(/\/people\?name=lovelace/), page.press('#person-search', 'Enter')]);
      const found = page.locator('ol.results a', { hasText: 'Ada Lovelace' });
      assert.equal(await found.count(), 1);
      await Promise.all([page.waitForURL(/\/person\?/), found.click()]);
      assert.match(await page.locator('h1').innerText(), /Ada Lovelace/);
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(problems, []);
      await page.context().close();
    });

    test(`${size.name}: every path the site does not have is an HTML page; the API keeps JSON`, async () => {
      const { page, problems } = await openPageAt(browser, size);
      const cases = [
        { path: '/people/ada', status: 404, heading: /Not found/ },
        { path: `/company/${TESCO}/subsidiaries`, status: 404, heading: /Not found/ },
        { path: '/company/', status: 404, heading: /Not found/ },
        { path: '/no/such/page', status: 404, heading: /Not found/ },
        { path: '/person?name=Nobody%20Atall', status: 404, heading: /Person not found/ },
        { path: '/person', status: 400, heading: /check what you entered/ },
        { path: '/person?name=Ada%20Lovelace&birth_year=nineteen', status: 400, heading: /check what you entered/ },
        { path: '/company/not-a-number!', status: 400, heading: /check what you entered/ },
      ];
      for (const { path, status, heading } of cases) {
        const response = await page.goto(`${world.url}${path}`);
        assert.equal(response?.status(), status, path);
        assert.match(response?.headers()['content-type'] ?? '', /^text\/html/, path);
        assert.match(await page.locator('h1').innerText(), heading, path);
        assert.equal(await page.locator('nav[aria-label="Site"]').count(), 1, `${path}: in the site's frame`);
        assert.deepEqual(await axeViolations(page), [], path);
      }
      for (const path of ['/v1/no-such-endpoint', '/v1/company/x']) {
        const response = await page.goto(`${world.url}${path}`);
        assert.equal(response?.status(), 404, path);
        assert.match(response?.headers()['content-type'] ?? '', /^application\/json/, path);
      }
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }
});
