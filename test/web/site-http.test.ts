/**
 * What every page of the site gives over real HTTP, on both set-ups: a company number in any
 * accepted form going straight to its company (and as the one suggestion), paging through every
 * result of a name search with next and previous in search_by_name's order, a meta description,
 * gzip for HTML, JSON, JavaScript and CSS (and not for small answers), and /docs with the pages'
 * security headers and nothing from another site in its bundle.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { call } from '../support/api-fixtures.ts';
import type { RegisterFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { NOW, TESCO, webCompanies } from './support/web-fixtures.ts';

/** 45 HARBOUR companies besides the web fixtures (one more HARBOUR): three pages of 20 for "harbour". */
const harbours: RegisterFixture[] = Array.from({ length: 45 }, (_, i) => ({
  number: `0770${String(i).padStart(4, '0')}`,
  name: `HARBOUR ${['NORTH', 'SOUTH', 'EAST', 'WEST', 'MILL'][i % 5]} ${i} LTD`,
  postTown: 'HULL',
}));

/** The company numbers of a results page's list, in order. */
function listed(page: string): string[] {
  const list = /<ol class="results"[^>]*>([\s\S]*?)<\/ol>/.exec(page)?.[1] ?? '';
  return [...list.matchAll(/<a href="\/company\/([0-9A-Z]{8})">/g)].map((m) => m[1]!);
}

/** The href of the pager's link with `rel`, decoded, or null. */
function pagerLink(page: string, rel: 'next' | 'prev'): string | null {
  const href = new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(page)?.[1];
  return href ? href.replaceAll('&amp;', '&') : null;
}

/** A raw GET (node:http: no automatic decompression), with its headers and undecoded bytes. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const setups = [
  { name: 'the embedded default (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

for (const setup of setups)
  describe(`the site on ${setup.name}`, () => {
    let world: World;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await world.loadRegister([...webCompanies, ...harbours], '2025-01-01');
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    for (const typed of ['00445790', '445790', ' 0044 5790 ']) {
      test(`"${typed}" in the search box opens TESCO PLC's page, and is its one suggestion`, async () => {
        const answer = await fetch(`${world.url}/search?name=${encodeURIComponent(typed)}`, { redirect: 'manual' });
        assert.equal(answer.status, 302);
        assert.equal(answer.headers.get('location'), `/company/${TESCO}`);
        const suggest = await fetch(`${world.url}/search/suggest?name=${encodeURIComponent(typed)}`);
        const body = (await suggest.json()) as { total: number; results: { company_number: string; name: string }[] };
        assert.equal(body.total, 1);
        assert.deepEqual(
          body.results.map((r) => [r.company_number, r.name]),
          [[TESCO, 'TESCO PLC']],
        );
      });
    }

    test('a number not on the register is searched as a name, and says so', async () => {
      const answer = await fetch(`${world.url}/search?name=SC999999`, { redirect: 'manual' });
      assert.equal(answer.status, 200);
      assert.match(await answer.text(), /No company name matches “SC999999”/);
    });

    test('next and previous page through every match in search_by_name order', async () => {
      const api: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await call(
          world,
          `/v1/search-by-name?name=harbour&limit=20&format=json${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key },
        );
        api.push(...(page.body.results as { company_number: string }[]).map((r) => r.company_number));
        cursor = page.body.next as string | null;
      } while (cursor !== null);
      assert.equal(api.length, 46, 'the 45 and HARBOUR FIGURES LIMITED');

      const pages: string[] = [];
      const seen: string[] = [];
      let path: string | null = '/search?name=harbour';
      while (path !== null) {
        const page = await (await fetch(`${world.url}${path}`)).text();
        pages.push(page);
        seen.push(...listed(page));
        path = pagerLink(page, 'next');
      }
      assert.deepEqual(seen, api, 'every match once, in the API order');
      assert.equal(pages.length, 3);
      assert.match(pages[0]!, /1 to 20 of 46, best match first/);
      assert.match(pages[1]!, /21 to 40 of 46/);
      assert.match(pages[1]!, /<ol class="results" start="21">/);
      assert.match(pages[2]!, /41 to 46 of 46/);
      assert.equal(pagerLink(pages[0]!, 'prev'), null);
      const back = await (await fetch(`${world.url}${pagerLink(pages[2]!, 'prev')!}`)).text();
      assert.deepEqual(listed(back), api.slice(20, 40), 'previous from the third page is the second');
      const first = await (await fetch(`${world.url}${pagerLink(back, 'prev')!}`)).text();
      assert.deepEqual(listed(first), api.slice(0, 20));
    });

    test('every page has a meta description; the search box is in the header of the other pages', async () => {
      for (const path of ['/', '/search?name=harbour', `/company/${TESCO}`, '/leads', '/market', '/sign-in']) {
        const page = await (await fetch(`${world.url}${path}`)).text();
        assert.match(page, /<meta name="description" content="[^"]{40,}" \/>/, path);
        const headerSearch = /<form class="site-search" role="search"[^>]*action="\/search" method="get">/.test(page);
        assert.equal(headerSearch, !path.startsWith('/search') && path !== '/', `${path}: header search`);
      }
    });

    test('HTML, JSON, JavaScript and CSS are sent gzipped to a client that accepts it', async () => {
      for (const path of [
        '/search?name=harbour',
        '/assets/search.js',
        '/assets/site.css',
        '/openapi.json',
        '/docs/redoc.standalone.js',
      ]) {
        const plain = await rawGet(`${world.url}${path}`, {});
        const zipped = await rawGet(`${world.url}${path}`, { 'accept-encoding': 'gzip, deflate, br' });
        assert.equal(zipped.status, 200, path);
        assert.equal(plain.headers['content-encoding'], undefined, `${path}: not without Accept-Encoding`);
        assert.equal(zipped.headers['content-encoding'], 'gzip', path);
        assert.match(String(zipped.headers.vary), /accept-encoding/i, path);
        assert.ok(zipped.body.length < plain.body.length / 2, `${path}: ${zipped.body.length} of ${plain.body.length}`);
        const unzipped = gunzipSync(zipped.body).toString();
        if (path.startsWith('/search')) assert.match(unzipped, /1 to 20 of 46/);
        else assert.equal(unzipped, plain.body.toString(), path);
      }
      const small = await rawGet(`${world.url}/healthz`, { 'accept-encoding': 'gzip' });
      assert.equal(small.headers['content-encoding'], undefined, 'a small answer is sent as it is');
      const api = await rawGet(`${world.url}/v1/search-by-name?name=harbour&limit=50&format=json`, {
        'accept-encoding': 'gzip',
        authorization: `Bearer ${key}`,
      });
      assert.equal(api.headers['content-encoding'], 'gzip');
      assert.equal((JSON.parse(gunzipSync(api.body).toString()) as { results: unknown[] }).results.length, 46);
    });

    test('/docs has the security headers of the pages and names no other site', async () => {
      const answer = await fetch(`${world.url}/docs`);
      assert.equal(answer.status, 200);
      const csp = answer.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('referrer-policy'), 'same-origin');
      assert.equal(answer.headers.get('x-frame-options'), 'DENY');
      assert.match(await answer.text(), /<meta name="description"/);
      const bundle = await (await fetch(`${world.url}/docs/redoc.standalone.js`)).text();
      assert.doesNotMatch(bundle, /cdn\.redoc\.ly/);
    });
  });
