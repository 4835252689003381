/**
 * WebhookTransport on node:http and node:https. The connection goes to an address the address
 * policy accepted (a `lookup` that answers from that list), so the name is not resolved a second
 * time between the check and the connection; TLS still verifies the certificate against the
 * URL's host name. Redirects are not followed (node's client never does); the answer's body is
 * read up to 64 KiB and dropped, so a receiver cannot make us hold its stream open or buffer it.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { TransportResult, WebhookTransport } from '../../ports/webhooks.ts';

/** The most of an answer's body read before the connection is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export function createHttpWebhookTransport(): WebhookTransport {
  return {
    send({ url, addresses, headers, body, timeoutMs }) {
      const started = performance.now();
      const elapsed = () => performance.now() - started;
      const pinned = pinnedLookup(addresses);
      return new Promise<TransportResult>((resolve) => {
        let settled = false;
        const settle = (result: TransportResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(result);
        };
        const client = url.protocol === 'https:' ? https : http;
        const request = client.request(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          lookup: pinned,
          agent: false,
        });
        // One deadline for the whole attempt: connect, send, and the answer's status line.
        const timer = setTimeout(() => {
          settle({ kind: 'timeout', latencyMs: elapsed() });
          request.destroy(new Error('timeout'));
        }, timeoutMs);
        request.on('response', (response) => {
          const status = response.statusCode ?? 0;
          const latencyMs = elapsed();
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) response.destroy();
          });
          response.on('error', () => undefined);
          response.on('close', () => settle({ kind: 'response', status, latencyMs }));
          response.on('end', () => settle({ kind: 'response', status, latencyMs }));
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          settle({ kind: 'network', error: error.code ?? error.message, latencyMs: elapsed() });
        });
        request.end(body);
      });
    },
  };
}

/** A lookup that answers with the accepted addresses only: the first, or all when asked for all. */
function pinnedLookup(addresses: readonly { address: string; family: number }[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (first === undefined) {
      callback(Object.assign(new Error('no accepted address'), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [...addresses]);
    } else {
      callback(null, first.address, first.family);
    }
  };
}
