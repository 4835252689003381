/**
 * Idle MCP servers kept for the next request. The endpoint is stateless, so each request needs a
 * server of its own while it runs, but building one (its handlers and their schemas) cost about as
 * much as the tool call it then served; a server that has answered and been closed can be
 * connected to the next request's transport. What a request knows of its caller travels with the
 * request (the transport's auth info), never on the server.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export interface McpServerPool {
  /** A server of its own for one request: an idle one, or a new one. */
  acquire(): Server;
  /** Back into the pool once its request is answered and it is closed; kept up to the limit. */
  release(server: Server): void;
  /** How many are idle (for tests). */
  readonly idle: number;
}

/** Enough for every request a process answers at once; any beyond are built and dropped. */
const IDLE_SERVERS = 64;

export function createMcpServerPool(build: () => Server, maxIdle = IDLE_SERVERS): McpServerPool {
  const idle: Server[] = [];
  return {
    acquire: () => idle.pop() ?? build(),
    release(server) {
      if (idle.length < maxIdle) idle.push(server);
    },
    get idle() {
      return idle.length;
    },
  };
}
