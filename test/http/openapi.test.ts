/**
 * The OpenAPI document, checked by a validator nobody here wrote (@apidevtools/swagger-parser:
 * the OpenAPI 3.0 JSON Schema and its semantic rules, every $ref resolved), and its rendering for
 * people at /docs, served from the installed Redoc package with no outside address in the page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { OPERATIONS } from '../../src/operations/index.ts';
import { loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

describe('the OpenAPI document and /docs', () => {
  let world: World;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
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
