#!/usr/bin/env node
// Runs every *.test.ts under the given folders (default: test/) with node's test runner through tsx.
// Node 20 neither expands globs nor discovers .ts files, so the files are listed here; and a run that
// executes no test is a failure, because a green run of nothing proves nothing.
//
// Files run several at a time (UKCD_TEST_CONCURRENCY, default 3), each in its own process: every
// test makes its own databases, index aliases, temporary directories and listens on port 0, so
// files share no server state. A file whose first lines hold the marker comment
// `// run-tests: alone` (it freezes servers, or asserts how long something takes) runs after
// the others, by itself.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['test'];
const concurrency = Number(process.env.UKCD_TEST_CONCURRENCY || 3);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`UKCD_TEST_CONCURRENCY must be a whole number of 1 or more, not ${process.env.UKCD_TEST_CONCURRENCY}.`);
  process.exit(2);
}

function* testFiles(path) {
  if (statSync(path).isFile()) {
    if (path.endsWith('.test.ts')) yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) yield* testFiles(join(path, entry));
}

const ALONE = /^\/\/ run-tests: alone\b/m;
const runsAlone = (file) => ALONE.test(readFileSync(file, 'utf8').slice(0, 4000));

const files = roots.flatMap((root) => [...testFiles(root)]);
if (files.length === 0) {
  console.error(`No *.test.ts files under ${roots.join(', ')}: refusing to report success.`);
  process.exit(1);
}
const alone = files.filter(runsAlone);
const together = files.filter((file) => !alone.includes(file));

mkdirSync('tmp', { recursive: true });

/**
 * One `node --test` over `group`, counted from its TAP (in a file of this run's own, so that two
 * runs in one checkout do not read each other's counts).
 */
function runGroup(name, group, groupConcurrency) {
  const tapFile = join('tmp', `test-results-${process.pid}-${name}.tap`);
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${groupConcurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...group,
    ],
    { stdio: 'inherit' },
  );
  const tap = readFileSync(tapFile, 'utf8');
  rmSync(tapFile);
  const count = (label) => Number((tap.match(new RegExp(`^# ${label} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  return {
    status: run.status ?? 1,
    tests: count('tests'),
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skipped'),
    // A hook that fails (a suite's `before`) cancels its tests rather than failing them: say so.
    cancelled: count('cancelled'),
  };
}

const results = [];
if (together.length > 0) results.push(runGroup('together', together, concurrency));
if (alone.length > 0) results.push(runGroup('alone', alone, 1));
const sum = (key) => results.reduce((total, result) => total + result[key], 0);

console.log(
  `\n${sum('passed')} passed, ${sum('failed')} failed, ${sum('cancelled')} cancelled, ${sum('skipped')} skipped`,
);
if (sum('tests') === 0) {
  console.error('No test ran: failing the run.');
  process.exit(1);
}
process.exit(results.find((result) => result.status !== 0)?.status ?? 0);
