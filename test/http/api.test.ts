/**
 * The REST API end to end over real HTTP, on the embedded default (PGlite with the Postgres search)
 * and on a real PostgreSQL with a real Elasticsearch: every endpoint in both formats, the errors of
 * the contract, CORS, and that a refused request writes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OPERATIONS } from '../../src/operations/index.ts';
import { NOTE, SOURCE } from '../../src/operations/envelope.ts';
import { call, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

for (const setup of setups) {
  describe(`REST API on ${setup.name}`, () => {
    let world: World;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      key = await world.issueKey('pro');
    });
    after(() => world.close());
    // null: no key at all.
    const get = (path: string, k: string | null = key) => call(world, path, k ? { key: k } : {});

    test('health and the OpenAPI document need no key', async () => {
      assert.equal((await get('/healthz', null)).status, 200);
      const doc = await get('/openapi.json', null);
      assert.equal(doc.status, 200);
      assert.equal(doc.body.openapi, '3.0.3');
      assert.equal(doc.body.info.version, '0.2.0');
      const ids = Object.values(doc.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
        (p) => Object.values(p).map((o) => o.operationId),
      );
      assert.deepEqual(ids.sort(), [...OPERATIONS.map((o) => o.name), 'create_free_key'].sort());
      const company = doc.body.paths['/v1/company'].get;
      assert.deepEqual(
        company.parameters.map((p: { name: string; required: boolean }) => [p.name, p.required]),
        [
          ['number', true],
          ['include_ceased', false],
          ['include_estimates', false],
          ['format', false],
        ],
      );
    });

    test('keys: missing, malformed, unknown and revoked keys get 401 with the contract text', async () => {
      const missing = await get('/v1/company?number=1', null);
      assert.equal(missing.status, 401);
      assert.deepEqual(missing.body, { error: 'Missing API key. Send Authorization: Bearer <API_KEY>.' });
      assert.equal(missing.headers.get('www-authenticate'), 'Bearer');
      for (const header of ['Bearer ukcd_nope', 'Basic abc', 'Bearer']) {
        const answer = await call(world, '/v1/company?number=1', { headers: { authorization: header } });
        assert.equal(answer.status, 401, header);
        assert.deepEqual(answer.body, { error: 'Invalid or revoked API key.' });
      }
      const revoked = await world.issueKey('free');
      assert.equal((await get('/v1/company?number=1', revoked)).status, 200);
      await world.keys.revokeKeys(revoked.slice(0, 13));
      assert.deepEqual((await get('/v1/company?number=1', revoked)).body, { error: 'Invalid or revoked API key.' });
    });

    test('POST /v1/keys/free: 201 with a working key; a bad e-mail is a 400 naming it', async () => {
      const created = await call(world, '/v1/keys/free', { body: { email: 'a@b.co' } });
      assert.equal(created.status, 201);
      assert.match(created.body.api_key, /^ukcd_[A-Za-z0-9]{32}$/);
      assert.equal(created.body.plan, 'free');
      assert.equal(created.body.monthly_quota, 50);
      assert.match(created.body.note, /shown once/);
      assert.match(created.body.note, /Authorization: Bearer/);
      const used = await get('/v1/company?number=1', created.body.api_key);
      assert.equal(used.headers.get('x-ratelimit-limit'), '50');
      assert.equal(used.headers.get('x-ratelimit-remaining'), '49');
      assert.equal((await call(world, '/v1/keys/free', { body: {} })).status, 201);
      const bad = await call(world, '/v1/keys/free', { body: { email: 'not-an-email' } });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /email/);
      assert.equal((await call(world, '/v1/keys/free', { body: { mail: 'a@b.co' } })).status, 400);
    });

    test('lookup: the company, its history newest first, signals, risk band and trajectory', async () => {
      const answer = await get('/v1/company?number=1&format=json');
      assert.equal(answer.status, 200);
      const { company, accounts, latest, signals, risk_band, trajectory, source, note } = answer.body;
      assert.equal(company.company_number, '00000001');
      assert.equal(company.name, 'ACME WIDGETS LIMITED');
      assert.deepEqual(company.accounts, {
        category: company.accounts.category,
        last_made_up_to: company.accounts.last_made_up_to,
        next_due: '2025-09-30',
        overdue: false,
      });
      assert.equal(company.charges_total, 1);
      // Both years name the bulk file and its member they came from (2023 from the 2024 filing's prior-year column).
      const filed = {
        kind: 'ixbrl',
        zip: 'Accounts_Bulk_Data-2025-06-01.zip',
        file: 'Prod223_0001_00000001_20241231.html',
      };
      assert.deepEqual(
        accounts.map((a: { balance_sheet_date: string; from_prior_period: boolean; source: unknown }) => [
          a.balance_sheet_date,
          a.from_prior_period,
          a.source,
        ]),
        [
          ['2024-12-31', false, filed],
          ['2023-12-31', true, filed],
        ],
      );
      assert.equal(latest.figures.net_assets, 2_000_000);
      assert.equal(latest.published, '2025-06-01');
      assert.deepEqual(
        signals.map((s: { code: string }) => s.code),
        ['charges_outstanding'],
      );
      assert.equal(risk_band, 'low');
      assert.equal(trajectory.direction, 'growing');
      assert.equal(trajectory.net_assets.change_pct, 42.9);
      assert.equal(source, SOURCE);
      assert.equal(note, NOTE);
    });
    test('lookup: distress shows in signals and the band; overdue accounts are overdue', async () => {
      const beta = (await get('/v1/company?number=00000002&format=json')).body;
      assert.deepEqual(
        beta.signals.map((s: { code: string }) => s.code),
        ['negative_net_assets', 'net_assets_fall_30', 'cash_fall_30'],
      );
      assert.equal(beta.risk_band, 'high');
      const zeta = (await get('/v1/company?number=6&format=json')).body;
      assert.equal(zeta.company.accounts.overdue, true);
      assert.deepEqual(
        zeta.signals.map((s: { code: string }) => s.code),
        ['accounts_overdue', 'no_machine_readable_accounts'],
      );
      assert.equal(zeta.latest, null);
    });
    test('lookup: the Markdown shape by default, ending with the source and note', async () => {
      const text = markdown(await get('/v1/company?number=1'));
      assert.match(text, /^# ACME WIDGETS LIMITED \(00000001\)/);
      assert.match(text, /\| 2024-12-31 \| 2025-06-01 \| FRS 102 \| £2m \| £900k \| £5m \| £300k \| 40 \|/);
      assert.ok(text.trimEnd().endsWith(`_${NOTE}_`));
      assert.ok(text.includes(SOURCE));
    });
    test('lookup: bad numbers are 400 naming number; unknown is 404 with the contract text', async () => {
      for (const bad of ['?number=ABC-123', '?number=123456789', '?number=', '']) {
        const answer = await get(`/v1/company${bad}`);
        assert.equal(answer.status, 400, bad);
        assert.match(answer.body.error, /"number"/);
      }
      const unknown = await get('/v1/company?number=sc999999');
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.body, { error: 'Company SC999999 not found.' });
      assert.equal((await get('/v1/company?number=1&format=xml')).status, 400);
      assert.match((await get('/v1/company?number=1&colour=red')).body.error, /Unknown parameter "colour"/);
    });

    test('search by name: ranked, limited, validated', async () => {
      const answer = await get('/v1/search-by-name?name=acme%20widgets&format=json');
      assert.equal(answer.body.query, 'acme widgets');
      assert.deepEqual(Object.keys(answer.body.results[0]).sort(), [
        'company_number',
        'incorporated',
        'name',
        'post_town',
        'sic_codes',
        'status',
        'type',
      ]);
      assert.equal(answer.body.results[0].company_number, '00000001');
      assert.deepEqual(answer.body.near_matches, []);
      // A letter or two off, nothing matches: "did you mean" near matches, in JSON and Markdown.
      const misspelt = await get('/v1/search-by-name?name=akme%20widgits&format=json');
      assert.deepEqual([misspelt.body.results, misspelt.body.total, misspelt.body.next], [[], 0, null]);
      assert.equal(misspelt.body.near_matches[0].company_number, '00000001');
      const markdown = await get('/v1/search-by-name?name=akme%20widgits');
      assert.match(markdown.body.content[0].text, /## Near matches \(a letter or two different\)\n\n\| Number/);
      assert.equal((await get('/v1/search-by-name?name=ltd&limit=2&format=json')).body.results.length, 0);
      assert.equal((await get('/v1/search-by-name?name=e&limit=1&format=json')).body.results.length, 1);
      for (const [query, param] of [
        ['', 'name'],
        ['?name=', 'name'],
        [`?name=${'x'.repeat(201)}`, 'name'],
        ['?name=a&limit=0', 'limit'],
        ['?name=a&limit=101', 'limit'],
        ['?name=a&limit=ten', 'limit'],
        ['?name=a&limit=2.5', 'limit'],
      ] as const) {
        const bad = await get(`/v1/search-by-name${query}`);
        assert.equal(bad.status, 400, query);
        assert.match(bad.body.error, new RegExp(`"${param}"`), query);
      }
    });

    test('criteria search: default filters and order, total, echo; every filter kind', async () => {
      const all = (await get('/v1/search?format=json')).body;
      assert.equal(all.total, 6);
      assert.deepEqual(all.criteria, { status: 'active', sort: '-net_assets', limit: 20 });
      assert.deepEqual(
        all.results.map((r: { company_number: string }) => r.company_number),
        ['00000004', '00000001', '00000003', '00000005', '00000002', '00000006'],
      );
      assert.deepEqual(Object.keys(all.results[0]).sort(), [
        'balance_sheet_date',
        'cash',
        'company_number',
        'employees',
        'growth',
        'incorporated',
        'name',
        'net_assets',
        'post_town',
        'profit',
        'risk_band',
        'sic_codes',
        'status',
        'turnover',
      ]);
      const numbers = async (query: string) =>
        (await get(`/v1/search?format=json&${query}`)).body.results.map(
          (r: { company_number: string }) => r.company_number,
        );
      assert.deepEqual(await numbers('post_town=leeds&sort=name'), ['00000001', '00000005', '00000003', '00000006']);
      assert.deepEqual(await numbers('type=plc'), ['00000004']);
      assert.deepEqual(await numbers('sic=62'), ['00000001']);
      assert.deepEqual(await numbers('min_net_assets=100000&max_net_assets=5000000'), ['00000001', '00000003']);
      assert.deepEqual(await numbers('min_employees=10&sort=-employees'), ['00000004', '00000001']);
      assert.deepEqual(await numbers('size=large'), ['00000004']);
      assert.deepEqual(await numbers('risk_band=high'), ['00000002']);
      assert.deepEqual(await numbers('risk_band=medium'), ['00000006']);
      assert.deepEqual(await numbers('signal=cash_rich'), ['00000004', '00000001']);
      assert.deepEqual(await numbers('signal=accounts_overdue'), ['00000006']);
      assert.deepEqual(await numbers('incorporated_from=2015-03-01&incorporated_to=2015-03-01&limit=2'), [
        '00000004',
        '00000001',
      ]);
      assert.deepEqual(await numbers('status=dissolved'), []);
      assert.match(markdown(await get('/v1/search?sic=62')), /\| 00000001 \| ACME WIDGETS LIMITED \|/);
    });
    test('criteria search: each bad parameter is a 400 that names it', async () => {
      for (const [query, param] of [
        ['min_net_assets=lots', 'min_net_assets'],
        ['sort=size', 'sort'],
        ['limit=51', 'limit'],
        ['status=alive', 'status'],
        ['size=huge', 'size'],
        ['risk_band=red', 'risk_band'],
        ['signal=shiny', 'signal'],
        ['sic=62A', 'sic'],
        ['incorporated_from=2020-02-30', 'incorporated_from'],
        ['min_cash=10&max_cash=5', 'min_cash'],
        ['limit=1&limit=2', 'limit'],
      ] as const) {
        const answer = await get(`/v1/search?${query}`);
        assert.equal(answer.status, 400, query);
        assert.match(answer.body.error, new RegExp(param), query);
      }
    });

    test('compare: both companies and the differences per figure', async () => {
      const answer = await get('/v1/compare?a=1&b=00000004&format=json');
      assert.equal(answer.status, 200);
      assert.deepEqual(
        answer.body.companies.map((c: { company: { company_number: string } }) => c.company.company_number),
        ['00000001', '00000004'],
      );
      assert.deepEqual(answer.body.differences.net_assets, {
        a: 2_000_000,
        b: 9_000_000,
        difference: -7_000_000,
        ratio: 0.222,
      });
      assert.deepEqual(answer.body.differences.profit, { a: 300_000, b: null, difference: null, ratio: null });
      const compared = markdown(await get('/v1/compare?a=1&b=4'));
      assert.match(compared, /ACME WIDGETS LIMITED vs DELTA HOLDINGS PLC/);
      // Each signal with its message, as the JSON carries them.
      for (const profile of answer.body.companies)
        for (const signal of profile.signals)
          assert.ok(
            compared.includes(
              `| ${profile.company.company_number} | ${signal.severity} | ${signal.code} | ${signal.message} |`,
            ),
            `${signal.code} of ${profile.company.company_number} in:\n${compared}`,
          );
      assert.ok(answer.body.companies.some((p: { signals: unknown[] }) => p.signals.length > 0));
      assert.deepEqual((await get('/v1/compare?a=1&b=7')).body, { error: 'Company 00000007 not found.' });
      assert.match((await get('/v1/compare?a=1')).body.error, /"b"/);
    });

    test('stats: counts, breakdowns and percentiles', async () => {
      const stats = (await get('/v1/stats?format=json')).body;
      assert.deepEqual(stats.filters, { status: 'active' });
      assert.equal(stats.companies, 6);
      assert.equal(stats.with_accounts, 5);
      assert.deepEqual(stats.by_status, { Active: 6 });
      assert.deepEqual(stats.by_type, { 'Private Limited Company': 5, 'Public Limited Company': 1 });
      assert.deepEqual(stats.incorporations_by_year, { '2015': 6 });
      assert.equal(stats.net_assets.count, 5);
      assert.equal(stats.net_assets.median, 150_000);
      assert.equal(stats.negative_net_assets_share, 0.2);
      assert.equal((await get('/v1/stats?post_town=london&format=json')).body.companies, 1);
      assert.match((await get('/v1/stats?min_cash=1')).body.error, /Unknown parameter "min_cash"/);
      assert.match(markdown(await get('/v1/stats')), /# Market statistics: 6 companies/);
    });

    test('triggers: matches with reasons and metrics; no trigger is a 400 listing them', async () => {
      const cashRich = (await get('/v1/triggers?trigger=cash_rich&format=json')).body;
      assert.equal(cashRich.total, 2);
      assert.equal(cashRich.results[0].company_number, '00000004');
      assert.equal(cashRich.results[1].reason, 'Cash £900k, up 50% on 2023; 60% of current assets at 2024-12-31');
      assert.equal(cashRich.results[1].metrics.cash, 900_000);
      const first = async (trigger: string) =>
        (await get(`/v1/triggers?trigger=${trigger}&format=json`)).body.results.map(
          (r: { company_number: string }) => r.company_number,
        );
      assert.deepEqual(await first('rapid_growth'), ['00000001']);
      assert.deepEqual(await first('hiring'), ['00000001']);
      assert.deepEqual(await first('turned_profitable'), ['00000001']);
      assert.deepEqual((await first('recently_filed')).length, 5);
      assert.deepEqual(await first('accounts_overdue'), ['00000006']);
      assert.deepEqual(await first('distress'), ['00000002']);
      assert.deepEqual(await first('young_and_funded'), []);
      const missing = await get('/v1/triggers');
      assert.equal(missing.status, 400);
      assert.match(missing.body.error, /"trigger".*cash_rich.*young_and_funded/);
      assert.match((await get('/v1/triggers?trigger=lucky')).body.error, /"trigger"/);
      assert.match((await get('/v1/triggers?trigger=hiring&limit=60')).body.error, /"limit"/);
    });

    test('recent changes: filings in the last days, newest first', async () => {
      const recent = (await get('/v1/recent-changes?days=30&format=json')).body;
      assert.equal(recent.days, 30);
      assert.equal(recent.since, '2025-05-16');
      assert.equal(recent.filings.length, 5);
      assert.deepEqual(Object.keys(recent.filings[0]).sort(), [
        'balance_sheet_date',
        'cash',
        'company_number',
        'name',
        'net_assets',
        'published',
        'turnover',
      ]);
      assert.equal((await get('/v1/recent-changes?days=7&format=json')).body.filings.length, 0);
      assert.match((await get('/v1/recent-changes?days=91')).body.error, /"days"/);
      assert.match((await get('/v1/recent-changes?limit=201')).body.error, /"limit"/);
    });

    test('watchlist: add, list, remove; over the plan limit all or nothing (409) or what fits; refused requests write nothing', async () => {
      const free = await world.issueKey('free');
      const added = await call(world, '/v1/watchlist/add', {
        key: free,
        body: { company_numbers: ['1', '00000002', '99999999'] },
      });
      assert.equal(added.status, 200);
      const text = markdown(added);
      assert.match(text, /Added \(2\):\*\* 00000001, 00000002/);
      assert.match(text, /Not found on the register \(1\):\*\* 99999999/);
      const again = markdown(
        await call(world, '/v1/watchlist/add', { key: free, body: { company_numbers: ['00000001'] } }),
      );
      assert.match(again, /Already watched \(1\):\*\* 00000001/);
      const list = (await get('/v1/watchlist?format=json', free)).body;
      assert.equal(list.plan, 'free');
      assert.equal(list.limit, 5);
      assert.equal(list.count, 2);
      assert.deepEqual(Object.keys(list.companies[0]).sort(), [
        'accounts_next_due',
        'accounts_overdue',
        'added',
        'company_number',
        'latest_balance_sheet_date',
        'name',
        'risk_band',
        'status',
      ]);
      // What an agent should know at once: ZETA's accounts are overdue already, so no alert will say so.
      const pro = await world.issueKey('pro');
      const zeta = markdown(await call(world, '/v1/watchlist/add', { key: pro, body: { company_numbers: ['6'] } }));
      assert.match(
        zeta,
        /\| 00000006 \| ZETA DORMANT LTD \| Active \| 2025-03-31 \| overdue already \| (medium|high) \|/,
      );
      const watched = (await get('/v1/watchlist?format=json', pro)).body.companies[0];
      assert.equal(watched.accounts_overdue, true);
      assert.match(watched.risk_band, /^(medium|high)$/);
      assert.match(markdown(await get('/v1/watchlist', pro)), /\| 00000006 \| ZETA DORMANT LTD \|.*\| overdue \|/);
      const over = await call(world, '/v1/watchlist/add', {
        key: free,
        body: { company_numbers: ['3', '4', '5', '6'] },
      });
      assert.equal(over.status, 409);
      assert.deepEqual(over.body, { error: 'Watchlist limit of 5 companies reached for plan free.' });
      const badChoice = await call(world, '/v1/watchlist/add', {
        key: free,
        body: { company_numbers: ['3'], over_limit: 'some' },
      });
      assert.equal(badChoice.status, 400);
      assert.match(badChoice.body.error, /over_limit.*refuse, add_what_fits/);
      const badNumber = await call(world, '/v1/watchlist/add', { key: free, body: { company_numbers: ['3', 'no!'] } });
      assert.equal(badNumber.status, 400);
      assert.match(badNumber.body.error, /company_numbers\[1\]/);
      for (const body of [{}, { company_numbers: [] }, { company_numbers: 'x' }, '[1,2]', 'not json'])
        assert.equal((await call(world, '/v1/watchlist/add', { key: free, body })).status, 400, JSON.stringify(body));
      assert.equal((await get('/v1/watchlist?format=json', free)).body.count, 2);
      const removed = markdown(
        await call(world, '/v1/watchlist/remove', { key: free, body: { company_numbers: ['2', '00000005'] } }),
      );
      assert.match(removed, /Removed \(1\):\*\* 00000002/);
      assert.match(removed, /Not watched \(1\):\*\* 00000005/);
      assert.equal((await get('/v1/watchlist?format=json', free)).body.count, 1);
      // Asked to, the first new ones that fit are added, in the order given; the rest are named.
      const fits = markdown(
        await call(world, '/v1/watchlist/add', {
          key: free,
          body: { company_numbers: ['5', '1', '3', '4', '2', '6'], over_limit: 'add_what_fits' },
        }),
      );
      assert.match(fits, /Added \(4\):\*\* 00000005, 00000003, 00000004, 00000002/);
      assert.match(fits, /Already watched \(1\):\*\* 00000001/);
      assert.match(fits, /Not added, over the plan's limit \(1\):\*\* 00000006/);
      assert.deepEqual(
        (await get('/v1/watchlist?format=json', free)).body.companies.map(
          (c: { company_number: string }) => c.company_number,
        ),
        ['00000001', '00000005', '00000003', '00000004', '00000002'],
      );
    });

    test('alerts: an empty watchlist has none, since 30 days ago', async () => {
      const empty = (await get('/v1/alerts?format=json', await world.issueKey('free'))).body;
      assert.deepEqual(
        { since: empty.since, watched: empty.watched, alerts: empty.alerts },
        {
          since: '2025-05-16',
          watched: [],
          alerts: [],
        },
      );
    });

    test('quota headers on every authenticated answer, 400 and 404 included', async () => {
      const fresh = await world.issueKey('pro');
      const answers = [
        await get('/v1/company?number=1', fresh),
        await get('/v1/company?number=x', fresh),
        await get('/v1/company?number=7', fresh),
      ];
      assert.deepEqual(
        answers.map((a) => [a.status, a.headers.get('x-ratelimit-limit'), a.headers.get('x-ratelimit-remaining')]),
        [
          [200, '5000', '4999'],
          [400, '5000', '4998'],
          [404, '5000', '4997'],
        ],
      );
      assert.equal(answers[0]!.headers.get('x-ratelimit-reset'), String(Date.UTC(2025, 6, 1) / 1000));
    });

    test('CORS: any origin, preflight answered with Authorization allowed', async () => {
      const preflight = await call(world, '/v1/company?number=1', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://example.org',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/i);
      assert.equal((await get('/v1/company?number=1')).headers.get('access-control-allow-origin'), '*');
    });

    test('malformed JSON is a 400 like any bad input: counted, with the quota headers', async () => {
      const fresh = await world.issueKey('pro');
      const answer = await call(world, '/v1/watchlist/add', { key: fresh, body: '{"company_numbers": [' });
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { error: 'The request body is not valid JSON.' });
      assert.equal(answer.headers.get('x-ratelimit-remaining'), '4999');
      const freeKey = await call(world, '/v1/keys/free', { body: '{oops' });
      assert.equal(freeKey.status, 400);
    });

    test('a body over 64 KiB is 413, not counted, nothing written', async () => {
      const fresh = await world.issueKey('pro');
      const big = { company_numbers: ['00000001'], padding: 'x'.repeat(70 * 1024) };
      const answer = await call(world, '/v1/watchlist/add', { key: fresh, body: big });
      assert.equal(answer.status, 413);
      assert.match(answer.body.error, /64 KiB/);
      const list = await get('/v1/watchlist?format=json', fresh);
      assert.equal(list.body.count, 0);
      assert.equal(list.headers.get('x-ratelimit-remaining'), '4999');
    });

    test('readiness reports the store and the search index', async () => {
      const ready = await get('/readyz', null);
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, 'ready');
      assert.deepEqual(ready.body.store, { ok: true });
      assert.deepEqual(ready.body.search, { ok: true, indexed: 6 });
    });

    test('one JSON log line per request, with the operation and the key prefix, never the key', async () => {
      const logged = await world.issueKey('pro');
      const before = world.requestLines.length;
      await get('/v1/company?number=1&format=json', logged);
      await get('/v1/search?limit=0', logged);
      await get('/healthz', null);
      await get('/v1/nothing', logged);
      const lines = world.requestLines.slice(before).map((line) => JSON.parse(line));
      assert.deepEqual(
        lines.map((l) => [l.method, l.path, l.operation, l.status, l.key]),
        [
          ['GET', '/v1/company', 'lookup_company', 200, logged.slice(0, 13)],
          ['GET', '/v1/search', 'search_companies', 400, logged.slice(0, 13)],
          ['GET', '/healthz', 'healthz', 200, null],
          ['GET', '/v1/nothing', 'unmatched', 404, logged.slice(0, 13)],
        ],
      );
      assert.ok(lines.every((l) => typeof l.ms === 'number'));
      assert.ok(!world.requestLines.join('\n').includes(logged));
    });

    test('?key= is accepted wherever the bearer header is, counted alike, and never logged', async () => {
      const inUrl = await world.issueKey('free');
      const before = world.requestLines.length;
      const looked = await get(`/v1/company?number=1&format=json&key=${inUrl}`, null);
      assert.equal(looked.status, 200);
      assert.equal(looked.body.company.company_number, '00000001');
      assert.equal(looked.headers.get('x-ratelimit-remaining'), '49');
      const added = await call(world, `/v1/watchlist/add?key=${inUrl}`, { body: { company_numbers: ['1'] } });
      assert.equal(added.status, 200);
      assert.equal(added.headers.get('x-ratelimit-remaining'), '48');
      // The same key in both places is fine; two different keys are a 401, not a guess.
      assert.equal((await get(`/v1/company?number=1&key=${inUrl}`, inUrl)).status, 200);
      const both = await get(`/v1/company?number=1&key=${inUrl}`, key);
      assert.equal(both.status, 401);
      assert.match(both.body.error, /Two different keys/);
      assert.equal((await get(`/v1/company?number=1&key=${inUrl}&key=${inUrl}`, null)).status, 401);
      const wrong = await get('/v1/company?number=1&key=ukcd_nope', null);
      assert.equal(wrong.status, 401);
      const mcp = await call(world, `/mcp?key=${inUrl}`, {
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'lookup_company', arguments: { company_number: '1' } },
        },
        headers: { accept: 'application/json, text/event-stream' },
      });
      assert.match(mcp.body.result.content[0].text, /^# ACME WIDGETS LIMITED/);
      assert.equal(mcp.headers.get('x-ratelimit-remaining'), '46');
      const lines = world.requestLines.slice(before);
      assert.ok(lines.length >= 6);
      assert.ok(!lines.join('\n').includes(inUrl), 'the key is never logged');
      assert.equal(JSON.parse(lines[0]!).key, inUrl.slice(0, 13));
      assert.equal(JSON.parse(lines[0]!).path, '/v1/company');
    });

    test('unknown paths are 404 with a pointer to the document; GET /mcp is 405', async () => {
      assert.equal((await get('/v1/nothing')).status, 404);
      assert.equal((await get('/mcp')).status, 405);
    });
  });
}
