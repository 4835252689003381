/**
 * A real server for tests: the URL in the environment (scripts/test-all.sh exports it), else the
 * one the project's own script starts. A server that cannot be started is a failure, never a skip.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './samples.ts';

const started = new Map<string, string>();

export function serviceUrl(envVariable: string, script: string): string {
  const given = process.env[envVariable];
  if (given) return given;
  const known = started.get(script);
  if (known) return known;
  const run = spawnSync('bash', [join(repoRoot, 'scripts', script)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`scripts/${script} could not start its server:\n${run.stderr}`);
  const url = run.stdout.trim();
  started.set(script, url);
  return url;
}
