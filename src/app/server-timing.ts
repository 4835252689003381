/**
 * `Server-Timing: app;dur=<ms>` on every answer, pages and API alike: the time from the request
 * reaching the app to the end of its handling (for a page, the end of rendering; for a streamed
 * body such as a CSV download, the moment it starts to stream). A client or a benchmark can read
 * the server's share of a request's latency apart from the network and its own queueing, and
 * browsers show it in their developer tools.
 */
import type { Context, Next } from 'koa';

export async function serverTiming(ctx: Context, next: Next): Promise<void> {
  const started = performance.now();
  try {
    await next();
  } finally {
    // Errors are answered by the error middleware inside, so this runs before anything is sent;
    // an answer already written straight to the socket (MCP's stream) has no headers left to set.
    if (!ctx.headerSent) ctx.set('Server-Timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
  }
}
