import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAnonymousLimiter } from '../../src/web/anonymous-limit.ts';

test('each address gets its own allowance a minute; the refusal says when to come back', async () => {
  const limiter = createAnonymousLimiter(3);
  for (let i = 0; i < 3; i++) assert.deepEqual(await limiter.take('192.0.2.1'), { allowed: true });
  const refused = await limiter.take('192.0.2.1');
  assert.equal(refused.allowed, false);
  if (!refused.allowed) assert.ok(refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 60);
  assert.deepEqual(await limiter.take('192.0.2.2'), { allowed: true }, 'another address is not held up');
});

test('two limiters count apart (one per app)', async () => {
  const a = createAnonymousLimiter(1);
  const b = createAnonymousLimiter(1);
  assert.deepEqual(await a.take('198.51.100.7'), { allowed: true });
  assert.deepEqual(await b.take('198.51.100.7'), { allowed: true });
  assert.equal((await a.take('198.51.100.7')).allowed, false);
});
