/**
 * The `ukcd` command line refuses what it does not understand with a clear message and status 2,
 * before doing anything: never a stack trace, never a service started on arguments it ignored.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../support/samples.ts';

function ukcd(args: string[], dataDir: string) {
  const run = spawnSync(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ELASTICSEARCH_URL: '', PORT: '0' },
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr };
}

describe('ukcd usage errors', () => {
  const cases: [string[], RegExp][] = [
    [['bogus'], /^unknown command "bogus"/],
    [['generate', 'register', '--help'], /^Unknown option '--help'\nRun "ukcd help"/],
    [['generate', 'accounts', '--out'], /^Option '--out <value>' argument missing\nRun "ukcd help"/],
    [['generate', 'accounts', '--out', 'x', '--from', '2024-1-1'], /^--from must be a date YYYY-MM-DD/],
    [['parse', '--bogus'], /^ukcd parse has no option "--bogus"\nusage: ukcd parse PATH/],
    [['parse'], /^usage: ukcd parse PATH/],
    [['start', '--port', '8080'], /^ukcd start takes no arguments, got "--port 8080": it is configured by environment/],
    [['index', '--fast'], /usage: ukcd index/],
  ];
  for (const [args, message] of cases) {
    test(`ukcd ${args.join(' ')}`, () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ukcd-usage-'));
      try {
        const run = ukcd(args, dataDir);
        assert.equal(run.status, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
        assert.deepEqual(readdirSync(dataDir), [], 'nothing written');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
