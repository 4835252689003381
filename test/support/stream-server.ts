/**
 * A stand-in for the Companies House Streaming API over real HTTP, speaking its protocol: GET
 * /{stream}[?timepoint=N] with HTTP Basic auth; a 200 whose chunked body carries one JSON event a
 * line and a blank line as a heartbeat every `heartbeatMs`; without a timepoint, the events
 * published after the connection; with one, the stream's events from that timepoint (that event
 * included) and then the live ones; 416 for a timepoint it does not hold. Faults for the next
 * connections of a stream: a status (429 with Retry-After, 416, 500), a drop mid-line after some
 * events, or a stall (the connection stays open and sends nothing, not even heartbeats). A line
 * published need not be an event: it is sent as it is, as a garbled real stream would send it.
 */
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Fault = { status: number; retryAfter?: string } | { dropAfter: number } | { stallAfter: number };

interface StreamRequest {
  stream: string;
  timepoint: number | null;
  authorization: string | null;
}

interface Client {
  res: ServerResponse;
  /** Events still to send before a drop or a stall (null: none planned). */
  budget: number | null;
  fault: 'drop' | 'stall' | null;
}

export interface FakeStreamServer {
  url: string;
  requests: StreamRequest[];
  /** Append events (whole lines, as sent) to a stream; connected readers receive them now. */
  publish(stream: string, lines: readonly string[]): void;
  /** The next connection of `stream` meets `fault` (queued: one connection each). */
  fail(stream: string, fault: Fault): void;
  /** Forget a stream's events before `timepoint`: asking for one of them is answered 416. */
  expireBefore(stream: string, timepoint: number): void;
  /** Cut every open connection of `stream` mid-line: half a line sent, then the socket reset. */
  cut(stream: string): void;
  /** Open connections now, by stream. */
  connected(stream: string): number;
  close(): Promise<void>;
}

/** One event line of the real shape. */
export function eventLine(
  timepoint: number,
  publishedAt: string,
  resourceUri: string,
  data: Record<string, unknown>,
  more: { kind?: string; type?: string; resourceId?: string } = {},
): string {
  return JSON.stringify({
    resource_kind: more.kind ?? 'company-profile',
    resource_uri: resourceUri,
    resource_id: more.resourceId ?? resourceUri.split('/').at(-1),
    data,
    event: { timepoint, published_at: publishedAt, type: more.type ?? 'changed' },
  });
}

/** The timepoint of a line; NaN for a line that is not an event (the real stream may send one). */
function timepointOf(line: string): number {
  try {
    return (JSON.parse(line) as { event: { timepoint: number } }).event.timepoint;
  } catch {
    return Number.NaN;
  }
}

export async function startFakeStreamServer(
  options: { key?: string; heartbeatMs?: number } = {},
): Promise<FakeStreamServer> {
  const key = options.key ?? 'stream-key';
  const history = new Map<string, { timepoint: number; line: string }[]>();
  const expired = new Map<string, number>();
  const faults = new Map<string, Fault[]>();
  const clients = new Map<string, Set<Client>>();
  const requests: StreamRequest[] = [];
  const expected = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

  const send = (stream: string, client: Client, line: string): void => {
    if (client.fault === 'stall' && client.budget === 0) return;
    if (client.fault === 'drop' && client.budget === 0) {
      client.res.write(line.slice(0, Math.floor(line.length / 2)));
      // Flushed before the socket goes, so the reader really sees half a line.
      setImmediate(() => client.res.socket?.destroy());
      clients.get(stream)?.delete(client);
      return;
    }
    client.res.write(`${line}\n`);
    if (client.budget !== null) client.budget--;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stream');
    const stream = url.pathname.slice(1);
    const timepointText = url.searchParams.get('timepoint');
    const timepoint = timepointText === null ? null : Number(timepointText);
    requests.push({ stream, timepoint, authorization: req.headers.authorization ?? null });
    if (req.headers.authorization !== expected) {
      res.writeHead(401).end();
      return;
    }
    const fault = faults.get(stream)?.shift();
    if (fault && 'status' in fault) {
      res.writeHead(fault.status, fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }).end();
      return;
    }
    const events = history.get(stream) ?? [];
    let from = events.length;
    if (timepoint !== null) {
      from = events.findIndex((event) => event.timepoint === timepoint);
      if (from < 0 || timepoint < (expired.get(stream) ?? -Infinity)) {
        res.writeHead(416).end();
        return;
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const client: Client = {
      res,
      budget: fault ? ('dropAfter' in fault ? fault.dropAfter : fault.stallAfter) : null,
      fault: fault ? ('dropAfter' in fault ? 'drop' : 'stall') : null,
    };
    const set = clients.get(stream) ?? new Set<Client>();
    clients.set(stream, set);
    set.add(client);
    res.on('close', () => set.delete(client));
    for (const event of events.slice(from)) {
      if (!set.has(client)) break;
      send(stream, client, event.line);
    }
  });
  const heartbeat = setInterval(() => {
    for (const set of clients.values()) {
      for (const client of set) {
        if (client.fault === 'stall' && client.budget === 0) continue;
        client.res.write('\n');
      }
    }
  }, options.heartbeatMs ?? 50);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    publish(stream, lines) {
      const events = history.get(stream) ?? [];
      history.set(stream, events);
      for (const line of lines) {
        events.push({ timepoint: timepointOf(line), line });
        for (const client of clients.get(stream) ?? []) send(stream, client, line);
      }
    },
    fail(stream, fault) {
      faults.set(stream, [...(faults.get(stream) ?? []), fault]);
    },
    expireBefore(stream, timepoint) {
      expired.set(stream, timepoint);
    },
    cut(stream) {
      const line = history.get(stream)?.at(-1)?.line ?? '{"resource_kind":"company-profile","data":{';
      for (const client of [...(clients.get(stream) ?? [])]) {
        client.fault = 'drop';
        client.budget = 0;
        send(stream, client, line);
      }
    },
    connected: (stream) => clients.get(stream)?.size ?? 0,
    async close() {
      clearInterval(heartbeat);
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
