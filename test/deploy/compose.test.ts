/**
 * compose.yaml and the Dockerfile, checked without a Docker engine: the compose file against the
 * Compose Specification's JSON schema, after the interpolation Compose itself does, and against
 * this project's own rules (pinned Elasticsearch, health checks, named volumes, nothing open that
 * should not be). Broken copies prove that each check can fail.
 *
 * The schema, test/deploy/compose-spec.json, is `schema/compose-spec.json` of
 * github.com/compose-spec/compose-spec (Apache-2.0) at commit a08f8d51631b7127ddac3d2c65537db429d0f1d0
 * (2025-10-28, the newest change to that file as of June 2026), reformatted by Prettier only. To
 * update it, replace the file with the newer one from that repository.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { allowedHostsFor } from '../../src/app/host-check.ts';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

type Doc = Record<string, unknown>;
type Service = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Reading the compose file as Compose does: YAML 1.2 with merge keys, then ${VAR} interpolation.

function parseCompose(text: string): unknown {
  return parse(text, { merge: true });
}

/** Compose's interpolation with an empty environment: ${V:-d} and ${V-d} give d, ${V} gives '', $$ gives $. */
function interpolate(value: unknown, env: Record<string, string> = {}): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-([^}]*))?\}/g, (match, name, colon, fallback) => {
      if (match === '$$') return '$';
      const set = env[name as string];
      if (fallback === undefined) return set ?? '';
      if (set === undefined || (colon === ':' && set === '')) return fallback as string;
      return set;
    });
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)]));
  }
  return value;
}

function loadCompose(text = read('compose.yaml')): Doc {
  return interpolate(parseCompose(text)) as Doc;
}

// ---------------------------------------------------------------------------------------------
// The Compose Specification's schema.

const schema = JSON.parse(read('test/deploy/compose-spec.json')) as Record<string, unknown>;
// Its $schema names draft-07 by an https address Ajv does not know under that name; Ajv's default
// dialect is draft-07 itself. Strict, so that a keyword Ajv would silently ignore is an error, except
// for strictTypes, which the spec's schema does not follow (keywords without an explicit type).
delete schema.$schema;
const validateSpec = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);

