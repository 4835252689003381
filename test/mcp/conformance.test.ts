/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, its CLI as published)
 * against the service started on the embedded store: every server scenario that applies to a
 * server of tools only, with its own tools (the suite's tools-call-* and resources/prompts
 * scenarios call test fixtures named by the suite, which a real service does not have). Each
 * scenario must pass every check; a check's failure is shown with its message.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const PACKAGE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/', import.meta.url));
const CLI = join(
  PACKAGE,
  (JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.conformance!,
);
const NODE20_HOOK = fileURLToPath(new URL('../support/conformance-node20.mjs', import.meta.url));

/** The scenarios of a tools-only, stateless server (`conformance list` names them all). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

describe('the MCP conformance suite against the service (PGlite, Postgres search)', () => {
  let world: World;
  let results: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    results = mkdtempSync(join(tmpdir(), 'ukcd-conformance-'));
  });
  after(async () => {
    await world.close();
    rmSync(results, { recursive: true, force: true });
  });

  /** `conformance server --url … --scenario … -o <folder>`, in a folder of its own; the checks it wrote there. */
  function run(scenario: string, url: string): Promise<{ code: number | null; output: string; checks: Check[] }> {
    const cwd = mkdtempSync(join(results, `${scenario}-`));
    return new Promise((done, fail) => {
      const child = spawn(
        process.execPath,
        ['--import', NODE20_HOOK, CLI, 'server', '--url', url, '--scenario', scenario, '--output-dir', cwd],
        { cwd, env: { PATH: process.env.PATH, HOME: cwd, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, output, checks: checksUnder(cwd) }));
    });
  }

  for (const scenario of SCENARIOS)
    test(`${scenario}: every check passes`, async () => {
      // The suite's rebinding check needs the server's own address to be a localhost name.
      const url = `${world.url.replace('127.0.0.1', 'localhost')}/mcp`;
      const { code, output, checks } = await run(scenario, url);
      assert.ok(checks.length > 0, `no checks written:\n${output}`);
      const failed = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      assert.deepEqual(
        failed.map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
        [],
        output.slice(-3000),
      );
      assert.ok(
        checks.some((check) => check.status === 'SUCCESS'),
        output.slice(-3000),
      );
      assert.equal(code, 0, output.slice(-3000));
    });
});

/** Every checks.json the CLI wrote under `dir`. */
function checksUnder(dir: string): Check[] {
  const found: Check[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (entry.endsWith('checks.json')) found.push(...(JSON.parse(readFileSync(join(dir, entry), 'utf8')) as Check[]));
  return found;
}
