import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServerPool } from '../../src/mcp/server-pool.ts';

const build = () => new Server({ name: 'pool-test', version: '0' }, { capabilities: {} });

test('an idle server is handed out before a new one is built', () => {
  let built = 0;
  const pool = createMcpServerPool(() => (built++, build()));
  const first = pool.acquire();
  pool.release(first);
  assert.equal(pool.acquire(), first);
  assert.equal(built, 1);
});

test('requests at once each get a server of their own; no more are kept idle than the limit', () => {
  const pool = createMcpServerPool(build, 2);
  const servers = [pool.acquire(), pool.acquire(), pool.acquire()];
  assert.equal(new Set(servers).size, 3);
  for (const server of servers) pool.release(server);
  assert.equal(pool.idle, 2);
});
