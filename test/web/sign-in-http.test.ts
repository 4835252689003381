/**
 * Sign-in, the Watchlist and Alerts pages and sign-out over real HTTP, on the embedded store: the
 * session cookie's attributes, what the store keeps (a hash, never the key), CSRF refusals that
 * change nothing, page views never charged to the key's quota while CSV downloads are, the quota
 * page (sign-out, when it resets), an alert from a later register snapshot loaded through the real
 * loader, the per-minute limits (per address anonymous, per key signed in) and `?key=` refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { usageMonth } from '../../src/domain/api-keys.ts';
import { cookieOptions } from '../../src/web/sessions.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { HISTORY, loadWebFixtures, NOW, TESCO, webCompanies } from './support/web-fixtures.ts';

/** A browser's cookie jar, as far as these tests need one: name=value of each cookie set. */
class Visitor {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.keep(await fetch(`${this.base}${path}`, { redirect: 'manual', headers: this.headers(headers) }));
  }

  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.keep(
      await fetch(`${this.base}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          ...this.headers({ 'sec-fetch-site': 'same-origin', ...headers }),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(form).toString(),
      }),
    );
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { ...(cookie ? { cookie } : {}), ...extra };
  }

  private keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Open the sign-in form and post the key with the form's token. */
  async signIn(key: string): Promise<Response> {
    const form = await (await this.get('/sign-in')).text();
    return this.post('/sign-in', { csrf: csrfOf(form), api_key: key });
  }
}

/** The CSRF token of the first form on a page. */
function csrfOf(page: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  assert.ok(token, 'the page has a form with a CSRF token');
  return token;
}

async function used(world: World, prefix: string): Promise<number> {
  const [key] = await world.keys.listKeys(usageMonth(NOW), prefix.slice(0, 13));
  return key!.used;
}

describe('web sign-in, watchlist and alerts (PGlite)', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
  });
  after(() => world?.close());

  test('the sign-in form sets its token cookie HttpOnly and SameSite=Strict; a wrong key or a missing token signs no one in', async () => {
    const visitor = new Visitor(world.url);
    const form = await visitor.get('/sign-in');
    assert.equal(form.status, 200);
    const setCookie = form.headers.getSetCookie().join('\n');
    assert.match(setCookie, /ukcd_sign_in=[^;]+;.*samesite=strict/i);
    assert.match(setCookie, /httponly/i);
    assert.doesNotMatch(setCookie, /secure/i, 'not Secure over plain HTTP');
    const token = csrfOf(await form.text());
    const key = await world.issueKey('free');

    const noToken = await visitor.post('/sign-in', { api_key: key });
    assert.equal(noToken.status, 400);
    assert.match(await noToken.text(), /reload the page/);
    const crossSite = await visitor.post('/sign-in', { csrf: token, api_key: key }, { 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.status, 400);
    const wrong = await visitor.post('/sign-in', { csrf: token, api_key: `${key}x` });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /not one this service knows/);
    const blank = await visitor.post('/sign-in', { csrf: token, api_key: '  ' });
    assert.equal(blank.status, 400);
    assert.equal((await world.sql.query('SELECT 1 FROM web_sessions')).rowCount, 0, 'no session was made');
    assert.equal(visitor.cookies.has('ukcd_session'), false);
  });

  test('sign in, add to the watchlist, see an alert after a later snapshot, sign out', async () => {
    const key = await world.issueKey('pro');
    const visitor = new Visitor(world.url);
    assert.equal((await visitor.get('/watchlist')).headers.get('location'), '/sign-in', 'anonymous: to sign in');

    const signedIn = await visitor.signIn(key);
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.headers.get('location'), '/watchlist');
    const sessionCookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('ukcd_session='))!;
    assert.match(sessionCookie, /httponly/i);
    assert.match(sessionCookie, /samesite=strict/i);
    assert.match(sessionCookie, /path=\//);
    const sessionId = visitor.cookies.get('ukcd_session')!;
    assert.match(sessionId, /^[A-Za-z0-9_-]{43}$/);
    const stored = await world.sql.query<Record<string, unknown>>('SELECT * FROM web_sessions');
    assert.equal(stored.rowCount, 1);
    const row = JSON.stringify(stored.rows[0]);
    assert.ok(!row.includes(sessionId), 'the store keeps a hash of the id, not the id');
    assert.ok(!row.includes(key), 'the store never keeps the key');

    const before = await used(world, key);
    const page = await visitor.get('/watchlist');
    assert.equal(page.status, 200);
    const watchlist = await page.text();
    assert.match(watchlist, /0 of 50 companies \(pro plan\)/);
    assert.ok(!watchlist.includes(key), 'the page does not hold the key');
    assert.match(
      watchlist,
      /Your key has used 0 of its 5,000 API requests this month; the count starts again on 1 July 2025/,
    );
    assert.equal(await used(world, key), before, 'the page view is not charged to the monthly quota');

    // A form from another site changes nothing (and counts nothing).
    const forged = await visitor.post(
      '/watchlist/add',
      { csrf: csrfOf(watchlist), company_numbers: TESCO },
      { 'sec-fetch-site': 'cross-site' },
    );
    assert.equal(forged.status, 400);
    const wrongToken = await visitor.post('/watchlist/add', { csrf: 'x'.repeat(43), company_numbers: TESCO });
    assert.equal(wrongToken.status, 400);
    assert.equal(await used(world, key), before);

    const bad = await visitor.post('/watchlist/add', { csrf: csrfOf(watchlist), company_numbers: 'NOT A NUMBER' });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /company_numbers/);

    const added = await visitor.post('/watchlist/add', {
      csrf: csrfOf(watchlist),
      company_numbers: `${TESCO}, 99999999`,
    });
    assert.equal(added.status, 303);
    assert.equal(added.headers.get('location'), `/watchlist?added=${TESCO}&not_found=99999999`);
    const after = await (await visitor.get(added.headers.get('location')!)).text();
    assert.match(after, new RegExp(`Added: ${TESCO}`));
    assert.match(after, /Not on the register, so not added: 99999999/);
    assert.match(after, /TESCO PLC/);

    const quiet = await (await visitor.get('/alerts')).text();
    assert.match(quiet, /No changes/);

    // A later register: TESCO in liquidation, loaded through the real loader.
    await world.loadRegister(
      webCompanies.map((c) => (c.number === TESCO ? { ...c, status: 'Liquidation' } : c)),
      '2025-06-22',
    );
    const alerts = await (await visitor.get('/alerts')).text();
    assert.match(alerts, /severity-high/);
    assert.match(alerts, /TESCO PLC/);
    assert.match(alerts, /[Ll]iquidation/);
    const high = await (await visitor.get('/alerts?severity=high&since=2025-06-01')).text();
    assert.match(high, /TESCO PLC/);
    const badSince = await visitor.get('/alerts?since=yesterday');
    assert.equal(badSince.status, 400);
    assert.match(await badSince.text(), /since/);

    const removed = await visitor.post('/watchlist/remove', { csrf: csrfOf(after), company_numbers: TESCO });
    assert.equal(removed.headers.get('location'), `/watchlist?removed=${TESCO}`);

    assert.equal(await used(world, key), before, 'adding, removing and alerts are page actions: not charged');
    const out = await visitor.post('/sign-out', { csrf: csrfOf(after) });
    assert.equal(out.status, 303);
    assert.equal(visitor.cookies.has('ukcd_session'), false, 'the cookie is cleared');
    assert.equal((await world.sql.query('SELECT 1 FROM web_sessions')).rowCount, 0, 'and the session deleted');
    // The old cookie, replayed, is nobody's.
    const replay = await fetch(`${world.url}/watchlist`, {
      redirect: 'manual',
      headers: { cookie: `ukcd_session=${sessionId}` },
    });
    assert.equal(replay.headers.get('location'), '/sign-in');
  });

  test('no page view is charged to a key, signed in or not', async () => {
    const key = await world.issueKey('pro');
    const reader = new Visitor(world.url);
    await reader.signIn(key);
    const totalUsed = async () =>
      (await world.keys.listKeys(usageMonth(NOW))).reduce((sum, listed) => sum + listed.used, 0);
    const before = await totalUsed();
    for (const page of [
      '/market',
      '/search?name=tesco',
      '/search/suggest?name=tes',
      `/company/${TESCO}`,
      `/compare?company_a=${TESCO}&company_b=${HISTORY}`,
      '/leads?status=active',
      '/watchlist',
      '/alerts',
    ]) {
      assert.equal(
        (await new Visitor(world.url).get(page)).status,
        page.startsWith('/w') || page.startsWith('/al') ? 303 : 200,
      );
      assert.equal((await reader.get(page)).status, 200, page);
    }
    assert.equal(await used(world, key), 0, 'signed in: pages are limited per minute, not charged');
    assert.equal(await totalUsed(), before, 'anonymous: counted against no key');
  });

  test('a CSV download is charged as the API pages are; over quota it is the quota page, with sign-out', async () => {
    const key = await world.issueKey('free');
    const reader = new Visitor(world.url);
    await reader.signIn(key);
    const csv = await reader.get('/leads.csv?status=active');
    assert.equal(csv.status, 200);
    await csv.text();
    assert.equal(await used(world, key), 1, 'one page of 50 read: one request, as search_companies over REST');
    // Use up the month, as API calls would.
    const [record] = await world.keys.listKeys(usageMonth(NOW), key.slice(0, 13));
    await world.keys.consumeRequests(record!.id, usageMonth(NOW), 50, 49);
    const refused = await reader.get('/leads.csv?status=active');
    assert.equal(refused.status, 429);
    const page = await refused.text();
    assert.match(page, /Monthly quota exceeded: your key&#39;s API requests for this month are used up/);
    assert.match(page, /The count starts again on 1 July 2025 at 00:00 UTC\./);
    assert.match(page, /<main[\s\S]*<form action="\/sign-out" method="post">[\s\S]*<\/main>/, 'sign-out in the page');
    assert.equal((await reader.get('/watchlist')).status, 200, 'the pages still work');
    assert.equal((await reader.get(`/company/${TESCO}`)).status, 200);
    const out = await reader.post('/sign-out', { csrf: csrfOf(page) });
    assert.equal(out.status, 303);
    assert.equal(reader.cookies.has('ukcd_session'), false, 'signed out from the quota page');
  });

  test('a page asked for with ?key= is refused, uncounted: the pages know keys only by sign-in', async () => {
    const key = await world.issueKey('pro');
    const answer = await fetch(`${world.url}/search?name=tesco&key=${key}`);
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /parameter &quot;key&quot;.*sign in/);
    assert.equal(await used(world, key), 0);
    assert.equal((await fetch(`${world.url}/v1/search-by-name?name=tesco&key=${key}`)).status, 200, 'the API takes it');
    assert.equal(await used(world, key), 1, 'and charges it');
  });

  test('a revoked key ends its sessions; an expired session is gone', async () => {
    const key = await world.issueKey('free');
    const visitor = new Visitor(world.url);
    await visitor.signIn(key);
    assert.equal((await visitor.get('/watchlist')).status, 200);
    await world.keys.revokeKeys(key.slice(0, 13));
    assert.equal((await visitor.get('/watchlist')).headers.get('location'), '/sign-in');
    assert.equal(visitor.cookies.has('ukcd_session'), false);

    const other = await world.issueKey('free');
    const later = new Visitor(world.url);
    await later.signIn(other);
    world.setNow(new Date(NOW.getTime() + 721 * 60_000));
    assert.equal((await later.get('/watchlist')).headers.get('location'), '/sign-in', 'after 12 hours');
    world.setNow(NOW);
  });
});

describe('page views are limited per minute: per address, or per signed-in key (PGlite)', () => {
  let world: World;
  before(async () => {
    world = await startWorld({
      store: testStores[0]!,
      search: 'postgres',
      now: NOW,
      web: { anonPerMinute: 3, signedInPerMinute: 5 },
    });
  });
  after(() => world?.close());

  test('the fourth page a minute is a friendly 429 with Retry-After; assets are not held; a signed-in key has its own limit', async () => {
    const key = await world.issueKey('pro');
    const reader = new Visitor(world.url);
    // Signing in takes two anonymous views (the form and its post).
    assert.equal((await reader.signIn(key)).status, 303);
    const anonymous = new Visitor(world.url);
    assert.equal((await anonymous.get('/')).status, 200);
    const refused = await anonymous.get('/');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.match(refused.headers.get('content-type') ?? '', /text\/html/);
    const text = await refused.text();
    assert.match(text, /<h1>Too many requests<\/h1>/);
    assert.match(text, /sign in with an API key/);
    assert.equal((await anonymous.get('/assets/site.css')).status, 200, 'assets are not page views');
    for (let i = 0; i < 5; i++) assert.equal((await reader.get('/')).status, 200, 'signed in: the key’s own limit');
    const over = await reader.get('/');
    assert.equal(over.status, 429);
    assert.match(await over.text(), /Too many pages were asked for with your key in the last minute.*never use up/);
    assert.equal(await used(world, key), 0, 'and nothing charged');
    assert.equal((await fetch(`${world.url}/healthz`)).status, 200, 'the API is not the pages');
  });
});

test('cookies are Secure when the request came over TLS, as the proxy setting reads it', async () => {
  const app = new Koa({ proxy: true });
  app.use((ctx) => {
    ctx.cookies.set('probe', 'v', cookieOptions(ctx, 1000));
    ctx.body = 'ok';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((ready) => server.once('listening', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const overTls = await fetch(url, { headers: { 'x-forwarded-proto': 'https' } });
    assert.match(overTls.headers.getSetCookie()[0]!, /; secure/i);
    const plain = await fetch(url);
    assert.doesNotMatch(plain.headers.getSetCookie()[0]!, /secure/i);
  } finally {
    server.close();
  }
});
