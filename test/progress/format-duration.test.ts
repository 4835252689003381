/** formatDuration: the times the progress lines and load summaries print. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration } from '../../src/progress/progress.ts';

const cases: [seconds: number, text: string][] = [
  [0, '0.0s'],
  [12.34, '12.3s'],
  [59.94, '59.9s'],
  [59.96, '1m0s'],
  [60, '1m0s'],
  [61.4, '1m1s'],
  [839.94, '14m0s'],
  [841.58, '14m2s'],
  [3599.6, '1h0m'],
  [3600, '1h0m'],
  [7384, '2h3m'],
];
for (const [seconds, text] of cases) test(`${seconds} s is ${text}`, () => assert.equal(formatDuration(seconds), text));
