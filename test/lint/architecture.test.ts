/**
 * The arrows between the rooms bite: dependency-cruiser, run as `npm run lint` runs it (its CLI with
 * the project's .dependency-cruiser.mjs), fails on small fixture trees that hold an import cycle or
 * a forbidden import, naming the rule, and passes the same tree without them. And the real tree has
 * no import cycle.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';

const root = resolve(import.meta.dirname, '..', '..');
const configPath = join(root, '.dependency-cruiser.mjs');
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string; severity: string };
  from: string;
  to: string;
}
interface Cruised {
  status: number | null;
  output: string;
  violations: Violation[];
}

/** `depcruise src loaders` in `cwd` with the project's configuration, as JSON and as `npm run lint` prints it. */
function cruise(cwd: string, ...extra: string[]): Cruised {
  const run = (outputType: string) =>
    spawnSync(
      process.execPath,
      [depcruise, 'src', 'loaders', '--config', configPath, '--output-type', outputType, ...extra],
      // The JSON of the real tree is over spawnSync's default 1 MB.
      { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
  const json = run('json');
  assert.ok(json.stdout, `depcruise printed nothing: ${json.stderr}`);
  const result = JSON.parse(json.stdout) as { summary: { violations: Violation[] } };
  const err = run('err');
  return { status: err.status, output: err.stdout + err.stderr, violations: result.summary.violations };
}

/** A small tree laid out as the rooms are, every arrow pointing the allowed way. */
const CLEAN: Readonly<Record<string, string>> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
      noEmit: true,
    },
  }),
  'src/errors.ts': `export class AppError extends Error {}\n`,
  'src/domain/company.ts': `import { AppError } from '../errors.ts';\nexport const company = (n: string) => (n ? n : new AppError());\n`,
  'src/ports/companies.ts': `import type { company } from '../domain/company.ts';\nexport interface Companies { get: typeof company }\n`,
  'src/adapters/postgres/companies.ts': `import type { Companies } from '../../ports/companies.ts';\nexport const pgCompanies = {} as Companies;\n`,
  'src/adapters/es/client.ts': `export const client = {};\n`,
  'src/http/routes.ts': `import { company } from '../domain/company.ts';\nexport const routes = [company];\n`,
  'src/web/pages.ts': `import { company } from '../domain/company.ts';\nexport const pages = [company];\n`,
  'src/cli/main.ts': `import { load } from '../../loaders/load.ts';\nimport { pgCompanies } from '../adapters/postgres/companies.ts';\nexport const run = () => load(pgCompanies);\n`,
  'loaders/load.ts': `import type { Companies } from '../src/ports/companies.ts';\nexport const load = (companies: Companies) => companies;\n`,
};

const fixtures: string[] = [];
after(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

/** The clean tree with `changes` written over it, in a directory of its own. */
function tree(changes: Readonly<Record<string, string>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-arrows-'));
  fixtures.push(dir);
  for (const [path, text] of Object.entries({ ...CLEAN, ...changes })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('dependency-cruiser with the project configuration', () => {
  test('passes a tree whose arrows all point the allowed way', () => {
    const result = cruise(tree());
    assert.deepEqual(result.violations, []);
    assert.equal(result.status, 0, result.output);
  });

  const cases: { name: string; changes: Record<string, string>; rule: string; from: string; to: string }[] = [
    {
      name: 'an import cycle',
      changes: {
        'src/domain/a.ts': `import { b } from './b.ts';\nexport const a = () => b;\n`,
        'src/domain/b.ts': `import { a } from './a.ts';\nexport const b = () => a;\n`,
      },
      rule: 'no-circular',
      from: 'src/domain/a.ts',
      to: 'src/domain/b.ts',
    },
    {
      name: 'domain importing an adapter',
      changes: {
        'src/domain/company.ts': `import { client } from '../adapters/es/client.ts';\nexport const company = (n: string) => n || client;\n`,
      },
      rule: 'domain-is-the-ground-floor',
      from: 'src/domain/company.ts',
      to: 'src/adapters/es/client.ts',
    },
    {
      name: 'a loader importing an adapter',
      changes: {
        'loaders/load.ts': `import { pgCompanies } from '../src/adapters/postgres/companies.ts';\nexport const load = (c: unknown) => c ?? pgCompanies;\n`,
      },
      rule: 'loaders-never-build-adapters',
      from: 'loaders/load.ts',
      to: 'src/adapters/postgres/companies.ts',
    },
    {
      name: 'http importing web',
      changes: {
        'src/http/routes.ts': `import { pages } from '../web/pages.ts';\nexport const routes = [pages];\n`,
      },
      rule: 'http-mcp-web-are-peers',
      from: 'src/http/routes.ts',
      to: 'src/web/pages.ts',
    },
  ];
  for (const { name, changes, rule, from, to } of cases) {
    test(`fails on ${name}, naming the rule ${rule}`, () => {
      const result = cruise(tree(changes));
      assert.ok(
        result.violations.some((v) => v.rule.name === rule && v.rule.severity === 'error' && v.from === from),
        `no ${rule} violation from ${from} in ${JSON.stringify(result.violations)}`,
      );
      assert.ok(
        result.violations.some((v) => v.rule.name === rule && (v.to === to || v.from === to)),
        `no ${rule} violation reaching ${to}`,
      );
      assert.notEqual(result.status, 0, 'the lint passed');
      assert.match(result.output, new RegExp(`error ${rule}: ${from.replaceAll('.', '\\.')}`));
    });
  }
});

test('the real tree keeps every rule: no import cycle in src or loaders, no arrow the wrong way', () => {
  const result = cruise(root);
  assert.deepEqual(
    result.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
    [],
  );
  assert.equal(result.status, 0);
});
