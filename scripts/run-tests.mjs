#!/usr/bin/env node
// Runs every *.test.ts under the given folders (default: test/) with node's test runner through tsx.
// Node 20 neither expands globs nor discovers .ts files, so the files are listed here; and a run that
// executes no test is a failure, because a green run of nothing proves nothing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['test'];

function* testFiles(path) {
  if (statSync(path).isFile()) {
    if (path.endsWith('.test.ts')) yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) yield* testFiles(join(path, entry));
}

const files = roots.flatMap((root) => [...testFiles(root)]);
if (files.length === 0) {
  console.error(`No *.test.ts files under ${roots.join(', ')}: refusing to report success.`);
  process.exit(1);
}

mkdirSync('tmp', { recursive: true });
const tapFile = join('tmp', 'test-results.tap');
const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=1',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...files,
  ],
  { stdio: 'inherit' },
);

const tap = readFileSync(tapFile, 'utf8');
const count = (label) => Number((tap.match(new RegExp(`^# ${label} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
const tests = count('tests');
const passed = count('pass');
const failed = count('fail');
const skipped = count('skipped');
// A hook that fails (a suite's `before`) cancels its tests rather than failing them: say so.
const cancelled = count('cancelled');
console.log(`\n${passed} passed, ${failed} failed, ${cancelled} cancelled, ${skipped} skipped`);
if (tests === 0) {
  console.error('No test ran: failing the run.');
  process.exit(1);
}
process.exit(run.status ?? 1);
