/**
 * Every REST answer the API tests receive, checked against the service's own /openapi.json with
 * ajv (OpenAPI 3.0's `nullable` included): the status must be documented for that path and
 * method, a JSON body must validate against the schema documented for that status, and a header
 * documented for it must be sent. `call` (api-fixtures.ts) runs this on each answer, so the whole
 * API suite is also a test of the document.
 */
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the OpenAPI document, walked by key

interface Route {
  pattern: RegExp;
  path: string;
  methods: Json;
}

interface Checker {
  routes: Route[];
  validator(pointer: string): ValidateFunction;
}

const checkers = new Map<string, Promise<Checker>>();

async function checkerFor(baseUrl: string): Promise<Checker> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  assert.equal(response.status, 200, '/openapi.json');
  const document = (await response.json()) as Json;
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    formats: {
      date: /^\d{4}-\d{2}-\d{2}$/,
      'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
      email: /^[^@\s]+@[^@\s]+$/,
      uri: /^[a-z][a-z0-9+.-]*:/i,
    },
  });
  ajv.addSchema(document, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();
  return {
    routes: Object.entries(document.paths as Json).map(([path, methods]) => ({
      path,
      methods,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
    validator(pointer) {
      let validate = compiled.get(pointer);
      if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `openapi.json#${pointer}` })));
      return validate;
    },
  };
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/** Statuses that no operation documents: a wrong method on a path, and a bug of ours (the tests assert those themselves). */
const UNDOCUMENTED = new Set([405, 500]);

/** Assert that an answer from `baseUrl` is what its /openapi.json says it may be. */
export async function assertDocumented(
  baseUrl: string,
  request: { method: string; path: string },
  answer: { status: number; headers: Headers; body: unknown },
): Promise<void> {
  const path = request.path.split('?')[0]!;
  if (!path.startsWith('/v1/')) return;
  let checker = checkers.get(baseUrl);
  if (!checker) checkers.set(baseUrl, (checker = checkerFor(baseUrl)));
  const { routes, validator } = await checker;
  const route = routes.find((r) => r.pattern.test(path));
  const method = request.method.toLowerCase();
  if (!route || !route.methods[method] || UNDOCUMENTED.has(answer.status)) return;
  const where = `${request.method} ${route.path} ${answer.status}`;
  const documented = route.methods[method].responses[String(answer.status)] as Json | undefined;
  assert.ok(documented, `${where}: this status is not in /openapi.json`);
  for (const header of Object.keys(documented.headers ?? {}))
    assert.ok(answer.headers.has(header), `${where}: the documented header ${header} is missing`);
  if (!documented.content?.['application/json'] || typeof answer.body !== 'object' || answer.body === null) return;
  const pointer = ['', 'paths', route.path, method, 'responses', String(answer.status), 'content', 'application/json']
    .map(escapePointer)
    .join('/');
  const validate = validator(`${pointer}/schema`);
  assert.ok(
    validate(answer.body),
    `${where}: the answer does not fit /openapi.json: ${JSON.stringify(validate.errors?.slice(0, 5))}\n${JSON.stringify(answer.body).slice(0, 400)}`,
  );
}
