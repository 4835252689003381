/**
 * Officers in a real Chromium, at desktop, phone and narrow phone widths: the company page lists
 * its current officers (name linked to their person page, role, appointed, nationality,
 * occupation, country of residence, month and year of birth) with the resigned ones folded; a
 * person page lists an officer's appointments, each company linked back, and for a director who
 * is also a PSC their control as well; the people search finds an officer. Nothing wider than the
 * screen, and axe-core finds nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { officerRecord } from '../support/officer-records.ts';
import { individualPsc } from '../support/psc-records.ts';
import { axeViolations, launchBrowser, openPageAt, screenshot } from './support/browser.ts';
import { loadWebFixtures, NOW, TESCO } from './support/web-fixtures.ts';

const STORES = '09000003';

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'narrow phone', width: 360, height: 740 },
] as const;

describe('officers in a browser', { timeout: 300_000 }, () => {
  let world: World;
  let browser: Browser;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
    await world.pscs.upsertPscs(
      [individualPsc(TESCO, { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 })],
      '2025-06-01',
    );
    const officers = createOfficerStore(world.sql);
    const ada = { name: 'LOVELACE, Ada', officerId: 'ada-officer', birthYear: 1970, birthMonth: 12 };
    const charles = {
      name: 'BABBAGE, Charles',
      officerId: 'charles-officer',
      birthYear: 1961,
      birthMonth: 12,
      nationality: 'British',
      occupation: 'Mathematician and inventor of the difference engine',
      countryOfResidence: 'United Kingdom',
    };
    await officers.replaceCompanyOfficers(
      TESCO,
      [
        officerRecord(TESCO, { ...ada, appointedOn: '2019-05-01', nationality: 'British', occupation: 'Director' }),
        officerRecord(TESCO, { ...charles, appointedOn: '2021-03-01' }),
        officerRecord(TESCO, { ...charles, role: 'secretary', appointedOn: '2010-01-01', resignedOn: '2020-12-31' }),
      ],
      '2025-06-01T00:00:00Z',
    );
    await officers.replaceCompanyOfficers(
      STORES,
      [officerRecord(STORES, { ...charles, appointedOn: '2022-07-01' })],
      '2025-06-01T00:00:00Z',
    );
    await world.reindex();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  /** How far the page is wider than the screen (0: not at all). */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const doc = (
        globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
      ).document.documentElement;
      return doc.scrollWidth - doc.clientWidth;
    });

  for (const size of WIDTHS) {
    test(`${size.name}: the company's officers, resigned folded; their pages list appointments and link back`, async () => {
      const { page, problems } = await openPageAt(browser, size);
      await page.goto(`${world.url}/company/${TESCO}`);
      const section = page.locator('section[aria-labelledby="officers-heading"]');
      assert.equal(await section.locator('h2').innerText(), 'Officers');
      const current = section.locator('#officers-current tbody tr');
      assert.equal(await current.count(), 2);
      // Newest appointed first: Charles (2021) before Ada (2019); every column the register gives.
      const first = await current.nth(0).innerText();
      for (const value of [
        'BABBAGE, Charles',
        'Director',
        '1 March 2021',
        'British',
        'difference engine',
        'United Kingdom',
        'December 1961',
      ])
        assert.ok(first.includes(value), `${value} in ${first}`);
      assert.match(first, /1 other appointment/);
      // The resigned secretaryship is folded until asked for.
      const resigned = section.locator('details.resigned-officers');
      assert.equal(await resigned.locator('#officers-resigned').isVisible(), false);
      await resigned.locator('summary').click();
      assert.equal(await resigned.locator('#officers-resigned').isVisible(), true);
      assert.match(await resigned.locator('tbody tr').innerText(), /Secretary[\s\S]*31 December 2020/);
      assert.equal(await overflow(page), 0, 'no wider than the screen');
      assert.deepEqual(await axeViolations(page), []);
      await screenshot(page, `company-officers-${size.name.replace(' ', '-')}`);

      // An officer's name is a link to their page: every appointment, each company linked back.
      await Promise.all([
        page.waitForURL(/\/person\?/),
        current.nth(0).locator('a', { hasText: 'BABBAGE, Charles' }).click(),
      ]);
      assert.match(await page.locator('h1').innerText(), /BABBAGE, Charles/);
      const appointments = page.locator('table.person-appointments tbody tr');
      assert.equal(await appointments.count(), 3);
      assert.equal(
        await appointments.nth(0).locator(`a[href="/company/${STORES}"]`).innerText(),
        'TESCO STORES LIMITED',
      );
      assert.match(await appointments.nth(2).innerText(), /Secretary/);
      // An appointment published without identity verification says so in words.
      assert.match(await appointments.nth(2).innerText(), /not given/);
      assert.equal(await page.locator('table.person-companies').count(), 0, 'not a PSC');
      assert.equal(await overflow(page), 0, 'no wider than the screen');
      assert.deepEqual(await axeViolations(page), []);
      await screenshot(page, `person-officer-${size.name.replace(' ', '-')}`);
      await Promise.all([page.waitForURL(new RegExp(`/company/${TESCO}$`)), appointments.nth(1).locator('a').click()]);

      // A director who is also a PSC: one person, their control and their appointment.
      await Promise.all([
        page.waitForURL(/\/person\?/),
        page.locator('#officers-current a', { hasText: 'LOVELACE, Ada' }).click(),
      ]);
      assert.match(await page.locator('h1').innerText(), /Ada Lovelace/);
      assert.equal(await page.locator('table.person-companies tbody tr').count(), 1);
      assert.equal(await page.locator('table.person-appointments tbody tr').count(), 1);
      assert.deepEqual(await axeViolations(page), []);

      // The people search finds the officer, and says what he is.
      await page.goto(`${world.url}/people?name=babbage`);
      const found = page.locator('ol.results li', { hasText: 'BABBAGE, Charles' });
      assert.equal(await found.count(), 1);
      assert.match(await found.innerText(), /director, secretary: 2 appointments now, 3 in all/);
      assert.equal(await overflow(page), 0, 'no wider than the screen');
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }
});