function specErrors(doc: unknown): string[] {
  if (validateSpec(doc)) return [];
  return (validateSpec.errors ?? []).map(
    (error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// This project's rules.

const ES_IMAGE = 'docker.elastic.co/elasticsearch/elasticsearch';
const JOBS = { 'load-register': ['load', 'register'], 'load-accounts': ['load', 'accounts'], index: ['index'] };

function pinnedElasticsearchVersion(): string {
  const match = /^VERSION="\$\{UKCD_ES_VERSION:-([^}]+)\}"/m.exec(read('scripts/elasticsearch.sh'));
  assert.ok(match?.[1], 'scripts/elasticsearch.sh pins no VERSION');
  return match[1];
}

function services(doc: Doc): Record<string, Service> {
  return (doc.services ?? {}) as Record<string, Service>;
}

function environment(service: Service): Record<string, string> {
  const env = service.environment;
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const [key, ...rest] = String(entry).split('=');
        return [key, rest.join('=')];
      }),
    );
  }
  return Object.fromEntries(Object.entries((env ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/** The host addresses a service's ports are published on ('' for every interface). */
function publishedHosts(service: Service): string[] {
  return ((service.ports ?? []) as unknown[]).map((port) => {
    if (typeof port === 'object' && port !== null) return String((port as { host_ip?: unknown }).host_ip ?? '');
    const parts = String(port).split(':');
    return parts.length >= 3 ? parts.slice(0, -2).join(':') : '';
  });
}

const isJob = (service: Service): boolean => ((service.profiles ?? []) as string[]).includes('jobs');
const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

function dependsHealthy(service: Service, on: string): boolean {
  const depends = service.depends_on;
  if (depends === null || typeof depends !== 'object' || Array.isArray(depends)) return false;
  return (depends as Record<string, { condition?: string }>)[on]?.condition === 'service_healthy';
}

function ruleProblems(doc: Doc): string[] {
  const problems: string[] = [];
  const all = services(doc);
  const version = pinnedElasticsearchVersion();
  const declaredVolumes = new Set(Object.keys((doc.volumes ?? {}) as object));
  const keys = new Set(CONFIG_VARIABLES);

  for (const name of ['postgres', 'elasticsearch', 'api', ...Object.keys(JOBS)]) {
    if (!all[name]) problems.push(`no service ${name}`);
  }

  for (const [name, service] of Object.entries(all)) {
    const image = String(service.image ?? '');
    if (image.startsWith(`${ES_IMAGE}:`) && image !== `${ES_IMAGE}:${version}`) {
      problems.push(`${name}: ${image} is not the version the tests run (${version})`);
    }
    if (isJob(service)) {
      if (service.restart !== 'no') problems.push(`${name}: a one-shot job must not restart`);
      for (const on of ['postgres', 'elasticsearch']) {
        if (!dependsHealthy(service, on)) problems.push(`${name}: does not wait for ${on} to be healthy`);
      }
    } else {
      const check = service.healthcheck as { test?: unknown; disable?: boolean } | undefined;
      if (!check?.test || check.disable) problems.push(`${name}: no health check`);
    }
    for (const volume of (service.volumes ?? []) as unknown[]) {
      const source =
        typeof volume === 'string' ? volume.split(':')[0] : String((volume as { source?: unknown }).source ?? '');
      const isPath = /^[./~]/.test(source ?? '');
      if (source && !isPath && !declaredVolumes.has(source)) problems.push(`${name}: volume ${source} not declared`);
    }
    // Elasticsearch without security, or PostgreSQL, must not be reachable from other machines.
    const env = environment(service);
    const openElasticsearch = image.startsWith(`${ES_IMAGE}:`) && env['xpack.security.enabled'] !== 'true';
    if (openElasticsearch || image.startsWith('postgres:')) {
      for (const host of publishedHosts(service)) {
        if (!LOOPBACK.has(host)) problems.push(`${name}: published on ${host || 'every interface'}, not loopback only`);
      }
    }
  }

  const api = all.api ?? {};
  for (const on of ['postgres', 'elasticsearch']) {
    if (!dependsHealthy(api, on)) problems.push(`api: does not wait for ${on} to be healthy`);
  }
  for (const [name, service] of Object.entries(all)) {
    if (name !== 'api' && !isJob(service)) continue;
    for (const key of Object.keys(environment(service))) {
      if (!keys.has(key)) problems.push(`${name}: ${key} is not a setting src/config.ts reads`);
    }
  }
  for (const [job, args] of Object.entries(JOBS)) {
    const entrypoint = all[job]?.entrypoint;
    if (JSON.stringify(entrypoint) !== JSON.stringify(['node', 'bin/ukcd.mjs', ...args])) {
      problems.push(`${job}: entrypoint ${JSON.stringify(entrypoint)} is not ukcd ${args.join(' ')}`);
    }
  }
  for (const [name, path] of [
    ['postgres', '/var/lib/postgresql/data'],
    ['elasticsearch', '/usr/share/elasticsearch/data'],
  ] as const) {
    const mounts = (all[name]?.volumes ?? []) as unknown[];
    const named = mounts.some((mount) => {
      const [source, target] = String(mount).split(':');
      return target === path && source !== undefined && declaredVolumes.has(source);
    });
    if (!named) problems.push(`${name}: ${path} is not on a named volume`);
  }
  return problems;
}

/** A copy of the compose document with one change made by `edit`. */
function broken(edit: (doc: Doc) => void): Doc {
  const doc = structuredClone(loadCompose());
  edit(doc);
  return doc;
}

// ---------------------------------------------------------------------------------------------

describe('compose.yaml', () => {
  test('is valid against the Compose Specification schema', () => {
    assert.deepEqual(specErrors(loadCompose()), []);
  });

  test("keeps this project's rules", () => {
    assert.deepEqual(ruleProblems(loadCompose()), []);
  });

  test('gives the API and the jobs a configuration src/config.ts accepts', () => {
    const all = services(loadCompose());
    for (const name of ['api', ...Object.keys(JOBS)]) {
      const config = loadConfig(environment(all[name] ?? {}));
      assert.equal(config.DATABASE_URL, 'postgres://ukcd:ukcd@postgres:5432/ukcd', name);
      assert.equal(config.ELASTICSEARCH_URL, 'http://elasticsearch:9200', name);
      assert.equal(config.DATA_DIR, '/data', name);
    }
    assert.equal(loadConfig(environment(all.api ?? {})).PORT, 3000);
  });

  test('documents in .env.example every variable it reads', () => {
    const example = read('.env.example');
    const used = new Set([...read('compose.yaml').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]));
    for (const name of used) assert.match(example, new RegExp(`^${name}=`, 'm'), `${name} is not in .env.example`);
  });

  test('interpolates as Compose does', () => {
    assert.equal(interpolate('${A:-x}/${B-y}/${C}/$$D', { A: '', B: '' }), 'x//' + '/$D');
    assert.equal(interpolate('${A:-x}', { A: 'set' }), 'set');
  });

  describe('fails a broken copy', () => {
    test('schema: an unknown top-level key', () => {
      const errors = specErrors(broken((doc) => void (doc.servics = {})));
      assert.ok(
        errors.some((error) => error.includes('additionalProperty') && error.includes('servics')),
        errors.join('\n'),
      );
    });

    test('schema: depends_on with a condition Compose does not have', () => {
      const errors = specErrors(
        broken((doc) => {
          (services(doc).api as { depends_on: Record<string, object> }).depends_on.postgres = {
            condition: 'service_ready',
          };
        }),
      );
      assert.ok(
        errors.some((error) => error.includes('/services/api/depends_on/postgres/condition')),
        errors.join('\n'),
      );
    });

    test('schema: a misspelt service key', () => {
      const errors = specErrors(
        broken((doc) => {
          const api = services(doc).api as Service;
          api.healtcheck = api.healthcheck;
          delete api.healthcheck;
        }),
      );
      assert.ok(
        errors.some((error) => error.includes('healtcheck')),
        errors.join('\n'),
      );
    });

    test('schema: YAML that is not a compose file at all', () => {
      assert.notDeepEqual(specErrors(parseCompose('services: [postgres, api]')), []);
    });

    const ruleCases: [string, (doc: Doc) => void, RegExp][] = [
      [
        'another Elasticsearch version',
        (doc) => void (services(doc).elasticsearch!.image = `${ES_IMAGE}:9.1.0`),
        /not the version the tests run/,
      ],
      [
        'Elasticsearch without security published on every interface',
        (doc) => void (services(doc).elasticsearch!.ports = ['9200:9200']),
        /elasticsearch: published on every interface/,
      ],
      [
        'PostgreSQL published on every interface',
        (doc) => void (services(doc).postgres!.ports = [{ target: 5432, published: '5432' }]),
        /postgres: published on every interface/,
      ],
      [
        'the API starting before PostgreSQL is healthy',
        (doc) =>
          void ((services(doc).api!.depends_on as Record<string, object>).postgres = { condition: 'service_started' }),
        /api: does not wait for postgres/,
      ],
      [
        'a service without a health check',
        (doc) => void delete services(doc).postgres!.healthcheck,
        /postgres: no health check/,
      ],
      [
        'a job that restarts',
        (doc) => void (services(doc).index!.restart = 'on-failure'),
        /index: a one-shot job must not restart/,
      ],
      ['an undeclared volume', (doc) => void delete (doc.volumes as Doc).esdata, /volume esdata not declared/],
      [
        'a setting the service does not read',
        (doc) => void ((services(doc).api!.environment as Doc).ELASTIC_URL = 'http://elasticsearch:9200'),
        /ELASTIC_URL is not a setting/,
      ],
      [
        'a job running the wrong command',
        (doc) => void (services(doc).index!.entrypoint = ['node', 'bin/ukcd.mjs', 'start']),
        /index: entrypoint/,
      ],
    ];
    for (const [name, edit, expected] of ruleCases) {
      test(`rules: ${name}`, () => {
        const problems = ruleProblems(broken(edit));
        assert.ok(
          problems.some((problem) => expected.test(problem)),
          problems.join('\n') || 'no problem found',
        );
      });
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => /^[A-Z]+\s/.test(line));
  const find = (word: string): string[] => instructions.filter((line) => line.startsWith(`${word} `));

  test('runs the service as an unprivileged user, with a health check on /healthz', () => {
    const user = find('USER').at(-1);
    assert.ok(user && !/\b(root|0)\b/.test(user), `USER: ${user}`);
    assert.deepEqual(find('EXPOSE'), ['EXPOSE 3000']);
    assert.match(find('HEALTHCHECK').join(''), /\/healthz/);
    assert.deepEqual(find('CMD'), ['CMD ["node", "bin/ukcd.mjs", "start"]']);
  });

  test("listens on the container's interfaces (HOST=0.0.0.0), not on the loopback the service defaults to", () => {
    assert.match(find('ENV').join(' '), /\bHOST=0\.0\.0\.0\b/);
    assert.equal(loadConfig({}).HOST, '127.0.0.1');
    const api = services(loadCompose()).api ?? {};
    assert.equal(environment(api).HOST, undefined, 'compose leaves HOST to the image');
  });

  test("the API container checks Host and Origin by default: this machine's names, not any", () => {
    const config = loadConfig({ ...environment(services(loadCompose()).api ?? {}), HOST: '0.0.0.0' });
    const allowed = allowedHostsFor(config.HOST, config.ALLOWED_HOSTS);
    assert.notEqual(allowed, 'any');
    assert.deepEqual([...allowed].sort(), ['127.0.0.1', '::1', 'localhost']);
  });

  test('copies what exists, and installs tsx as the production dependency the service runs on', () => {
    for (const line of find('COPY')) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const source of sources) assert.ok(existsSync(join(ROOT, source)), `${line}: ${source} does not exist`);
    }
    assert.match(dockerfile, /npm ci --omit=dev/);
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    assert.ok(pkg.dependencies.tsx, 'tsx must be a dependency: bin/ukcd.mjs runs TypeScript through it');
  });

  test('keeps local data and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'data', '.git', 'tmp', 'bench/results'])
      assert.ok(ignored.includes(entry), entry);
  });
});
