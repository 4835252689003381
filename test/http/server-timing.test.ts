/**
 * `Server-Timing: app;dur=<ms>` on every answer: web pages (found, refused, not found), the
 * suggestions, assets and the API; its time covers the handling (a handler that takes 60 ms
 * shows at least that) and never exceeds what the client waited.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Koa from 'koa';
import { serverTiming } from '../../src/app/server-timing.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { HISTORY, loadWebFixtures, NOW } from '../web/support/web-fixtures.ts';

const HEADER = /^app;dur=(\d+\.\d)$/;

/** The header's milliseconds, after checking its form. */
function serverMs(answer: Response): number {
  const value = answer.headers.get('server-timing') ?? '';
  const match = HEADER.exec(value);
  assert.ok(match, `Server-Timing "${value}"`);
  return Number(match[1]);
}

describe('Server-Timing', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
  });
  after(() => world?.close());

  test('on every web page, the suggestions, an asset and the API, whatever the status', async () => {
    const paths: [string, number][] = [
      ['/', 200],
      ['/search?name=harbour', 200],
      ['/search/suggest?name=harb', 200],
      [`/company/${HISTORY}`, 200],
      ['/company/NOT-A-NUMBER', 400],
      ['/company/99999999', 404],
      ['/assets/site.css', 200],
      ['/healthz', 200],
      [`/v1/company?number=${HISTORY}`, 401],
      ['/no/such/path', 404],
    ];
    for (const [path, status] of paths) {
      const started = performance.now();
      const answer = await fetch(`${world.url}${path}`);
      await answer.arrayBuffer();
      const waited = performance.now() - started;
      assert.equal(answer.status, status, path);
      const ms = serverMs(answer);
      assert.ok(ms <= waited + 0.1, `${path}: server ${ms} ms within the ${waited.toFixed(1)} ms the client waited`);
    }
  });
});

test('the time covers the handling: a handler that takes 60 ms shows at least 60', async () => {
  const app = new Koa();
  app.use(serverTiming);
  app.use(async (ctx) => {
    await new Promise((done) => setTimeout(done, 60));
    ctx.body = 'done';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((ready) => server.once('listening', ready));
  try {
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    assert.equal(await answer.text(), 'done');
    const ms = serverMs(answer);
    assert.ok(ms >= 59.5 && ms < 5_000, `${ms} ms`);
  } finally {
    await new Promise((closed) => server.close(closed));
  }
});
