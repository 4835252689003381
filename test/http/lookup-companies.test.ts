/**
 * POST /v1/companies (tool lookup_companies), the batch lookup, end to end over real HTTP on the
 * embedded default and on PostgreSQL with Elasticsearch: 100 numbers in one call, each the profile
 * lookup_company gives; repeats once; the numbers not on the register; each distinct number counted
 * against the quota, all or none, also under concurrent calls; 400s naming the parameter; and two
 * SQL statements for the whole batch (the companies, and their PSCs).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { hashApiKey, keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import { runCounted } from '../../src/call/access.ts';
import { NOTE, SOURCE } from '../../src/operations/envelope.ts';
import { lookupCompanies } from '../../src/operations/lookup-companies.ts';
import { call, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { countingSql, moreCompanies } from '../support/batch-fixtures.ts';
import { testStores } from '../support/databases.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const MONTH = usageMonth(NOW);

for (const setup of setups) {
  describe(`POST /v1/companies on ${setup.name}`, () => {
    let world: World;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.loadRegister(moreCompanies, '2025-01-01');
    });
    after(() => world.close());

    const post = (key: string, body: unknown, format = '') =>
      call(world, `/v1/companies${format ? `?format=${format}` : ''}`, { key, body });
    const usage = async (key: string) =>
      (await world.keys.listKeys(MONTH, keyPrefix(key))).find((k) => k.prefix === keyPrefix(key))!.used;
    const keyId = async (key: string) => (await world.keys.listKeys(MONTH, keyPrefix(key)))[0]!.id;

    test('100 numbers in one call: a profile each, as lookup_company gives it but the history, in the order asked; not found listed; 100 counted', async () => {
      const key = await world.issueKey('pro');
      const asked = ['4', '00000001', ...moreCompanies.slice(0, 97).map((c) => c.number), '99999999'];
      assert.equal(asked.length, 100);
      const answer = await post(key, { company_numbers: asked }, 'json');
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
      const { results, not_found, source, note } = answer.body;
      assert.equal(results.length, 99);
      assert.deepEqual(
        results.map((r: { company: { company_number: string } }) => r.company.company_number),
        ['00000004', '00000001', ...moreCompanies.slice(0, 97).map((c) => c.number)],
      );
      assert.deepEqual(not_found, ['99999999']);
      assert.deepEqual([source, note], [SOURCE, NOTE]);
      // The single lookup's profile, field for field, but its year-by-year accounts and its officers
      // (get_officers gives a company's officers).
      const single = await call(world, '/v1/company?number=1&format=json', { key });
      const { source: _s, note: _n, as_of: _f, accounts: _a, officers: _o, ...profile } = single.body;
      assert.deepEqual(results[1], profile);
      assert.equal(results[1].accounts, undefined);
      assert.equal(results[1].latest.figures.net_assets, 2_000_000);
      assert.equal(results[1].risk_band, 'low');
      assert.equal(results[1].trajectory.direction, 'growing');
      assert.deepEqual(
        results[1].signals.map((s: { code: string }) => s.code),
        ['charges_outstanding'],
      );
      assert.equal(results[2].latest, null);
      // 100 for the batch, 1 for the single lookup.
      assert.equal(answer.headers.get('x-ratelimit-remaining'), '4900');
      assert.equal(await usage(key), 101);
    });

    test('the Markdown shape by default: one row a company, the signals, the numbers not found', async () => {
      const key = await world.issueKey('pro');
      const answer = await post(key, { company_numbers: ['1', '2', '7', 'SC000001'] });
      assert.equal(answer.status, 200);
      const text = markdown(answer);
      assert.match(text, /^# 2 of 4 companies found/);
      assert.match(
        text,
        /\| 00000001 \| ACME WIDGETS LIMITED \| Active \| 2015-03-01 \| 2024-12-31 \| £2m \| £900k \| £5m \| £300k \| 40 \| low \| growing \(2 periods\) \|/,
      );
      assert.match(text, /\| 00000002 \| high \| negative_net_assets \|/);
      assert.match(text, /\*\*Not on the register \(2\):\*\* 00000007, SC000001/);
      assert.ok(text.endsWith(`_Source: ${SOURCE}._  \n_${NOTE}_\n`));
    });

    test('repeats count once: 1, 00000001 and " 1 " are one company and one request', async () => {
      const key = await world.issueKey('pro');
      const answer = await post(key, { company_numbers: ['1', '00000001', ' 1 ', '2', '2'] }, 'json');
      assert.equal(answer.status, 200);
      assert.deepEqual(
        answer.body.results.map((r: { company: { company_number: string } }) => r.company.company_number),
        ['00000001', '00000002'],
      );
      assert.equal(await usage(key), 2);
      assert.equal(answer.headers.get('x-ratelimit-remaining'), '4998');
    });

    test('bad input is a 400 naming company_numbers, counted one, whatever the batch size', async () => {
      const key = await world.issueKey('pro');
      const cases: [body: unknown, error: RegExp][] = [
        [{ company_numbers: [] }, /^Invalid "company_numbers": must list at least 1 company number\.$/],
        [
          { company_numbers: Array.from({ length: 101 }, (_, i) => String(i + 1)) },
          /^Invalid "company_numbers": must list at most 100 company numbers\.$/,
        ],
        [
          { company_numbers: ['1', 'no!', '3'] },
          /^Invalid "company_numbers\[1\]": must be a company number: 8 letters or digits/,
        ],
        [{ company_numbers: ['1', 'ABCDEFGHI'] }, /^Invalid "company_numbers\[1\]"/],
        [{ company_numbers: '00000001' }, /^Invalid "company_numbers": must be an array\.$/],
        [{ company_numbers: [1, 2] }, /^Invalid "company_numbers\[0\]"/],
        [{}, /^Missing required parameter "company_numbers"/],
        [{ company_numbers: ['1'], numbers: ['2'] }, /^Unknown field "numbers"\. Accepted: company_numbers\.$/],
        [{ company_numbers: ['1\u0000'] }, /^Invalid "company_numbers\[0\]": must not contain control characters/],
      ];
      for (const [body, error] of cases) {
        const answer = await post(key, body);
        assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 80));
        assert.match(answer.body.error, error, JSON.stringify(body).slice(0, 80));
      }
      assert.equal(await usage(key), cases.length);
      const notJson = await call(world, '/v1/companies', { key, body: '{"company_numbers": [' });
      assert.equal(notJson.status, 400);
      assert.equal((await post(key, { company_numbers: ['1'] }, 'xml')).status, 400);
      assert.equal(await usage(key), cases.length + 2);
    });

    test('quota: a batch needing more than is left is 429 and counts nothing; one that fits takes the rest', async () => {
      const key = await world.issueKey('free');
      const id = await keyId(key);
      assert.deepEqual(await world.keys.consumeRequests(id, MONTH, 50, 45), { counted: true, left: 5 });
      const numbers = moreCompanies.slice(0, 10).map((c) => c.number);
      const refused = await post(key, { company_numbers: numbers }, 'json');
      assert.equal(refused.status, 429);
      assert.deepEqual(refused.body, {
        error: 'Monthly quota exceeded: this call needs 10 requests and 5 are left',
        resets_at: '2025-07-01T00:00:00Z',
        requests_needed: 10,
        requests_left: 5,
      });
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '5');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal(await usage(key), 45);
      // Five numbers, two of them repeats of others: three requests.
      const fits = await post(key, { company_numbers: ['1', '00000001', '2', '2', '3'] }, 'json');
      assert.equal(fits.status, 200);
      assert.equal(fits.headers.get('x-ratelimit-remaining'), '2');
      const rest = await post(key, { company_numbers: numbers.slice(0, 2) }, 'json');
      assert.equal(rest.status, 200);
      assert.equal(rest.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(await usage(key), 50);
      const one = await post(key, { company_numbers: ['1'] }, 'json');
      assert.equal(one.status, 429);
      assert.deepEqual(one.body, { error: 'Monthly quota exceeded', resets_at: '2025-07-01T00:00:00Z' });
      assert.equal(await usage(key), 50);
    });

    test('quota under concurrency: 8 batches of 30 and 15 single lookups on 100 left never pass the limit', async () => {
      const key = await world.issueKey('pro');
      const id = await keyId(key);
      await world.keys.consumeRequests(id, MONTH, 5000, 4900);
      const batch = moreCompanies.slice(0, 30).map((c) => c.number);
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, () => post(key, { company_numbers: batch }, 'json')),
        ...Array.from({ length: 15 }, () => call(world, '/v1/company?number=1&format=json', { key })),
      ]);
      for (const answer of answers) assert.ok([200, 429].includes(answer.status), String(answer.status));
      const granted = answers.reduce((sum, a, i) => sum + (a.status === 200 ? (i < 8 ? 30 : 1) : 0), 0);
      const used = await usage(key);
      assert.equal(used, 4900 + granted, 'exactly what the answered calls cost');
      assert.ok(used <= 5000, `used ${used}`);
      // 255 asked for with 100 left: the quota ran out for batches (a batch was refused only then).
      assert.ok(5000 - used < 30, `${5000 - used} left`);
      for (const [i, answer] of answers.entries())
        if (answer.status === 200 && i < 8) assert.equal(answer.body.results.length, 30);
    });

    test('a failure of ours gives the whole batch back', async () => {
      const key = await world.issueKey('pro');
      const caller = { key: (await world.keys.findByHash(hashApiKey(key)))! };
      const deps = { keys: world.keys, metrics: { quotaRefused: () => {} }, clock: () => NOW };
      await assert.rejects(
        runCounted(deps, { who: caller, channel: 'rest', counted: () => {}, cost: 40 }, async () =>
          Promise.reject(new Error('store down')),
        ),
        /store down/,
      );
      assert.equal(await usage(key), 0);
    });

    test('two SQL statements read the whole batch of 100: the companies, and their PSCs', async () => {
      const counted = countingSql(world.sql);
      const deps = {
        store: createCompanyStore(counted.sql),
        search: world.search,
        watchlists: createWatchlistStore(counted.sql),
        ownership: createOwnershipReader(counted.sql),
        officers: createOfficerStore(counted.sql),
        pdfEstimates: createPdfEstimateStore(counted.sql),
        people: world.people,
        webhooks: world.deps.webhooks,
      };
      const numbers = [...moreCompanies.map((c) => c.number).slice(0, 98), '00000001', '00000002'];
      const result = await lookupCompanies.run(
        deps,
        { company_numbers: numbers },
        { keyId: 0, plan: 'pro', today: '2025-06-15', now: NOW },
      );
      assert.equal(result.results.length, 100);
      assert.equal(counted.statements.length, 2, counted.statements.join('\n---\n'));
    });

    test('the OpenAPI document has the operation, with its body schema', async () => {
      const doc = await call(world, '/openapi.json');
      const operation = doc.body.paths['/v1/companies'].post;
      assert.equal(operation.operationId, 'lookup_companies');
      const schema = operation.requestBody.content['application/json'].schema;
      assert.deepEqual(schema.required, ['company_numbers']);
      assert.deepEqual(
        [schema.properties.company_numbers.minItems, schema.properties.company_numbers.maxItems],
        [1, 100],
      );
    });
  });
}
