/**
 * The OpenAPI document, checked by a validator nobody here wrote (@apidevtools/swagger-parser:
 * the OpenAPI 3.0 JSON Schema and its semantic rules, every $ref resolved), every operation's
 * answers checked against it with ajv (`call` does so for every answer of the API tests:
 * test/support/openapi-conformance.ts), and its rendering for people at /docs, served from the
 * installed Redoc package with no outside address in the page. Redocly's own linter (its
 * recommended rules) reads it as client generators and API portals will.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { OPERATIONS } from '../../src/operations/index.ts';
import { call, loadFixtures, NOW } from '../support/api-fixtures.ts';
import { corporatePsc, individualPsc } from '../support/psc-records.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

describe('the OpenAPI document and /docs', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
    // Controllers with and without share bands, so that null bands and unread PSC records are answered.
    await world.pscs.upsertPscs(
      [
        corporatePsc('00000001', { name: 'BETA BUILDERS LTD', registeredNumber: '00000002' }),
        individualPsc(
          '00000002',
          { forename: 'Alan', surname: 'Smith', birthYear: 1970, birthMonth: 3 },
          { natures_of_control: ['right-to-appoint-and-remove-directors'] },
        ),
      ],
      '2025-01-01',
    );
    await world.reindex();
  });
  after(() => world.close());

  test('/openapi.json is a valid OpenAPI 3.0.3 document', async () => {
    const response = await fetch(`${world.url}/openapi.json`);
    assert.equal(response.status, 200);
    const document = (await response.json()) as Record<string, unknown>;
    assert.equal(document.openapi, '3.0.3');
    // validate() throws, naming the place, on anything the specification does not allow.
    await SwaggerParser.validate(structuredClone(document) as never);
    // Every JSON answer has its own schema, and company numbers and dates say what they must be.
    const paths = document.paths as Record<string, Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const operation of OPERATIONS.filter((o) => o.json)) {
      const answer =
        paths[operation.http.path]![operation.http.method.toLowerCase()].responses[
          String(operation.http.successStatus ?? 200)
        ];
      const refs = JSON.stringify(answer.content['application/json'].schema);
      assert.ok(refs.includes(`#/components/schemas/${operation.name}_result`), `${operation.name}: ${refs}`);
    }
    const lookup = paths['/v1/company']!.get.parameters.find((p: { name: string }) => p.name === 'number');
    assert.ok(lookup.schema.pattern, 'company numbers carry their pattern');
    const stats = paths['/v1/stats']!.get.parameters.find((p: { name: string }) => p.name === 'incorporated_from');
    assert.equal(stats.schema.format, 'date');
    // Path parameters: declared in the path, required, and not asked for again in a body.
    const retry = paths['/v1/webhooks/{id}/deliveries/{delivery}/retry']!.post;
    assert.deepEqual(
      retry.parameters.filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name),
      ['id', 'delivery'],
    );
    assert.ok(retry.parameters.every((p: { in: string; required: boolean }) => p.in !== 'path' || p.required));
    assert.equal(retry.requestBody, undefined, 'all its arguments are in the path');
    assert.match(retry.parameters[0].schema.pattern, /wh_/);
    assert.ok(retry.responses['404']);
    const deliveries = paths['/v1/webhooks/{id}/deliveries']!.get.parameters;
    assert.deepEqual(
      deliveries.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
      ['path:id', 'query:limit', 'query:format'],
    );
    assert.ok(paths['/v1/webhooks/{id}']!.delete.responses['200']);
    // webhook_create answers 201 Created, and only that success.
    assert.deepEqual(
      Object.keys(paths['/v1/webhooks']!.post.responses).filter((s) => s.startsWith('2')),
      ['201'],
    );
  });

  test('the document says what the service does: nullable enums, the free key, the limits', async () => {
    const document = (await (await fetch(`${world.url}/openapi.json`)).json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const nullableEnums: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) nullableEnums.push(at);
      for (const [key, value] of Object.entries(o)) walk(value, `${at}/${key}`);
    };
    walk(document, '#');
    assert.deepEqual(nullableEnums, [], 'a nullable enum lists null among its values');
    const free = document.paths['/v1/keys/free'].post;
    assert.deepEqual(free.security, [], 'no key needed to get one');
    assert.ok(free.responses['429'].headers['Retry-After']);
    for (const operation of OPERATIONS) {
      const responses = document.paths[operation.http.path][operation.http.method.toLowerCase()].responses;
      assert.ok(responses['429'].headers['Retry-After'], `${operation.name}: 429 Retry-After`);
      assert.ok(responses['431'], `${operation.name}: 431`);
      if (operation.http.method === 'POST') assert.ok(responses['413'], `${operation.name}: 413`);
    }
    // Every required property is defined (Redocly's no-required-schema-properties-undefined).
    const undefinedRequired: string[] = [];
    const required = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (Array.isArray(o.required) && o.type === 'object')
        for (const name of o.required as string[])
          if (!(o.properties as Record<string, unknown> | undefined)?.[name]) undefinedRequired.push(`${at}: ${name}`);
      for (const [key, value] of Object.entries(o)) required(value, `${at}/${key}`);
    };
    required(document, '#');
    assert.deepEqual(undefinedRequired, []);
  });

  test('every operation answers what the document describes, JSON and Markdown (ajv)', async () => {
    const key = await world.issueKey('pro');
    const webhook = await call(world, '/v1/webhooks?format=json', {
      key,
      body: { url: 'http://127.0.0.1:9/ukcd' },
    });
    assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
    const id = webhook.body.endpoint.id as string;
    const asked: [string, string, unknown?][] = [
      ['lookup_company', '/v1/company?number=1'],
      ['lookup_company', '/v1/company?number=6&include_ceased=true'],
      ['lookup_companies', '/v1/companies', { company_numbers: ['1', '2', '99'] }],
      ['search_by_name', '/v1/search-by-name?name=ltd&limit=2'],
      ['search_companies', '/v1/search?status=any&min_net_assets=1'],
      ['search_people', '/v1/search-people?name=smith'],
      ['get_ownership', '/v1/ownership?number=1'],
      ['get_ownership', '/v1/ownership?number=2&direction=up'],
      ['get_officers', '/v1/officers?number=1'],
      ['get_officers', '/v1/officers?number=1&include_resigned=true'],
      ['search_people', '/v1/search-people?name=smith&role=officer'],
      ['get_appointments', '/v1/officers/appointments?officer_id=nobody'],
      ['compare_companies', '/v1/compare?a=1&b=6'],
      ['market_stats', '/v1/stats?status=any'],
      ['market_stats', '/v1/stats?status=any&group_by=sic_section'],
      ['find_triggers', '/v1/triggers?trigger=cash_rich'],
      ['recent_changes', '/v1/recent-changes'],
      ['watch_add', '/v1/watchlist/add', { company_numbers: ['1', '99'] }],
      ['watch_add', '/v1/watchlist/add', { company_numbers: ['2', '3'], over_limit: 'add_what_fits' }],
      ['watch_list', '/v1/watchlist'],
      ['get_alerts', '/v1/alerts'],
      ['webhook_list', '/v1/webhooks'],
      ['webhook_test', `/v1/webhooks/${id}/test`, {}],
      ['webhook_deliveries', `/v1/webhooks/${id}/deliveries`],
      ['webhook_rotate_secret', `/v1/webhooks/${id}/rotate-secret`, {}],
      ['watch_remove', '/v1/watchlist/remove', { company_numbers: ['1'] }],
      ['webhook_delete', `/v1/webhooks/${id}`],
    ];
    const seen = new Set<string>(['webhook_create']);
    for (const [name, path, body] of asked) {
      const operation = OPERATIONS.find((o) => o.name === name)!;
      const method = operation.http.method;
      for (const format of ['json', 'markdown']) {
        const url = `${path}${path.includes('?') ? '&' : '?'}${format === 'json' ? 'format=json' : ''}`;
        // call() checks the status, headers and body against /openapi.json, and fails on a mismatch.
        const answer = await call(world, url, { key, method, ...(body !== undefined ? { body } : {}) });
        assert.ok(answer.status < 500, `${name}: ${answer.status}`);
        seen.add(name);
      }
    }
    const retry = OPERATIONS.find((o) => o.name === 'webhook_retry_delivery')!;
    await call(world, retry.http.path.replace('{id}', id).replace('{delivery}', 'whd_x'), { key, method: 'POST' });
    seen.add(retry.name);
    assert.deepEqual([...seen].sort(), OPERATIONS.map((o) => o.name).sort(), 'every operation asked');
    // The refusals, too: a body over the limit, headers over the server's limit, no key.
    const big = await call(world, '/v1/companies', { key, body: { company_numbers: ['1'], pad: 'x'.repeat(70_000) } });
    assert.equal(big.status, 413);
    const headers = await call(world, '/v1/company?number=1', { key, headers: { 'x-pad': 'x'.repeat(20_000) } });
    assert.equal(headers.status, 431);
    assert.equal((await call(world, '/v1/company?number=1')).status, 401);
  });

  test('Redocly lint finds no errors and no warnings in /openapi.json', async () => {
    const document = (await (await fetch(`${world.url}/openapi.json`)).json()) as Record<string, unknown>;
    const clean = redoclyLint(document);
    assert.deepEqual(clean.problems, []);
    assert.deepEqual(clean.totals, { errors: 0, warnings: 0, ignored: 0 });
    // The linter is really reading the document: a reference to nothing is an error.
    const broken = structuredClone(document) as { paths: Record<string, Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    broken.paths['/v1/company']!.get.responses['200'].content['application/json'].schema = {
      $ref: '#/components/schemas/nothing_here',
    };
    assert.ok(redoclyLint(broken).totals.errors > 0);
  });

  test('/docs renders the document with Redoc served from the package, nothing from elsewhere', async () => {
    const page = await fetch(`${world.url}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.match(html, /<redoc spec-url="\/openapi.json">/);
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(scripts, ['/docs/redoc.standalone.js']);
    assert.doesNotMatch(html, /https?:\/\//, 'no outside address: no CDN, no font host');
    const bundle = await fetch(`${world.url}${scripts[0]}`);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
    const code = await bundle.text();
    assert.ok(code.length > 100_000, 'the whole standalone bundle');
    assert.match(code, /Redoc/);
  });
});

interface RedoclyReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string }[];
}

/** `redocly lint` with its recommended rules, run as its command line runs it; the JSON report. */
function redoclyLint(document: unknown): RedoclyReport {
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-redocly-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(run.stdout) as RedoclyReport;
    return { totals: report.totals, problems: report.problems.map((p) => ({ ruleId: p.ruleId, message: p.message })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
