/**
 * A real Chromium for the browser tests: Debian's package (scripts/chromium.sh installs it; its
 * path in UKCD_TEST_CHROMIUM, /usr/bin/chromium by default), launched by playwright-core. A
 * missing browser fails the test with the way to install it, never skips it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.UKCD_TEST_CHROMIUM || '/usr/bin/chromium';

/**
 * Where the screenshots people look at are kept (committed). The tests write them there only when
 * UKCD_SCREENSHOTS=1 asks, so that a test run leaves the checkout as it found it.
 */
const SCREENSHOTS_DIR = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');
const WRITE_SCREENSHOTS = process.env.UKCD_SCREENSHOTS === '1';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: run scripts/chromium.sh (it installs Debian's chromium).`);
  return chromium.launch({
    executablePath: CHROMIUM,
    // Root (CI containers) cannot use Chromium's sandbox; /dev/shm is small in containers.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/**
 * A new page in a fresh context (no cookies shared with other tests), 1280 px wide, with every
 * Content-Security-Policy violation and uncaught page error recorded in `problems`.
 */
export async function openPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, problems };
}

/**
 * A new page in a fresh context at a screen's size, with every uncaught page error recorded in
 * `problems`.
 */
export async function openPageAt(
  browser: Browser,
  screen: { width: number; height: number },
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    locale: 'en-GB',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, problems };
}

const AXE_SOURCE: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page (or one frame of it, such as an MCP App
 * in its host's iframe) as it is now (WCAG 2.x A and AA, and best practices). axe is evaluated
 * through the DevTools protocol, which the page's CSP does not govern, so the page is tested
 * under its real policy.
 */
export async function axeViolations(page: Page | Frame): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const page = globalThis as unknown as {
      axe: { run(context: unknown, options: unknown): Promise<unknown> };
      document: unknown;
    };
    const result = (await page.axe.run(page.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    })) as {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Render the page's full-length screenshot, always (so a page that cannot be drawn fails the
 * test), and write it to docs/screenshots/<name>.png only when UKCD_SCREENSHOTS=1.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!WRITE_SCREENSHOTS) {
    await page.screenshot({ fullPage: true });
    return;
  }
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}
