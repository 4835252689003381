/**
 * The web router and the Search page over real HTTP (PGlite, Postgres search): the security
 * headers on pages and assets, the search results in search_by_name's order without JavaScript,
 * the as-you-type suggestions, escaping of register text, a 400 page naming the field, and
 * WEB_UI=false serving the API only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { loadWebFixtures, NOW, TESCO } from './support/web-fixtures.ts';

/** The company numbers linked from a results page, in order. */
function linkedNumbers(page: string): string[] {
  return [...page.matchAll(/<a href="\/company\/([0-9A-Z]{8})">/g)].map((m) => m[1]!);
}

const setups = [
  { name: 'the embedded default (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

for (const setup of setups)
  describe(`web router and the Search page on ${setup.name}`, () => {
    let world: World;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadWebFixtures(world);
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    test('the search page is served at / with a strict CSP and the other security headers', async () => {
      const answer = await fetch(`${world.url}/`);
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      const csp = answer.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('referrer-policy'), 'same-origin');
      const page = await answer.text();
      assert.match(page, /<form class="search-form" role="search" action="\/search" method="get">/);
      assert.match(page, /<script src="\/assets\/search.js" defer><\/script>/);
      assert.doesNotMatch(
        page,
        /<script>|<script [^>]*>[^<]+<\/script>|\sstyle=|\son[a-z]+=/i,
        'no inline script or style',
      );
    });

    test('a submitted search lists the companies in search_by_name order, status and town shown', async () => {
      const api = await call(world, '/v1/search-by-name?name=tesc&limit=20&format=json', { key });
      assert.equal(api.status, 200);
      const apiOrder = (api.body.results as { company_number: string }[]).map((r) => r.company_number);
      const answer = await fetch(`${world.url}/search?name=tesc`);
      assert.equal(answer.status, 200);
      const page = await answer.text();
      assert.deepEqual(linkedNumbers(page), apiOrder);
      assert.equal(apiOrder[0], TESCO);
      assert.match(
        page,
        /TESCO PLC<\/a>\n<span class="result-facts">00445790 · <span class="status status-active">Active<\/span> · WELWYN GARDEN CITY/,
      );
    });

    test('register text is escaped, never taken as markup', async () => {
      const page = await (await fetch(`${world.url}/search?name=tescombe`)).text();
      assert.match(page, /TESCOMBE &amp; &lt;SONS&gt; &quot;QUOTED&quot; LTD/);
      assert.doesNotMatch(page, /<SONS>/);
    });

    test('suggestions as you type: the first hits of the same ranking, as JSON', async () => {
      const answer = await call(world, '/search/suggest?name=tesc');
      assert.equal(answer.status, 200);
      const api = await call(world, '/v1/search-by-name?name=tesc&limit=8&format=json', { key });
      assert.deepEqual(
        answer.body.results,
        (api.body.results as Record<string, unknown>[]).map((r) => ({
          company_number: r.company_number,
          name: r.name,
          status: r.status,
          post_town: r.post_town,
        })),
      );
      assert.deepEqual((await call(world, '/search/suggest?name=')).body, { results: [], total: 0 });
    });

    test('a name the operation refuses is a 400 page naming the field, not a 500', async () => {
      const answer = await fetch(`${world.url}/search?name=${'x'.repeat(201)}`);
      assert.equal(answer.status, 400);
      const page = await answer.text();
      assert.match(
        page,
        /<p class="error-message" role="alert">Invalid &quot;name&quot;: must be at most 200 characters.<\/p>/,
      );
      assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    });

    test('anonymous page views are not counted against any key', async () => {
      const before = await call(world, '/v1/search-by-name?name=tesco', { key });
      await fetch(`${world.url}/search?name=tesco`);
      await fetch(`${world.url}/search/suggest?name=tesco`);
      const later = await call(world, '/v1/search-by-name?name=tesco', { key });
      assert.equal(
        Number(before.headers.get('x-ratelimit-remaining')) - Number(later.headers.get('x-ratelimit-remaining')),
        1,
      );
    });

    test('assets are served from src/web/assets with their type and an ETag; an unknown one is 404', async () => {
      const script = await fetch(`${world.url}/assets/search.js`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
      const etag = script.headers.get('etag')!;
      assert.ok(etag);
      assert.equal((await fetch(`${world.url}/assets/search.js`, { headers: { 'if-none-match': etag } })).status, 304);
      assert.equal(
        (await fetch(`${world.url}/assets/site.css`)).headers.get('content-type'),
        'text/css; charset=utf-8',
      );
      assert.equal((await fetch(`${world.url}/assets/nothing.js`)).status, 404);
    });

    test('the API is untouched beside the pages: an unknown path under /v1 is still the JSON 404', async () => {
      for (const path of ['/v1/no-such-endpoint', '/v1', '/mcp/x', '/docs/x']) {
        const answer = await call(world, path);
        assert.equal(answer.status, 404, path);
        assert.match(String(answer.body.error), /No such endpoint/, path);
      }
      // Outside the API's paths, the site answers: an HTML page saying there is no such page.
      const page = await fetch(`${world.url}/no-such-page`);
      assert.equal(page.status, 404);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await page.text(), /There is no page at \/no-such-page/);
    });
  });

describe('WEB_UI=false', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW, web: { enabled: false } });
  });
  after(() => world.close());

  test('serves the API only: no page at /, no assets', async () => {
    for (const path of ['/', '/search?name=tesco', '/assets/site.css']) {
      const answer = await call(world, path);
      assert.equal(answer.status, 404, path);
      assert.match(String(answer.body.error), /No such endpoint/);
    }
    assert.equal((await call(world, '/healthz')).status, 200);
  });
});
