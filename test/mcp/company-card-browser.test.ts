/**
 * The company card MCP App in a real Chromium, hosted as an MCP Apps host hosts it: the ui://
 * document read over MCP goes into a sandboxed iframe (scripts only, an opaque origin), ext-apps'
 * own host side (AppBridge) talks to the App inside it, and sends it a real lookup_company (or
 * lookup_companies) result from the service. The card shows the company, its key figures, risk
 * band and signals, and one chart point per filed year with the right value; a batch shows a card
 * per company; axe-core finds no serious or critical violation in it; no CSP violation, page
 * error or request to anywhere.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import type { Browser, Frame } from 'playwright-core';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { axeViolations, launchBrowser, openPage } from '../web/support/browser.ts';
import { HISTORY, HISTORY_YEARS, loadWebFixtures, NOW, TESCO } from '../web/support/web-fixtures.ts';

const CARD = 'ui://ukcd/company-card.html';
const FIGURES = ['net_assets', 'cash', 'turnover', 'profit', 'employees'] as const;

/**
 * The host page's script: ext-apps' AppBridge on a PostMessageTransport to the iframe, connected
 * before the document is loaded into it (the App starts the handshake as it loads), then the
 * tool's arguments and result once the App says it is initialised.
 */
const HOST_SCRIPT = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
const { html, input, result } = globalThis.cardCall;
const iframe = document.createElement('iframe');
iframe.title = 'Company card';
iframe.setAttribute('sandbox', 'allow-scripts');
document.body.append(iframe);
const bridge = new AppBridge(null, { name: 'ukcd-test-host', version: '0.0.0' }, {});
bridge.oninitialized = async () => {
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
  document.body.dataset.sent = 'yes';
};
await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
iframe.srcdoc = html;
`;

async function hostScript(): Promise<string> {
  const bundled = await build({
    stdin: { contents: HOST_SCRIPT, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return bundled.outputFiles[0]!.text;
}

describe('the company card MCP App in a host', { timeout: 120_000 }, () => {
  let world: World;
  let browser: Browser;
  let client: Client;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
    browser = await launchBrowser();
    client = await connectMcp(world.url, await world.issueKey('pro'));
  });
  after(async () => {
    await client?.close();
    await browser?.close();
    await world?.close();
  });

  async function hostedCard(
    input: Record<string, unknown>,
    tool = 'lookup_company',
  ): Promise<{ frame: Frame; problems: string[] }> {
    const { tools } = await client.listTools();
    const uri = tools.find((t) => t.name === tool)?._meta?.ui as { resourceUri?: string } | undefined;
    assert.equal(uri?.resourceUri, CARD);
    const html = ((await client.readResource({ uri: CARD })).contents[0] as TextResourceContents).text;
    const result = (await client.callTool({ name: tool, arguments: input })) as CallToolResult;
    const { page, problems } = await openPage(browser);
    page.on('request', (request) => {
      if (!/^(about|data):/.test(request.url())) problems.push(`request: ${request.url()}`);
    });
    await page.setContent('<!doctype html><html lang="en"><head><title>Host</title></head><body></body></html>');
    await page.evaluate((call) => Object.assign(globalThis, { cardCall: call }), { html, input, result });
    await page.addScriptTag({ content: await hostScript(), type: 'module' });
    await page.locator('body[data-sent="yes"]').waitFor();
    const frame = await (await page.locator('iframe').elementHandle())!.contentFrame();
    assert.ok(frame);
    return { frame, problems };
  }

  test('a lookup_company result: the card with its key figures, risk band, signals and charts', async () => {
    const { frame, problems } = await hostedCard({ company_number: HISTORY });
    await frame.locator('figure[data-figure="net_assets"] circle.point').first().waitFor();
    assert.equal(await frame.locator('h1').textContent(), 'HARBOUR FIGURES LIMITED');
    assert.match((await frame.locator('p.lead').textContent()) ?? '', new RegExp(`Company number ${HISTORY} · Active`));
    const latest = HISTORY_YEARS[HISTORY_YEARS.length - 1]!;
    assert.equal(await frame.locator('.latest-figures dd[data-figure="net_assets"]').textContent(), '£210,000');
    assert.equal(
      await frame.locator('.latest-figures dd[data-figure="employees"]').textContent(),
      String(latest.employees),
    );
    assert.match(
      (await frame.locator('#risk-heading + p').textContent()) ?? '',
      /^Risk band: (Low|Medium|High|Unknown)/,
    );
    assert.match((await frame.locator('section[aria-labelledby="risk-heading"]').textContent()) ?? '', /Trajectory: /);
    for (const figure of FIGURES) {
      const points = frame.locator(`figure[data-figure="${figure}"] circle.point`);
      assert.equal(await points.count(), HISTORY_YEARS.length, figure);
      for (const [i, year] of HISTORY_YEARS.entries()) {
        assert.equal(await points.nth(i).getAttribute('data-date'), year.date);
        assert.equal(Number(await points.nth(i).getAttribute('data-value')), year[figure]);
      }
    }
    assert.deepEqual(await axeViolations(frame), []);
    assert.deepEqual(problems, []);
  });

  test('a lookup_companies result: a card per company found, without charts, and the numbers not found', async () => {
    const { frame, problems } = await hostedCard({ company_numbers: [HISTORY, TESCO, '77777777'] }, 'lookup_companies');
    await frame.locator('article').first().waitFor();
    assert.equal(await frame.locator('h1').textContent(), '2 of 3 companies found');
    assert.deepEqual(await frame.locator('article h2').allTextContents(), ['HARBOUR FIGURES LIMITED', 'TESCO PLC']);
    assert.equal(
      await frame.locator('article').first().locator('dd[data-figure="net_assets"]').textContent(),
      '£210,000',
    );
    assert.equal(await frame.locator('article h3', { hasText: 'Risk band and signals' }).count(), 2);
    assert.equal(await frame.locator('figure').count(), 0);
    assert.match((await frame.locator('main').textContent()) ?? '', /Not on the register: 77777777\./);
    // Every id once (axe no longer checks: WCAG 2.2 dropped 4.1.1), so each card is labelled by its own name.
    const ids = await frame.locator('[id]').evaluateAll((elements) => elements.map((e) => e.id));
    assert.deepEqual(ids, [...new Set(ids)]);
    assert.deepEqual(
      await frame.locator('article').evaluateAll((articles) => articles.map((a) => a.getAttribute('aria-labelledby'))),
      ['c0-name', 'c1-name'],
    );
    assert.deepEqual(await axeViolations(frame), []);
    assert.deepEqual(problems, []);
  });

  test('a refused lookup: the tool’s own words, no card', async () => {
    const { frame, problems } = await hostedCard({ company_number: '99999999' });
    await frame.locator('[role="alert"]').waitFor();
    assert.equal(await frame.locator('[role="alert"]').textContent(), 'Company 99999999 not found.');
    assert.equal(await frame.locator('figure').count(), 0);
    assert.deepEqual(await axeViolations(frame), []);
    assert.deepEqual(problems, []);
  });
});
