/**
 * The index ticker: woken by every batch, it runs the update at most once per interval, never two
 * at once, runs again for what was applied during a run, and tries a failed run again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startIndexTicker } from '../../src/follow/index-ticker.ts';
import type { IndexTickerState } from '../../src/follow/index-ticker.ts';
import { waitFor } from '../support/stream-world.ts';

const INTERVAL_MS = 200;

test('runs once per interval at most, one at a time, and again for changes made during a run', async () => {
  const starts: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const releases: (() => void)[] = [];
  const ticker = startIndexTicker({
    intervalMs: INTERVAL_MS,
    log: () => {},
    update: async () => {
      starts.push(Date.now());
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise<void>((release) => releases.push(release));
      running -= 1;
    },
  });
  ticker.wake();
  await waitFor('the first run', async () => starts.length === 1);
  for (let i = 0; i < 50; i++) ticker.wake();
  releases.shift()!();
  await waitFor('the run for the changes made during the first', async () => starts.length === 2);
  releases.shift()!();
  await ticker.stop();
  assert.equal(mostAtOnce, 1);
  assert.equal(starts.length, 2, 'fifty wakes during a run make one more run');
  assert.ok(starts[1]! - starts[0]! >= INTERVAL_MS - 5, `runs ${starts[1]! - starts[0]!} ms apart`);
});

test('a failed run is said in the log and tried again, with the changes still waiting', async () => {
  const log: string[] = [];
  const states: IndexTickerState[] = [];
  let runs = 0;
  const ticker = startIndexTicker({
    intervalMs: INTERVAL_MS,
    log: (line) => log.push(line),
    onState: (state) => states.push(state),
    update: async () => {
      runs += 1;
      if (runs === 1) throw new Error('Elasticsearch is not answering');
    },
  });
  ticker.wake();
  await waitFor('the run after the failure', async () => states.some((state) => state.updatedAt !== null));
  await ticker.stop();
  assert.equal(runs, 2);
  assert.match(log[0]!, /^streams: search indexes not brought up to date \(Elasticsearch is not answering\)/);
  // Told at the wake, after the failed run (the change still waits), after the run that succeeded.
  assert.equal(states.length, 3);
  assert.equal(states[1]!.updatedAt, null);
  assert.equal(states[1]!.pendingSince, states[0]!.pendingSince);
  assert.equal(states[2]!.pendingSince, null);
});

test('stopping runs a last update for the changes still waiting', async () => {
  let runs = 0;
  const ticker = startIndexTicker({ intervalMs: 60_000, log: () => {}, update: async () => void (runs += 1) });
  ticker.wake();
  await waitFor('the first run', async () => runs === 1);
  ticker.wake();
  await ticker.stop();
  assert.equal(runs, 2, 'the change made after the first run is indexed at stop, not a minute later');
});
