/**
 * The world most browser tests use: the web fixtures on PGlite with Postgres search, as the
 * embedded default serves them, and a Chromium to read them with.
 */
import type { Browser } from 'playwright-core';
import type { World } from '../../support/api-world.ts';
import { startWorld } from '../../support/api-world.ts';
import { testStores } from '../../support/databases.ts';
import { launchBrowser } from './browser.ts';
import { loadWebFixtures, NOW } from './web-fixtures.ts';

export interface WebWorld {
  world: World;
  browser: Browser;
}

export async function startWebWorld(): Promise<WebWorld> {
  const world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
  await loadWebFixtures(world);
  return { world, browser: await launchBrowser() };
}

/** Close what a start made; a start that failed part way leaves some of it undefined. */
export async function stopWebWorld({ world, browser }: Partial<WebWorld>): Promise<void> {
  await browser?.close();
  await world?.close();
}
