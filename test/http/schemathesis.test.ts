/**
 * Fuzzing by a tool nobody here wrote: Schemathesis (PyPI, installed by scripts/schemathesis.sh)
 * reads /openapi.json and sends each operation a bounded number of generated requests, valid and
 * invalid, with a pro key, on the embedded default and on PostgreSQL with Elasticsearch. The run
 * fails on any 5xx (the servers are up, so not even a 503 is deliberate here), on an answer whose
 * status, content type, headers or body the document does not describe, on invalid input that is
 * accepted, and on a missing or ignored key.
 *
 * Not checked: that every request the document allows is accepted (positive_data_acceptance).
 * The document does not yet carry the patterns of company numbers or the calendar rule of dates
 * (issue 13), so a request with number="" or 2024-02-30 is schema-valid and rightly refused.
 *
 * UKCD_FUZZ_SEED picks another seed (the default is fixed, so a failure reproduces);
 * UKCD_FUZZ_EXAMPLES another bound per operation.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadFixtures, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { serviceUrl } from '../support/service-url.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const SEED = process.env.UKCD_FUZZ_SEED ?? '20261123';
const EXAMPLES = process.env.UKCD_FUZZ_EXAMPLES ?? '40';

/**
 * Read by Schemathesis from the folder it runs in. Invalid input must be refused with a status the
 * document gives for it: besides Schemathesis's own list, 413 and 431, which the service answers
 * (documented) for a body or a request line and headers over its limits before any route runs;
 * a generated query string can be tens of kilobytes.
 */
const CONFIG = `[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "431", "5xx"]
`;

/** The output with the runs of percent-escapes of very long generated values cut short. */
function readable(output: string): string {
  return output.replace(/(%[0-9A-F]{2}|[A-Za-z0-9]){200,}/g, (run) => `${run.slice(0, 60)}…(${run.length} characters)`);
}

function runSchemathesis(args: string[]): Promise<{ code: number | null; output: string }> {
  // The command's path, from the environment or the install script (like the servers' URLs).
  const command = serviceUrl('UKCD_TEST_SCHEMATHESIS', 'schemathesis.sh');
  return new Promise((resolve, reject) => {
    // In a folder of its own: it keeps a cache beside where it runs.
    const cwd = mkdtempSync(join(tmpdir(), 'ukcd-schemathesis-'));
    writeFileSync(join(cwd, 'schemathesis.toml'), CONFIG);
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

for (const setup of setups) {
  describe(`Schemathesis over /openapi.json on ${setup.name}`, () => {
    let world: World;
    let key: string;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      key = await world.issueKey('pro');
    });
    after(() => world.close());

    test('no 5xx, every answer as the document describes, invalid input refused', async () => {
      const { code, output } = await runSchemathesis([
        'run',
        `${world.url}/openapi.json`,
        '--header',
        `Authorization: Bearer ${key}`,
        '--checks',
        'all',
        '--exclude-checks',
        'positive_data_acceptance',
        '--max-examples',
        EXAMPLES,
        '--seed',
        SEED,
        '--generation-database',
        'none',
        '--request-timeout',
        '20',
        '--no-color',
      ]);
      assert.equal(code, 0, `Schemathesis found failures (seed ${SEED}):\n${readable(output).slice(-20_000)}`);
      const generated = Number(/(\d+) generated/.exec(output)?.[1] ?? 0);
      assert.ok(generated >= 12 * 10, `it generated requests for every operation: ${output.slice(-2_000)}`);
    });
  });
}
