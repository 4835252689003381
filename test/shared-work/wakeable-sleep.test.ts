/**
 * The sleep of the worker loops (the gap filler, the document fetcher, the PDF worker): a wake
 * that comes while the loop is busy is not lost, and a stop ends a sleep. Every sleep here is an
 * hour, so a lost wake would hold the test until its timeout rather than pass.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { wakeableSleep } from '../../src/shared-work/wakeable-sleep.ts';

const HOUR = 3_600_000;

describe('wakeableSleep', () => {
  test('a wake while busy makes the next sleep return at once', async () => {
    const rest = wakeableSleep(new AbortController().signal);
    rest.settle();
    rest.wake();
    await rest.sleep(HOUR);
  });

  test('a wake during a sleep ends it', async () => {
    const rest = wakeableSleep(new AbortController().signal);
    const sleeping = rest.sleep(HOUR);
    rest.wake();
    await sleeping;
  });

  test('settle forgets earlier wakes, so the sleep after it lasts until the next wake', async () => {
    const rest = wakeableSleep(new AbortController().signal);
    rest.wake();
    rest.settle();
    let ended = false;
    const sleeping = rest.sleep(HOUR).then(() => (ended = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ended, false);
    rest.wake();
    await sleeping;
  });

  test('an abort ends a sleep, and every sleep after it returns at once', async () => {
    const stop = new AbortController();
    const rest = wakeableSleep(stop.signal);
    const sleeping = rest.sleep(HOUR);
    stop.abort();
    await sleeping;
    await rest.sleep(HOUR);
  });
});
