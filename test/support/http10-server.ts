/**
 * A file server that speaks HTTP/1.0 over a raw socket, as `python3 -m http.server` and many
 * plain mirrors do: one request per connection, closed by the server once the body is out. Tests
 * make it misbehave on the next request for a file: cut the connection, reset it, go silent, or
 * answer with a status of their choosing. With `ranges`, it honours `Range: bytes=N-` (guarded by
 * If-Range on its ETag), as a mirror that resumes does; without, it always sends the whole file.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';

type Fault =
  /** Send this many bytes of the body, then close the connection (a FIN). */
  | { kind: 'drop'; afterBytes: number }
  /** Send this many bytes of the body, then reset the connection (an RST). */
  | { kind: 'reset'; afterBytes: number }
  /** Send this many bytes of the body, then nothing more, the connection left open. */
  | { kind: 'stall'; afterBytes: number }
  /** Answer with this status and headers, and no body. */
  | { kind: 'status'; status: number; headers?: Record<string, string> };

export interface Http10Server {
  url: string;
  /** Honour byte ranges (off: the whole file every time, as python's http.server does). */
  ranges: boolean;
  /** Every request answered: the path, the Range asked for, the status sent. */
  requests: { path: string; range: string | null; status: number }[];
  /** The next requests for `name` meet these faults, in order. */
  fail(name: string, ...faults: Fault[]): void;
  close(): Promise<void>;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  206: 'Partial Content',
  404: 'Not Found',
  416: 'Requested Range Not Satisfiable',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

export async function startHttp10Server(dir: string): Promise<Http10Server> {
  const faults = new Map<string, Fault[]>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      void answer(socket, head).catch(() => socket.destroy());
    };
    socket.on('data', onData);
  });

  const self: Http10Server = {
    url: '',
    ranges: false,
    requests: [],
    fail: (name, ...more) => void faults.set(name, [...(faults.get(name) ?? []), ...more]),
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };

  async function answer(socket: Socket, head: string): Promise<void> {
    const [requestLine = '', ...headerLines] = head.split('\r\n');
    const path = decodeURIComponent(new URL(requestLine.split(' ')[1] ?? '/', 'http://x').pathname.slice(1));
    const headers = new Map(
      headerLines.filter(Boolean).map((line) => {
        const at = line.indexOf(':');
        return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()] as const;
      }),
    );
    const range = headers.get('range') ?? null;
    const send = (status: number, fields: Record<string, string | number>) => {
      self.requests.push({ path, range, status });
      const lines = Object.entries(fields).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`HTTP/1.0 ${status} ${REASONS[status] ?? ''}\r\nServer: http10-test\r\n${lines.join('')}\r\n`);
    };
    const info = path && !path.includes('/') ? await stat(join(dir, path)).catch(() => null) : null;
    if (!info?.isFile()) {
      send(404, { 'content-length': 9 });
      socket.end('not found');
      return;
    }
    const fault = faults.get(path)?.shift();
    if (fault?.kind === 'status') {
      send(fault.status, { 'content-length': 0, ...fault.headers });
      socket.end();
      return;
    }
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const asked = /^bytes=(\d+)-$/.exec(range ?? '');
    const ifRange = headers.get('if-range');
    let start = 0;
    if (self.ranges && asked && (ifRange === undefined || ifRange === etag)) {
      start = Number(asked[1]);
      if (start >= info.size) {
        send(416, { 'content-range': `bytes */${info.size}`, 'content-length': 0 });
        socket.end();
        return;
      }
      send(206, {
        etag,
        'content-length': info.size - start,
        'content-range': `bytes ${start}-${info.size - 1}/${info.size}`,
      });
    } else {
      send(200, { 'content-length': info.size, ...(self.ranges ? { etag, 'accept-ranges': 'bytes' } : {}) });
    }
    const body = createReadStream(join(dir, path), {
      start,
      ...(fault ? { end: start + fault.afterBytes - 1 } : {}),
    });
    if (!fault) {
      body.pipe(socket);
      return;
    }
    body.on('data', (chunk) => socket.write(chunk));
    body.on('end', () => {
      // Once the bytes are on their way: what a failing network or server does next.
      setImmediate(() => {
        if (fault.kind === 'drop') socket.end();
        else if (fault.kind === 'reset') socket.resetAndDestroy();
        // 'stall': nothing; the socket stays open until the client gives up or the server closes.
      });
    });
  }

  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return self;
}
